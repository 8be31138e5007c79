/// 421 for a request whose `Host` is not one of the names the server answers to: `--server-name`,
/// or on a loopback address the loopback names, so that a page a teammate's browser opens
/// elsewhere cannot reach it through DNS rebinding. The health check is exempt: a load balancer
/// may name the server by its address.
struct HostCheck: Sendable {
    /// Nil: any name.
    let allowed: Set<String>?

    init(settings: ServeSettings) {
        if !settings.serverNames.isEmpty {
            allowed = Set(settings.serverNames.map { $0.lowercased() })
        } else if ServeSettings.isLoopback(settings.host) {
            allowed = ["localhost", "127.0.0.1", "[::1]", "::1"]
        } else {
            allowed = nil
        }
    }

    func check(host: String?, route: Route?) throws(HTTPError) {
        if route == .health { return }
        guard let allowed, !allowed.contains(ServeSettings.hostName(host ?? "")) else { return }
        throw HTTPError(421, "This server does not answer for that host name (see --server-name).")
    }
}
