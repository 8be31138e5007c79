import Foundation

/// The host names this machine resolves without asking its DNS resolver: `--resolve` entries
/// (curl's, `*` for any host), `--connect-to` entries sending a host to an address, IP
/// literals, and the names `/etc/hosts` lists. A fetch of such a name that got an address is no
/// evidence that the resolver answers (issue 46, item 8: with the resolver down and one name
/// pinned, every other name's `net.dns` was taken for the sites').
public struct ResolverPins: Sendable {
    /// Names `--resolve` or `/etc/hosts` give an address.
    private let names: Set<String>
    /// `--resolve '*:…'`: every name.
    private let everyName: Bool
    /// `--connect-to` entries, in curl's order (the first that matches is used): the host (empty
    /// for any) and the name or address it is sent to.
    private let connectTargets: [(host: String, target: String)]

    /// No name pinned.
    public static let none = ResolverPins(names: [], everyName: false, connectTargets: [])

    private init(names: Set<String>, everyName: Bool, connectTargets: [(host: String, target: String)]) {
        (self.names, self.everyName, self.connectTargets) = (names, everyName, connectTargets)
    }

    /// `/etc/hosts` is read at most this far.
    static let hostsFileLimit = 1 << 20

    public init(configuration: FetcherConfiguration, hostsFile: String = "/etc/hosts") {
        var names = Self.hostsFileNames(hostsFile)
        var everyName = false
        for entry in configuration.resolve {
            let host = entry.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0]
            if host == "*" { everyName = true } else { names.insert(host.lowercased()) }
        }
        var targets: [(host: String, target: String)] = []
        for entry in configuration.connectTo {
            // HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT (an IPv6 target in brackets).
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 4 else { continue }
            let target = parts[2...].dropLast().joined(separator: ":")
            targets.append((parts[0].lowercased(), Self.bare(target).lowercased()))
        }
        self.init(names: names, everyName: everyName, connectTargets: targets)
    }

    /// The name the resolver is asked for `host`'s fetches: the host, or the name the first
    /// `--connect-to` entry for it sends it to; nil when no resolver is asked (pinned).
    public func nameLookedUp(for host: String) -> String? {
        let name = Self.bare(host).lowercased()
        let looked = connectTargets.first { $0.host.isEmpty || $0.host == name }?.target ?? name
        return IPAddress(looked) != nil || everyName || names.contains(looked) ? nil : looked
    }

    /// Whether `host` (a name, or an address) is resolved without the DNS resolver.
    public func pins(_ host: String) -> Bool { nameLookedUp(for: host) == nil }

    /// Whether the host of `url` is.
    public func pinsHost(of url: String) -> Bool {
        var host = LoopConnections.host(of: url)
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            host = String(host[...end])
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        return pins(host)
    }

    private static func bare(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// The names of a hosts file: each line's fields after its address, comments left out.
    static func hostsFileNames(_ path: String) -> Set<String> {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: hostsFileLimit)) ?? Data()
        var names: Set<String> = []
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let fields = line.prefix { $0 != "#" }.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2 else { continue }
            for name in fields.dropFirst() { names.insert(name.lowercased()) }
        }
        return names
    }
}
