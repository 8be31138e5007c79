import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// An HTTPS server on 127.0.0.1 that speaks only HTTP/2 (ALPN "h2") and serves `body` at both
/// locations. It holds each connection's `.well-known` answer until that connection's root
/// request arrives (or `hold` passes), so a test can tell a client that multiplexes both
/// requests from one that sends the root only after `.well-known` is answered. With
/// `wellKnownLast`, the held `.well-known` is answered only after the root's answer is sent, so
/// that `.well-known` is the connection's last stream to end.
public final class HTTP2LoopbackServer: Sendable {
    private let listener: LoopbackListener

    public init(
        identity: ServerIdentity, body: String, hold: TimeAmount = .seconds(3), wellKnownLast: Bool = false
    ) throws {
        var configuration = try identity.tlsConfiguration()
        configuration.applicationProtocols = ["h2"]
        let sslContext = try NIOSSLContext(configuration: configuration)
        listener = try LoopbackListener { channel, number, log in
            let held = NIOLoopBound(HeldAnswer(), eventLoop: channel.eventLoop)
            do {
                try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
            return channel.configureHTTP2Pipeline(mode: .server) { stream in
                stream.eventLoop.makeCompletedFuture {
                    try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                    try stream.pipeline.syncOperations.addHandler(
                        HoldingHTTP2Handler(
                            connection: number, log: log, held: held, body: body, hold: hold,
                            wellKnownLast: wellKnownLast))
                }
            }.map { _ in }
        }
    }

    public var connectionCount: Int { listener.connectionCount }
    public var requests: [ServedRequest] { listener.requests }
    /// Connections on which the root was requested before `.well-known` was answered.
    public var multiplexedConnections: Set<Int> { listener.log.withLockedValue { $0.multiplexed } }
    public var connectTo: String { listener.connectTo }

    public func shutdown() { listener.shutdown() }
}

/// A connection's held `.well-known` answer: called when the root arrives or the hold ends.
final class HeldAnswer {
    var release: (() -> Void)?
}

final class HoldingHTTP2Handler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let connection: Int
    private let log: NIOLockedValueBox<LoopbackListener.Log>
    private let held: NIOLoopBound<HeldAnswer>
    private let body: String
    private let hold: TimeAmount
    private let wellKnownLast: Bool

    init(
        connection: Int, log: NIOLockedValueBox<LoopbackListener.Log>, held: NIOLoopBound<HeldAnswer>, body: String,
        hold: TimeAmount, wellKnownLast: Bool
    ) {
        self.wellKnownLast = wellKnownLast
        self.connection = connection
        self.log = log
        self.held = held
        self.body = body
        self.hold = hold
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        let host = String((head.headers.first(name: "host") ?? "").split(separator: ":").first ?? "")
        log.withLockedValue {
            $0.requests.append(
                ServedRequest(
                    host: host, path: head.uri, userAgent: head.headers.first(name: "user-agent"),
                    connection: connection))
        }
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let answer = { [body] in Self.answer(loopBound.value, body: body) }
        if head.uri == "/.well-known/apple-app-site-association" {
            held.value.release = answer
            context.eventLoop.scheduleTask(in: hold) { [held] in
                held.value.release?()
                held.value.release = nil
            }
        } else {
            guard let release = held.value.release else { return answer() }
            log.withLockedValue { _ = $0.multiplexed.insert(connection) }
            held.value.release = nil
            if wellKnownLast {
                answer()
                // Sent a moment later, so that the client has ended the root's stream first.
                let later = NIOLoopBound(release, eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: .milliseconds(20)) { later.value() }
            } else {
                release()
                answer()
            }
        }
    }

    static func answer(_ context: ChannelHandlerContext, body: String) {
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json")
        headers.add(name: "content-length", value: String(body.utf8.count))
        context.write(
            NIOAny(HTTPServerResponsePart.head(HTTPResponseHead(version: .http2, status: .ok, headers: headers))),
            promise: nil)
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
    }
}
