import AASAModel

/// 421 for a request whose `Host` names a server this is not: not `--server-name`, or on a
/// loopback address not `localhost`, so that a page a teammate's browser opens elsewhere cannot
/// reach it through DNS rebinding (the attacker's name, rebound to this address, is refused).
/// An IP address in `Host` cannot be rebound through DNS: the address serve listens on, and any
/// other, is answered (`serve --listen 127.0.0.55:8080` at `http://127.0.0.55:8080/`). A name's
/// trailing dot is the same name. The health check is exempt: a load balancer may name the
/// server as it likes.
struct HostCheck: Sendable {
    /// The names answered, lower case and without a trailing dot; nil: any name.
    let allowed: Set<String>?

    init(settings: ServeSettings) {
        if !settings.serverNames.isEmpty {
            allowed = Set(settings.serverNames.map { Self.bare($0.lowercased()) })
        } else if ServeSettings.isLoopback(settings.host) {
            allowed = ["localhost"]
        } else {
            allowed = nil
        }
    }

    func check(host: String?, route: Route?) throws(HTTPError) {
        if route == .health { return }
        guard let allowed else { return }
        let name = ServeSettings.hostName(host ?? "")
        guard ServeSettings.address(name) == nil, !allowed.contains(Self.bare(name)) else { return }
        throw HTTPError(421, "This server does not answer for that host name (see \(OptionName.serverName)).")
    }

    private static func bare(_ name: String) -> String { name.hasSuffix(".") ? String(name.dropLast()) : name }
}
