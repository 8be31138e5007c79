import AASAModel

/// A host pasted where an Android app was meant (`check com.acme.app`): audited as written, with
/// a note saying where the package goes (issue 56, item 2: it got "publish its DNS records").
extension HostName {
    /// The first labels Android packages start with (a reversed domain): a host that starts with
    /// one and has three labels or more was most likely pasted as an app, not a site.
    static let packageRoots: Set<Substring> = [
        "com", "org", "net", "io", "app", "dev", "co", "me", "de", "uk", "fr", "nl", "se", "ch", "it", "es", "jp",
        "cn", "ru", "br", "in", "au",
    ]

    /// A note for a host that reads like an Android package name (`com.acme.app`): it is
    /// audited as written, and the note says where the package goes.
    static func reversedPackageNote(_ host: String) -> String? {
        // Without splitting: every domains.txt line comes here.
        guard let dot = host.firstIndex(of: "."), packageRoots.contains(host[..<dot]),
            host[host.index(after: dot)...].contains(".")
        else { return nil }
        return
            "\(host) reads like an Android package name (a reversed domain); it is audited as a host. For an app, check its site's domain with --android \(host) (domains.txt: android:\(host))."
    }
}
