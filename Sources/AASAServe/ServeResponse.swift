/// An answer: status, headers and a body of bytes or of a file of `--out`.
public struct ServeResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        /// A file of `--out`, opened, read in pieces as it is sent, with bytes put in at an
        /// offset (the history page's check form) or not.
        case file(OutputFolder.OpenFile, insert: Insert? = nil)
        /// Pieces sent as they come (chunked), until the stream ends: `/mcp`'s server-sent events.
        case stream(AsyncStream<[UInt8]>)
    }

    public struct Insert: Sendable {
        public var at: Int
        public var bytes: [UInt8]
    }

    public var status: Int
    public var headers: [(String, String)]
    public var body: Body

    init(status: Int, headers: [(String, String)], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    init(status: Int, type: String, _ text: String, headers: [(String, String)] = []) {
        self.init(status: status, type: type, bytes: Array(text.utf8), headers: headers)
    }

    init(status: Int, type: String, bytes: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.headers = [("Content-Type", type)] + headers
        body = .bytes(bytes)
    }

    /// The first value of a header, by name in any case.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// The body's bytes when it is bytes (a file's are read as they are sent).
    public var bytes: [UInt8]? {
        if case .bytes(let bytes) = body { return bytes }
        return nil
    }
}

/// A request as the app sees it: the request line, the client's address (parsed, its limit
/// key), and the headers the app reads. Made by `HTTPServer`, or by a test without a socket.
public struct ServeRequest: Sendable {
    public var method: String
    public var target: String
    public var client: String
    public var authorization: String?
    /// The `Host` header, when the request had one.
    public var host: String?
    /// The other headers a route reads (`/mcp`'s), by lower-case name.
    public var headers: [String: String]
    /// The body: empty but for `/mcp`'s POST (at most `MCPHTTPEndpoint.maximumBodyBytes`).
    public var body: [UInt8]

    public init(
        method: String = "GET", target: String, client: String, authorization: String? = nil, host: String? = nil,
        headers: [String: String] = [:], body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.client = client
        self.authorization = authorization
        self.host = host
        self.headers = headers
        self.body = body
    }

    /// The headers `ServeRequest.headers` keeps: what `/mcp` and the Origin check read.
    static let keptHeaders = ["origin", "accept", "content-type", "mcp-session-id", "mcp-protocol-version"]
}
