import AASAMCP

extension ServeApp {
    /// `/mcp`: the request as the MCP endpoint reads it, and its answer as serve sends it.
    func mcpExchange(_ request: ServeRequest) async -> ServeResponse {
        let answer = await mcp.respond(
            MCPHTTPRequest(
                method: request.method, accept: request.headers["accept"], contentType: request.headers["content-type"],
                sessionID: request.headers["mcp-session-id"], protocolVersion: request.headers["mcp-protocol-version"],
                body: request.body))
        return switch answer.body {
        case .bytes(let bytes): ServeResponse(status: answer.status, headers: answer.headers, body: .bytes(bytes))
        case .events(let events): ServeResponse(status: answer.status, headers: answer.headers, body: .stream(events))
        }
    }
}
