import AASAMCP

/// One cross-cutting step of `serve`, applied in order around a route's handler, as hummingbird
/// applies middleware: it sees the request and what routing made of it, then refuses it (an
/// `HTTPError`, encoded once), passes it on (`next`), or wraps what comes back. A new
/// cross-cutting behaviour is a file here and a line in `ServeApp.middleware`.
protocol ServeMiddleware: Sendable {
    func respond(to request: RoutedRequest, next: ServeNext) async throws(HTTPError) -> ServeResponse
}

/// The rest of the chain, the route's handler at its end.
typealias ServeNext = @Sendable (RoutedRequest) async throws(HTTPError) -> ServeResponse

/// A step that only refuses or passes (the host, routing, the token): it never wraps.
protocol ServeRefusal: ServeMiddleware {
    func check(_ request: RoutedRequest) throws(HTTPError)
}

extension ServeRefusal {
    func respond(to request: RoutedRequest, next: ServeNext) async throws(HTTPError) -> ServeResponse {
        try check(request)
        return try await next(request)
    }
}

/// A request and its route, or why it has none (a 404, a 405, a 414).
struct RoutedRequest: Sendable {
    var request: ServeRequest
    var route: Result<Route, HTTPError>
    /// A request to `/mcp` as the MCP endpoint reads it, once read (`CheckLimits`).
    var mcp: MCPHTTPRequest?

    /// The route, when the request has one.
    var routed: Route? { try? route.get() }
}

/// Routing's refusal, in its place in the chain: after the host check (a request for another
/// host is refused as such, whatever its path), before what needs the route.
struct RoutingStep: ServeRefusal {
    func check(_ request: RoutedRequest) throws(HTTPError) { _ = try request.route.get() }
}

extension HostCheck: ServeRefusal {
    func check(_ request: RoutedRequest) throws(HTTPError) {
        try check(host: request.request.host, route: request.routed)
    }
}

extension TokenCheck: ServeRefusal {
    func check(_ request: RoutedRequest) throws(HTTPError) {
        guard request.routed?.needsToken == true else { return }
        try check(authorization: request.request.authorization, client: request.request.client)
    }
}
