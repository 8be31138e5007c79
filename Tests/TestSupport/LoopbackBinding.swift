import NIOCore
import NIOPosix

extension ServerBootstrap {
    /// Binds to a port the system picks on 127.0.0.1; on failure shuts `group` down and throws.
    func bindLoopback(shuttingDownOnFailure group: MultiThreadedEventLoopGroup) throws -> Channel {
        TestLayer.enteringLive("a loopback server")
        do {
            return try bind(host: "127.0.0.1", port: 0).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
    }
}

/// The networks the test servers listen on. The fetcher refuses them unless told otherwise
/// (its address policy); tests that fetch from these servers allow them explicitly.
public enum LoopbackNetworks {
    public static let all = ["127.0.0.0/8", "::1/128"]
    /// `--allow-network` arguments for the command line.
    public static let allowArguments = all.flatMap { ["--allow-network", $0] }
}
