import Foundation
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

    /// Accepted connections the server has not closed yet (it closes one when its client does).
    public var openConnectionCount: Int { log.withLockedValue { $0.accepted.count } }

    /// Samples, every millisecond on the server's event loop, how many of its accepted
    /// connections are established: the kernel's TCP state of each (TCP_INFO), so that a
    /// connection its client has closed counts out as soon as the kernel has taken the close in
    /// (CLOSE_WAIT), however long the server takes to read it. The accepted set cannot grow
    /// during a sample (accepting runs on the same loop) and a connection never goes back to
    /// established, so each sample counts at most the connections established when it began.
    ///
    /// A count above the peak so far is checked against the client's ends before it is taken,
    /// for two ways the server can hold for a moment a connection its client (in this process)
    /// has closed: under load the kernel may take the close's FIN in after the next connection's
    /// handshake (on the other core), and a process the test suite starts at that instant holds
    /// a copy of every descriptor until it runs its program. Only those whose client end is
    /// established (`/proc/net/tcp`) and held by this process (`/proc/self/fd`) count; each was
    /// accepted before the sample began and still open at the client when checked, so all were
    /// open at once.
    public func sampleEstablishedConnections() {
        let log = log
        let port = port
        group.next().scheduleRepeatedTask(initialDelay: .milliseconds(1), delay: .milliseconds(1)) { _ in
            let channels = log.withLockedValue { Array($0.accepted.values) }
            let established = NIOLockedValueBox<[Int]>([])
            for channel in channels {
                guard let provider = channel as? SocketOptionProvider, let client = channel.remoteAddress?.port
                else { continue }
                // On the channel's loop the option is read at once.
                provider.getTCPInfo().whenSuccess { info in
                    if info.tcpi_state == UInt8(TCP_ESTABLISHED) { established.withLockedValue { $0.append(client) } }
                }
            }
            let clients = established.withLockedValue { $0 }
            var count = clients.count
            if count > log.withLockedValue({ $0.peakEstablished }) {
                count = Self.clientEndsEstablished(serverPort: port, clientPorts: Set(clients)) ?? count
            }
            log.withLockedValue {
                $0.peakEstablished = max($0.peakEstablished, count)
                $0.samples += 1
            }
        }
    }

    /// How many of the connections from 127.0.0.1's `clientPorts` to `serverPort` this process
    /// holds established at the client's end (the kernel's table of IPv4 TCP sockets, and the
    /// sockets among this process's descriptors), or nil where either cannot be read.
    static func clientEndsEstablished(serverPort: Int, clientPorts: Set<Int>) -> Int? {
        guard let table = readWhole("/proc/net/tcp"), let held = socketsHeld() else { return nil }
        let established = "01"
        // A line may come twice (or not at all: the count is then low for this sample only, and
        // the next checks again): the kernel writes the table a page at a time, walking it anew
        // from the same position after connections come and go.
        var open: Set<Int> = []
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[3] == established,
                let local = fields[1].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                let remote = fields[2].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                remote == serverPort, clientPorts.contains(local), let inode = Int(fields[9])
            else { continue }
            if held.contains(inode) { open.insert(local) }
        }
        return open.count
    }

    /// The inodes of the sockets among this process's descriptors.
    static func socketsHeld() -> Set<Int>? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        var inodes: Set<Int> = []
        for name in names {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
                target.hasPrefix("socket:["), target.hasSuffix("]"),
                let inode = Int(target.dropFirst("socket:[".count).dropLast())
            else { continue }
            inodes.insert(inode)
        }
        return inodes
    }

    /// A /proc file read to its end (String(contentsOfFile:) stops at the first page).
    static func readWhole(_ path: String) -> String? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        return (try? file.readToEnd()).map { String(decoding: $0, as: UTF8.self) }
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
