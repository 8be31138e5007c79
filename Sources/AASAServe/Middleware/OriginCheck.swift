import Foundation

/// 403 for a request to `/mcp` whose `Origin` is another site than the one it was sent to: a
/// page a teammate's browser opens elsewhere may not drive the team's MCP server (the
/// transport's rule). The names compare without scheme and port (a TLS proxy in front changes
/// both); the `Host` itself is the host check's. A request without `Origin` (not a browser's) passes.
struct OriginCheck: ServeRefusal {
    func check(_ request: RoutedRequest) throws(HTTPError) {
        guard request.routed == .mcp, let origin = request.request.headers["origin"] else { return }
        let name = URLComponents(string: origin)?.host.map { Self.bare($0) }
        guard let name, name == Self.bare(ServeSettings.hostName(request.request.host ?? "")) else {
            throw HTTPError(403, "This MCP server answers pages of its own site only (the Origin header).")
        }
    }

    /// Lower case, without a trailing dot or IPv6 brackets.
    private static func bare(_ name: String) -> String {
        var name = name.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        return name
    }
}
