import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// How a misbehaving server treats each connection.
public enum Fault: Sendable {
    /// Reads the client's first bytes (the TLS ClientHello), then resets the connection.
    case resetAfterClientHello
    /// Accepts and reads, and never answers anything.
    case silent
    /// Completes TLS, reads a request, and answers with raw bytes chosen by (host, path).
    case respond(@Sendable (_ host: String, _ path: String) -> RawResponse)
}

/// An answer written byte for byte, so that it can break HTTP in any way.
public enum RawResponse: Sendable {
    /// Writes the bytes, then ends the connection as told.
    case bytes([UInt8], then: Ending)
    /// Writes the bytes one at a time, one every `interval`, then ends as told.
    case trickle([UInt8], interval: TimeAmount, then: Ending)
    /// Writes the head, then chunks of a chunked body forever (as fast as the client reads).
    case endlessChunks(head: String)
    /// Never answers the request (the TLS handshake is complete, the connection stays open).
    case never
    /// Answers with `response`, `delay` after the request arrived (a far-away or overloaded
    /// server: every request of the connection waits).
    indirect case delayed(TimeAmount, RawResponse)

    public enum Ending: Sendable {
        case keepOpen
        case close
        /// A TCP reset (SO_LINGER 0).
        case reset
    }

    /// A response head and body; `contentLength` overrides the true length (to lie).
    public static func http(
        status: String = "200 OK", version: String = "HTTP/1.1", headers: [String] = ["Content-Type: application/json"],
        body: [UInt8], contentLength: Int?? = .some(nil), then ending: Ending = .keepOpen
    ) -> RawResponse {
        var head = "\(version) \(status)\r\n" + headers.map { $0 + "\r\n" }.joined()
        switch contentLength {
        case .some(.some(let length)): head += "Content-Length: \(length)\r\n"
        case .some(.none): head += "Content-Length: \(body.count)\r\n"
        case .none: break
        }
        return .bytes(Array((head + "\r\n").utf8) + body, then: ending)
    }
}

/// A server on 127.0.0.1 that misbehaves on purpose, over TLS (or raw TCP for the faults that
/// come before TLS). Counts the connections it accepts.
public final class FaultServer: Sendable {
    public let port: Int
    private let channel: Channel
    private let group: MultiThreadedEventLoopGroup
    private let accepted: NIOLockedValueBox<Int>
    private let open: NIOLockedValueBox<Int>

    /// - Parameter tls: changes to the identity's TLS configuration (a server of TLS 1.2 and
    ///   CHACHA20 only).
    public init(
        identity: ServerIdentity?, tls: @Sendable (inout TLSConfiguration) -> Void = { _ in }, fault: Fault
    ) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let accepted = NIOLockedValueBox(0)
        let open = NIOLockedValueBox(0)
        let sslContext = try identity.map { identity in
            var configuration = try identity.tlsConfiguration()
            tls(&configuration)
            return try NIOSSLContext(configuration: configuration)
        }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                accepted.withLockedValue { $0 += 1 }
                open.withLockedValue { $0 += 1 }
                channel.closeFuture.whenComplete { _ in open.withLockedValue { $0 -= 1 } }
                return channel.eventLoop.makeCompletedFuture {
                    switch fault {
                    case .resetAfterClientHello, .silent:
                        try channel.pipeline.syncOperations.addHandler(TCPFaultHandler(fault: fault))
                    case .respond(let script):
                        if let sslContext {
                            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                        }
                        try channel.pipeline.syncOperations.addHandler(RawHTTPHandler(script: script))
                    }
                }
            }
        channel = try bootstrap.bindLoopback(shuttingDownOnFailure: group)
        self.group = group
        self.accepted = accepted
        self.open = open
        port = channel.localAddress?.port ?? 0
    }

    /// A server of TLS 1.2 at most, with these suites (OpenSSL's names, `:`-separated).
    public static func tls12(suites: String) -> @Sendable (inout TLSConfiguration) -> Void {
        { configuration in
            configuration.maximumTLSVersion = .tlsv12
            configuration.cipherSuites = suites
        }
    }

    public var connectionCount: Int { accepted.withLockedValue { $0 } }
    /// Connections open now.
    public var openConnections: Int { open.withLockedValue { $0 } }

    /// curl `--connect-to` entry sending `host`'s port 443 here.
    public func connectTo(_ host: String) -> String { "\(host):443:127.0.0.1:\(port)" }

    /// Closes the server and lets its threads end in the background: tests call this from
    /// async code, where waiting for the threads would block a thread of the concurrency pool
    /// (on two cores, half of it) and stall every other test.
    public func shutdown() {
        channel.close(promise: nil)
        group.shutdownGracefully { _ in }
    }
}

/// Resets a connection (SO_LINGER 0, then close).
func reset(_ channel: Channel) {
    guard let sockets = channel as? SocketOptionProvider else {
        channel.close(promise: nil)
        return
    }
    sockets.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
        channel.close(promise: nil)
    }
}

/// Bytes still to trickle out; touched only on the connection's event loop.
final class PendingBytes: @unchecked Sendable {
    var bytes: ArraySlice<UInt8>
    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }
}

final class TCPFaultHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let fault: Fault

    init(fault: Fault) { self.fault = fault }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .resetAfterClientHello = fault { reset(context.channel) }
    }
}

/// Reads HTTP/1.1 requests by hand (request line and Host header) and writes raw answers.
final class RawHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let script: @Sendable (String, String) -> RawResponse
    private var received: [UInt8] = []
    private var repeating: RepeatedTask?

    init(script: @escaping @Sendable (String, String) -> RawResponse) { self.script = script }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        received += buffer.readBytes(length: buffer.readableBytes) ?? []
        while let end = headEnd() {
            let head = String(decoding: received[..<end], as: UTF8.self)
            received.removeFirst(end + 4)
            let lines = head.components(separatedBy: "\r\n")
            let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            let host =
                lines.first { $0.lowercased().hasPrefix("host:") }.map {
                    String($0.dropFirst(5).trimmingCharacters(in: .whitespaces).split(separator: ":").first ?? "")
                } ?? ""
            answer(script(host, path), context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        repeating?.cancel()
        context.fireChannelInactive()
    }

    private func headEnd() -> Int? {
        guard received.count >= 4 else { return nil }
        for index in 0...(received.count - 4)
        where received[index] == 13 && received[index + 1] == 10 && received[index + 2] == 13
            && received[index + 3] == 10
        {
            return index
        }
        return nil
    }

    private func answer(_ response: RawResponse, context: ChannelHandlerContext) {
        answer(response, channel: context.channel)
    }

    private func answer(_ response: RawResponse, channel: Channel) {
        switch response {
        case .bytes(let bytes, let ending):
            channel.writeAndFlush(ByteBuffer(bytes: bytes)).whenComplete { _ in Self.end(channel, ending) }
        case .trickle(let bytes, let interval, let ending):
            let remaining = PendingBytes(bytes)
            repeating = channel.eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: interval) { task in
                guard let byte = remaining.bytes.popFirst() else {
                    task.cancel()
                    Self.end(channel, ending)
                    return
                }
                channel.writeAndFlush(ByteBuffer(bytes: [byte]), promise: nil)
            }
        case .never:
            return
        case .delayed(let delay, let inner):
            let handler = NIOLoopBound(self, eventLoop: channel.eventLoop)
            channel.eventLoop.scheduleTask(in: delay) { handler.value.answer(inner, channel: channel) }
        case .endlessChunks(let head):
            let chunk = ByteBuffer(
                bytes: Array("4000\r\n".utf8) + Array(repeating: UInt8(ascii: " "), count: 0x4000) + Array("\r\n".utf8))
            channel.write(ByteBuffer(bytes: Array(head.utf8)), promise: nil)
            Self.pump(channel, chunk)
        }
    }

    /// Writes the next chunk when the last one has gone, until the connection ends.
    static func pump(_ channel: Channel, _ chunk: ByteBuffer) {
        channel.writeAndFlush(chunk).whenSuccess { pump(channel, chunk) }
    }

    static func end(_ channel: Channel, _ ending: RawResponse.Ending) {
        switch ending {
        case .keepOpen: break
        case .close: channel.close(promise: nil)
        case .reset: reset(channel)
        }
    }
}
