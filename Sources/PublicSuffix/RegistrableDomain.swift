import CPSL

/// A host's registrable domain (eTLD+1) by the Public Suffix List, private registries included,
/// as browsers read it (Chromium's `GetDomainAndRegistry`): libpsl's list built into Debian's
/// package, no file read. An IP address, a bare suffix or a single label has none.
public enum RegistrableDomain {
    /// The registrable domain of a lowercased ASCII host (`shop.example.co.uk` → `example.co.uk`).
    public static func of(_ host: String) -> String? {
        guard !host.isEmpty, !isIPAddress(host), let context = psl_builtin() ?? psl_latest(nil) else { return nil }
        guard let found = psl_registrable_domain(context, host) else { return nil }
        let domain = String(cString: found)
        return domain.contains(".") ? domain : nil
    }

    /// The first label of the registrable domain (`example` for `shop.example.co.uk`): what a
    /// browser counts of a list of related origins.
    public static func label(of host: String) -> String? {
        of(host).map { String($0.prefix { $0 != "." }) }
    }

    static func isIPAddress(_ host: String) -> Bool {
        if host.hasPrefix("[") || host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}
