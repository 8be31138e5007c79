import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// What a test server saw of one request.
public struct ServedRequest: Sendable, Equatable {
    public var host: String
    public var path: String
    public var userAgent: String?
    /// Which accepted connection carried it (1 for the first).
    public var connection: Int
    public var method = "GET"
    public var contentType: String?
    /// The request's body (a webhook receiver's POST).
    public var body: [UInt8] = []
}

/// How a test server answers one request.
public enum ScriptedResponse: Sendable {
    /// A complete response. `chunked` sends the body with chunked encoding instead of a
    /// Content-Length.
    case respond(status: Int, headers: [(String, String)], body: [UInt8], chunked: Bool = false)
    /// Never answers; the connection stays open.
    case hang
    /// Closes the connection without answering.
    case close

    /// A 200 answer with a JSON body and `Content-Type: application/json`.
    public static func json(_ text: String, contentType: String = "application/json") -> ScriptedResponse {
        .respond(status: 200, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }

    /// A redirect to `location`.
    public static func redirect(_ status: Int = 301, to location: String) -> ScriptedResponse {
        .respond(status: status, headers: [("Location", location)], body: [])
    }

    public static func status(_ status: Int, body: String = "") -> ScriptedResponse {
        .respond(status: status, headers: [("Content-Type", "text/html")], body: Array(body.utf8))
    }
}

/// A real HTTPS (or, without an identity, plain HTTP) server on 127.0.0.1, on a port the
/// system picks, answering each request from a script keyed by host and path.
public final class LoopbackServer: Sendable {
    private let listener: LoopbackListener

    /// - Parameters:
    ///   - identity: the TLS identity; nil serves plain HTTP on the port.
    ///   - script: the answer for a (host, path); called on the server's threads.
    public convenience init(
        identity: ServerIdentity?, script: @escaping @Sendable (_ host: String, _ path: String) -> ScriptedResponse
    ) throws {
        try self.init(identity: identity, agentScript: { host, path, _ in script(host, path) })
    }

    /// - Parameter agentScript: the answer for a (host, path, User-Agent).
    public init(
        identity: ServerIdentity?,
        agentScript script:
            @escaping @Sendable (_ host: String, _ path: String, _ userAgent: String?) -> ScriptedResponse
    ) throws {
        let sslContext = try identity.map { try NIOSSLContext(configuration: $0.tlsConfiguration()) }
        listener = try LoopbackListener { channel, number, log in
            channel.eventLoop.makeCompletedFuture {
                if let sslContext {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                }
                try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                try channel.pipeline.syncOperations.addHandler(
                    ScriptedHTTPHandler(connection: number, log: log, script: script))
            }
        }
    }

    public var port: Int { listener.port }
    /// Connections accepted so far (for HTTPS: TLS handshakes attempted).
    public var connectionCount: Int { listener.connectionCount }
    /// Accepted connections still open (it closes one when its client does).
    public var openConnectionCount: Int { listener.openConnectionCount }
    /// Samples the connections the server holds established from now on.
    public func sampleEstablishedConnections() { listener.sampleEstablishedConnections() }
    /// The most connections it held established at once in the samples, and how many samples.
    public var peakEstablishedConnections: (peak: Int, samples: Int) { listener.peakEstablishedConnections }
    /// Requests answered or held so far, in arrival order.
    public var requests: [ServedRequest] { listener.requests }
    /// curl `--connect-to` entry sending every host's port 443 to this server.
    public var connectTo: String { listener.connectTo }

    public func shutdown() { listener.shutdown() }

    /// A port on 127.0.0.1 where nothing listens: bound and never listened on, and kept bound
    /// for the rest of the test process, so that connections are refused and no other test's
    /// server can be handed the same port meanwhile (a released port was, and the "refused" host
    /// then answered TLS).
    public static func unusedPort() throws -> Int {
        TestLayer.enteringLive("a loopback port")
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

final class ScriptedHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let connection: Int
    private let log: NIOLockedValueBox<LoopbackListener.Log>
    private let script: @Sendable (String, String, String?) -> ScriptedResponse
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(
        connection: Int, log: NIOLockedValueBox<LoopbackListener.Log>,
        script: @escaping @Sendable (String, String, String?) -> ScriptedResponse
    ) {
        self.connection = connection
        self.log = log
        self.script = script
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let buffer):
            // Bounded: a test receiver keeps at most 1 MB of a body.
            if body.count < 1 << 20 { body += buffer.readableBytesView.prefix((1 << 20) - body.count) }
        case .end:
            guard let head else { return }
            let hostHeader = head.headers.first(name: "host") ?? ""
            let host = String(hostHeader.split(separator: ":").first ?? "")
            var request = ServedRequest(
                host: host, path: head.uri, userAgent: head.headers.first(name: "user-agent"), connection: connection)
            request.method = head.method.rawValue
            request.contentType = head.headers.first(name: "content-type")
            request.body = body
            log.withLockedValue { $0.requests.append(request) }
            answer(script(host, head.uri, request.userAgent), context: context)
        }
    }

    private func answer(_ response: ScriptedResponse, context: ChannelHandlerContext) {
        switch response {
        case .hang:
            return
        case .close:
            context.close(promise: nil)
        case .respond(let status, let headerList, let body, let chunked):
            var headers = HTTPHeaders(headerList)
            if chunked {
                headers.replaceOrAdd(name: "transfer-encoding", value: "chunked")
            } else {
                headers.replaceOrAdd(name: "content-length", value: String(body.count))
            }
            let head = HTTPResponseHead(
                version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if chunked {
                // Several chunks, so the client really sees chunked framing.
                var offset = 0
                while offset < body.count {
                    let end = min(offset + 4096, body.count)
                    context.write(
                        wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body[offset..<end])))), promise: nil)
                    offset = end
                }
            } else if !body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
