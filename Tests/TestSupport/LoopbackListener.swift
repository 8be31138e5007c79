import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// What every loopback test server shares: a listening socket on 127.0.0.1 (a port the system
/// picks), its event loop group, and the log of the connections it accepted and the requests
/// it got.
public final class LoopbackListener: Sendable {
    public struct Log: Sendable {
        var connections = 0
        /// Accepted connections the server has not closed yet, by number.
        var accepted: [Int: Channel] = [:]
        /// The most connections found established at once by `sampleEstablishedConnections`.
        var peakEstablished = 0
        var samples = 0
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
                    log.accepted[log.connections] = channel
                    return log.connections
                }
                channel.closeFuture.whenComplete { _ in
                    log.withLockedValue { _ = $0.accepted.removeValue(forKey: number) }
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

    /// Samples, every millisecond on the server's event loop, how many of its accepted
    /// connections are established: the kernel's TCP state of each (TCP_INFO), so that a
    /// connection its client has closed counts out at once (CLOSE_WAIT), however long the
    /// server takes to read the close. The accepted set cannot grow during a sample (accepting
    /// runs on the same loop) and a connection never goes back to established, so each sample
    /// counts at most the connections established when it began: a count a server holds.
    public func sampleEstablishedConnections() {
        let log = log
        group.next().scheduleRepeatedTask(initialDelay: .milliseconds(1), delay: .milliseconds(1)) { _ in
            let channels = log.withLockedValue { Array($0.accepted.values) }
            let established = NIOLockedValueBox(0)
            for channel in channels {
                guard let provider = channel as? SocketOptionProvider else { continue }
                // On the channel's loop the option is read at once.
                provider.getTCPInfo().whenSuccess { info in
                    if info.tcpi_state == UInt8(TCP_ESTABLISHED) { established.withLockedValue { $0 += 1 } }
                }
            }
            log.withLockedValue {
                $0.peakEstablished = max($0.peakEstablished, established.withLockedValue { $0 })
                $0.samples += 1
            }
        }
    }

    /// The most connections found established at once, and how many samples were taken.
    public var peakEstablishedConnections: (peak: Int, samples: Int) {
        log.withLockedValue { ($0.peakEstablished, $0.samples) }
    }

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
