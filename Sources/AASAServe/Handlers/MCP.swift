import AASAMCP

extension ServeApp {
    /// `/mcp`: the request as the MCP endpoint reads it (read once, by `CheckLimits`, for a
    /// POST), and its answer as serve sends it.
    func mcpExchange(_ request: RoutedRequest) async -> ServeResponse {
        let answer = await mcp.respond(request.mcp ?? MCPHTTPRequest(request.request))
        return switch answer.body {
        case .bytes(let bytes): ServeResponse(status: answer.status, headers: answer.headers, body: .bytes(bytes))
        case .events(let events): ServeResponse(status: answer.status, headers: answer.headers, body: .stream(events))
        }
    }
}

extension MCPHTTPRequest {
    /// What the MCP endpoint reads of a request to `/mcp`.
    init(_ request: ServeRequest) {
        self.init(
            method: request.method, accept: request.headers["accept"], contentType: request.headers["content-type"],
            sessionID: request.headers["mcp-session-id"], protocolVersion: request.headers["mcp-protocol-version"],
            body: request.body)
    }
}
