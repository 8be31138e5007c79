import AASAAudit
import Foundation
import MCP

/// A request to `serve`'s `/mcp`, as the endpoint reads it: the method, the headers the
/// Streamable HTTP transport uses, and the body (at most `MCPHTTPEndpoint.maximumBodyBytes`).
public struct MCPHTTPRequest: Sendable {
    public var method: String
    public var accept: String?
    public var contentType: String?
    public var sessionID: String?
    public var protocolVersion: String?
    public let body: [UInt8]
    /// A POST's message, read once here: what the caller's limits ask (`reachesNetwork`) and
    /// the endpoint routes are the same reading. Nil for another method, or a body that is not
    /// one JSON-RPC message.
    let message: RPCMessage?

    public init(
        method: String, accept: String? = nil, contentType: String? = nil, sessionID: String? = nil,
        protocolVersion: String? = nil, body: [UInt8] = []
    ) {
        self.method = method
        self.accept = accept
        self.contentType = contentType
        self.sessionID = sessionID
        self.protocolVersion = protocolVersion
        self.body = body
        message = method == "POST" ? RPCMessage(Data(body)) : nil
    }
}

/// The endpoint's answer: a status, headers, and a JSON body or a stream of server-sent events
/// (a request's progress, then its response).
public struct MCPHTTPAnswer: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        case events(AsyncStream<[UInt8]>)
    }

    public var status: Int
    public var headers: [(String, String)]
    public var body: Body
}

/// MCP's Streamable HTTP transport (protocol 2025-11-25) for `serve`'s `/mcp`: the same server
/// as `aasa-audit mcp`, one a session. `initialize` opens a session (`Mcp-Session-Id`); each
/// request POSTed in it is answered on its own POST, as server-sent events (its progress, then
/// its response) when the client accepts them, else as JSON; `DELETE` ends the session; there
/// is no GET stream (405), as the tools ask the client nothing.
///
/// Bounds: `maximumSessions` sessions at once (past it, the least recently used one with
/// nothing in flight is closed; its client's next request is 404, which tells it to initialize
/// again), a session unused for `sessionIdleSeconds` is closed, a body over `maximumBodyBytes` is
/// refused before it is read. The caller (`serve`) applies its token, Host, Origin and rate checks
/// first.
public actor MCPHTTPEndpoint {
    public static let maximumBodyBytes = 1 << 20
    public static let maximumSessions = 64
    public static let sessionIdleSeconds = 3600.0
    static let sessionHeader = "Mcp-Session-Id"

    private struct Session {
        let server: Server
        let transport: ExchangeTransport
        var used: Double
    }

    private let settings: MCPSettings
    private let auditor: DomainAuditor
    private let seconds: @Sendable () -> Double
    private var sessions: [String: Session] = [:]
    /// The tools that reach the network (`openWorldHint`), which `serve` counts as checks.
    private nonisolated let networkTools: Set<String>

    /// - Parameter seconds: the caller's monotonic clock, in seconds.
    public init(settings: MCPSettings, auditor: DomainAuditor, seconds: @escaping @Sendable () -> Double) {
        self.settings = settings
        self.auditor = auditor
        self.seconds = seconds
        networkTools = Set(
            MCPTools.all(settings).map(\.definition).filter { $0.annotations.openWorldHint == true }.map(\.name))
    }

    /// Whether a POSTed body calls a tool that reaches the network (`check_domain`,
    /// `audit_domains`): `serve` takes such a call from the client's rate of checks.
    public nonisolated func reachesNetwork(_ request: MCPHTTPRequest) -> Bool {
        guard let message = request.message, case .request(_, "tools/call") = message.kind else { return false }
        return message.toolName.map(networkTools.contains) ?? false
    }

    /// Sessions open now.
    public var sessionCount: Int { sessions.count }

    public func respond(_ request: MCPHTTPRequest) async -> MCPHTTPAnswer {
        switch request.method {
        case "POST": return await post(request)
        case "DELETE":
            guard let id = request.sessionID else { return Self.refusal(400, "Give the Mcp-Session-Id to end.") }
            guard let session = sessions.removeValue(forKey: id) else {
                return Self.refusal(404, "No such session: it ended, or the server closed it.")
            }
            await end(session)
            return MCPHTTPAnswer(status: 200, headers: [], body: .bytes([]))
        default:
            return Self.refusal(
                405, "POST JSON-RPC messages here (DELETE ends a session); there is no GET stream.",
                headers: [("Allow", "POST, DELETE")])
        }
    }

    /// Closes every session.
    public func shutdown() async {
        let all = sessions.values
        sessions = [:]
        for session in all { await end(session) }
    }

    private func post(_ request: MCPHTTPRequest) async -> MCPHTTPAnswer {
        guard Self.mediaType(request.contentType) == "application/json" else {
            return Self.refusal(415, "Send a JSON-RPC message as application/json.")
        }
        let accepted = Set((request.accept ?? "*/*").split(separator: ",").map { Self.mediaType(String($0)) })
        let events = accepted.contains("text/event-stream")
        guard events || !accepted.isDisjoint(with: ["application/json", "application/*", "*/*"]) else {
            return Self.refusal(406, "Accept application/json and text/event-stream.")
        }
        if let version = request.protocolVersion, !Version.supported.contains(version) {
            return Self.refusal(
                400, "MCP-Protocol-Version \(version.prefix(40)) is not one this server speaks: \(Version.latest).")
        }
        let body = Data(request.body)
        guard let message = request.message else {
            return Self.refusal(400, "The body is not one JSON-RPC 2.0 message.", code: -32700)
        }
        let opened: (id: String, session: Session)
        if message.isInitialize {
            guard request.sessionID == nil else { return Self.refusal(400, "This session is initialized already.") }
            guard let session = await openSession() else {
                return Self.refusal(503, "\(Self.maximumSessions) sessions are answering: try again soon.")
            }
            opened = session
        } else {
            guard let id = request.sessionID else {
                return Self.refusal(400, "Give the Mcp-Session-Id that initialize answered with.")
            }
            guard var session = sessions[id] else {
                return Self.refusal(404, "No such session: initialize again.")
            }
            session.used = seconds()
            sessions[id] = session
            opened = (id, session)
        }
        let headers = [(Self.sessionHeader, opened.id)]
        guard case .request(let id, _) = message.kind else {
            await opened.session.transport.deliver(body, cancels: message.cancels)
            return MCPHTTPAnswer(status: 202, headers: headers, body: .bytes([]))
        }
        guard
            let stream = await opened.session.transport.exchange(body, id: id, progressToken: message.progressToken)
        else { return Self.refusal(409, "A request with this id is answering in this session.") }
        return await answer(stream, asEvents: events, headers: headers)
    }

    /// A request's exchange as server-sent events (its progress, then its response), or its
    /// response alone as JSON.
    private nonisolated func answer(
        _ stream: AsyncStream<Data>, asEvents events: Bool, headers: [(String, String)]
    ) async -> MCPHTTPAnswer {
        if events {
            let sse = AsyncStream<[UInt8]> { continuation in
                let task = Task {
                    for await data in stream {
                        continuation.yield(Array("event: message\ndata: ".utf8) + data + [10, 10])
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
            return MCPHTTPAnswer(
                status: 200, headers: headers + [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")],
                body: .events(sse))
        }
        var last: Data?
        for await data in stream { last = data }
        guard let last else { return Self.refusal(409, "The request was cancelled.", headers: headers) }
        return MCPHTTPAnswer(
            status: 200, headers: headers + [("Content-Type", "application/json")], body: .bytes(Array(last)))
    }

    /// A new session's server, started on its transport; nil when every session is busy.
    private func openSession() async -> (id: String, session: Session)? {
        let now = seconds()
        for (id, session) in sessions where now - session.used > Self.sessionIdleSeconds {
            if await session.transport.inFlight == 0, sessions.removeValue(forKey: id) != nil { await end(session) }
        }
        if sessions.count >= Self.maximumSessions {
            for (id, session) in sessions.sorted(by: { $0.value.used < $1.value.used }) {
                guard await session.transport.inFlight == 0 else { continue }
                if sessions.removeValue(forKey: id) != nil { await end(session) }
                break
            }
        }
        guard sessions.count < Self.maximumSessions else { return nil }
        let transport = ExchangeTransport(logger: MCPServer.logger)
        let server = await MCPServer.make(settings: settings, auditor: auditor)
        guard (try? await server.start(transport: transport)) != nil else { return nil }
        let session = Session(server: server, transport: transport, used: now)
        let id = Self.newSessionID()
        sessions[id] = session
        return (id, session)
    }

    private func end(_ session: Session) async {
        await session.transport.close()
        await session.server.stop()
    }

    /// 128 random bits, in hex: visible ASCII, as the transport requires.
    static func newSessionID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// `application/json; charset=utf-8` → `application/json`.
    static func mediaType(_ value: String?) -> String {
        (value ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// A refusal as a JSON-RPC error for no request (id null), as the transport answers.
    static func refusal(
        _ status: Int, _ message: String, code: Int = -32600, headers: [(String, String)] = []
    ) -> MCPHTTPAnswer {
        let object: [String: Any] = ["jsonrpc": "2.0", "id": NSNull(), "error": ["code": code, "message": message]]
        let bytes = (try? JSONSerialization.data(withJSONObject: object)).map(Array.init) ?? []
        return MCPHTTPAnswer(
            status: status, headers: headers + [("Content-Type", "application/json")], body: .bytes(bytes))
    }
}
