import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// What every loopback test server shares: a listening socket on 127.0.0.1 (a port the system
/// picks), its event loop group, and the log of the connections it accepted and the requests
/// it got.
public final class LoopbackListener: Sendable {
    public struct Log: Sendable {
        var connections = 0
        var requests: [ServedRequest] = []
        /// HTTP2LoopbackServer: connections whose root request came while `.well-known` was held.
        var multiplexed: Set<Int> = []
    }

    public let port: Int
    private let channel: Channel
    private let group: MultiThreadedEventLoopGroup
    let log: NIOLockedValueBox<Log>

    /// - Parameter configure: sets up each accepted connection's pipeline, given its number
    ///   (1 for the first) and the log.
    init(
        configure:
            @escaping @Sendable (_ channel: Channel, _ number: Int, _ log: NIOLockedValueBox<Log>) -> EventLoopFuture<
                Void
            >
    ) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let log = NIOLockedValueBox(Log())
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let number = log.withLockedValue { log in
                    log.connections += 1
                    return log.connections
                }
                return configure(channel, number, log)
            }
        channel = try bootstrap.bindLoopback(shuttingDownOnFailure: group)
        self.group = group
        self.log = log
        port = channel.localAddress?.port ?? 0
    }

    /// Connections accepted so far (for HTTPS: TLS handshakes attempted).
    public var connectionCount: Int { log.withLockedValue { $0.connections } }

    /// Requests answered or held so far, in arrival order.
    public var requests: [ServedRequest] { log.withLockedValue { $0.requests } }

    /// curl `--connect-to` entry sending every host's port 443 here.
    public var connectTo: String { "::127.0.0.1:\(port)" }

    /// Closes the listener and lets its threads end in the background: tests call this from
    /// async code, where waiting for the threads would block a thread of the concurrency pool
    /// (on two cores, half of it) and stall every other test.
    public func shutdown() {
        channel.close(promise: nil)
        group.shutdownGracefully { _ in }
    }
}
