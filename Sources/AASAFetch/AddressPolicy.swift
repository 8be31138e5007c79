#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which addresses the fetcher may connect to, decided for every address curl is about to open
/// a socket to: after DNS, `--resolve` and `--connect-to`, whatever spelling the URL used.
///
/// By default only public unicast addresses are allowed. Loopback, private, link-local (where
/// cloud metadata services live), CGNAT, unique-local, multicast, documentation and other
/// special-purpose ranges are refused, so that a list of domains (or one name typed into a
/// shared CI job) cannot make the auditor probe the network it runs in. Apple's CDN cannot
/// reach such addresses either, so no host behind one can serve universal links to devices.
/// `allowed` networks are exceptions, checked first (a loopback test world, an internal host
/// audited on purpose).
public struct AddressPolicy: Sendable, Equatable {
    public var allowed: [IPNetwork]

    public init(allowing allowed: [IPNetwork] = []) {
        self.allowed = allowed
    }

    /// Public addresses only.
    public static let publicOnly = AddressPolicy()

    /// Nil when the address may be connected to; otherwise what it is, for the report
    /// (e.g. "loopback (127.0.0.0/8)").
    public func refusal(for address: IPAddress) -> String? {
        if allowed.contains(where: { $0.contains(address) }) { return nil }
        if let range = Self.reserved.first(where: { $0.network.contains(address) }) {
            return "\(range.name) (\(range.network))"
        }
        // IPv6 forms that carry an IPv4 address reach that address: judge it too.
        if let embedded = address.embeddedIPv4, let refusal = refusal(for: embedded) {
            return "\(refusal), inside \(address)"
        }
        return nil
    }

    /// Special-purpose ranges (IANA's IPv4 and IPv6 special-purpose registries, RFC 6890 and
    /// later) that no public web server uses.
    static let reserved: [(name: String, network: IPNetwork)] = [
        ("\"this network\"", "0.0.0.0/8"),
        ("private", "10.0.0.0/8"),
        ("shared address space (CGNAT)", "100.64.0.0/10"),
        ("loopback", "127.0.0.0/8"),
        ("link-local (cloud metadata services live here)", "169.254.0.0/16"),
        ("private", "172.16.0.0/12"),
        ("IETF protocol assignments", "192.0.0.0/24"),
        ("documentation", "192.0.2.0/24"),
        ("6to4 relay anycast", "192.88.99.0/24"),
        ("private", "192.168.0.0/16"),
        ("benchmarking", "198.18.0.0/15"),
        ("documentation", "198.51.100.0/24"),
        ("documentation", "203.0.113.0/24"),
        ("multicast", "224.0.0.0/4"),
        ("reserved", "240.0.0.0/4"),
        ("unspecified", "::/128"),
        ("loopback", "::1/128"),
        ("discard-only", "100::/64"),
        ("documentation", "2001:db8::/32"),
        ("unique local (ULA)", "fc00::/7"),
        ("link-local", "fe80::/10"),
        ("site-local", "fec0::/10"),
        ("multicast", "ff00::/8"),
    ].map { ($0.0, IPNetwork($0.1)!) }
}

/// An IPv4 (4 bytes) or IPv6 (16 bytes) address.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Nil unless `bytes` has 4 or 16 of them.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// A numeric address in its standard text form (`inet_pton`: dotted quad or RFC 4291).
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
    }

    public var isIPv4: Bool { bytes.count == 4 }

    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var storage = bytes
        let family = isIPv4 ? AF_INET : AF_INET6
        guard inet_ntop(family, &storage, &text, socklen_t(text.count)) != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A loopback address of this machine, however it is spelled: 127.0.0.0/8, `::1`, or an
    /// IPv4 loopback address mapped into IPv6 (`::ffff:127.0.0.1`).
    public var isLoopback: Bool {
        if isIPv4 { return bytes[0] == 127 }
        if bytes == Array(repeating: 0, count: 15) + [1] { return true }
        return bytes[0..<12].elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]) && bytes[12] == 127
    }

    /// The IPv4 address an IPv6 address carries and reaches: IPv4-mapped (`::ffff:0:0/96`),
    /// IPv4-compatible (`::/96`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`).
    var embeddedIPv4: IPAddress? {
        guard !isIPv4 else { return nil }
        let prefix12 = Array(bytes[0..<12])
        if prefix12 == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]
            || prefix12 == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0]
        {
            return IPAddress(bytes: Array(bytes[12..<16]))
        }
        if prefix12.allSatisfy({ $0 == 0 }), bytes[12..<16].contains(where: { $0 != 0 }) {
            return IPAddress(bytes: Array(bytes[12..<16]))
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 {
            return IPAddress(bytes: Array(bytes[2..<6]))
        }
        return nil
    }
}

/// An address range in CIDR notation: `10.0.0.0/8`, `::1/128`; a bare address is a range of one.
public struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    public let address: IPAddress
    public let prefixLength: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let maximum = address.bytes.count * 8
        let length: Int
        if parts.count == 2 {
            guard let parsed = Int(parts[1]), (0...maximum).contains(parsed), parts[1].allSatisfy(\.isASCII) else {
                return nil
            }
            length = parsed
        } else {
            length = maximum
        }
        self.address = address
        self.prefixLength = length
    }

    public func contains(_ candidate: IPAddress) -> Bool {
        guard candidate.bytes.count == address.bytes.count else { return false }
        var bits = prefixLength
        for (mine, theirs) in zip(address.bytes, candidate.bytes) where bits > 0 {
            let mask: UInt8 = bits >= 8 ? 0xff : ~(0xff >> UInt8(bits))
            if mine & mask != theirs & mask { return false }
            bits -= 8
        }
        return true
    }

    public var description: String { "\(address)/\(prefixLength)" }
}
