import NIOCore
import NIOPosix

extension ServerBootstrap {
    /// Binds to a port the system picks on 127.0.0.1; on failure shuts `group` down and throws.
    func bindLoopback(shuttingDownOnFailure group: MultiThreadedEventLoopGroup) throws -> Channel {
        do {
            return try bind(host: "127.0.0.1", port: 0).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
    }
}
