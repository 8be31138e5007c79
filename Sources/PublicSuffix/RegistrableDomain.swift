import CPSL

/// A host's registrable domain (eTLD+1) by the Public Suffix List, private registries included,
/// as browsers read it (Chromium's `GetDomainAndRegistry`): libpsl's list built into Debian's
/// package, no file read. An IP address, a bare suffix or a single label has none.
public enum RegistrableDomain {
    /// The registrable domain of a lowercased ASCII host (`shop.example.co.uk` → `example.co.uk`).
    public static func of(_ host: String) -> String? {
        // Text with a NUL would reach libpsl cut at it, and be answered for a name it is not.
        guard !host.isEmpty, !host.utf8.contains(0), !isIPAddress(host), let context else {
            return nil
        }
        // libpsl answers with a pointer into the string it was given (a suffix of `host`), not
        // a copy: it is read into a Swift String inside `withCString`, while that C string
        // lives. (Read after the call, it pointed into freed memory: issue 54.)
        let domain = host.withCString { name in
            psl_registrable_domain(context, name).map { String(cString: $0) }
        }
        guard let domain, domain.contains(".") else { return nil }
        return domain
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

    /// libpsl's list, loaded once for the process. The built-in context is static and never
    /// freed; when the package was built without one, the newest list file on the machine is
    /// loaded once (a context per call would leak one each time). A loaded context is only read
    /// from then on, which libpsl allows from any thread: hence `nonisolated(unsafe)`.
    private nonisolated(unsafe) static let context: OpaquePointer? = psl_builtin() ?? psl_latest(nil)
}
