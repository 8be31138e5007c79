import AASAFetch

/// Who a request is from, as `serve` limits and logs it: a parsed address, never a header's raw
/// text. The peer, or behind a trusted proxy (`--trusted-proxy`, an address or a CIDR range,
/// matched against the peer as an address, an IPv4-mapped IPv6 peer as its IPv4) the last
/// address that proxy forwarded for. IPv6 clients are one client per /64: a host holds a
/// whole /64, and would otherwise have 2^64 identities to spread over the rate limiter.
struct ClientAddress: Sendable, Equatable {
    let address: IPAddress

    init?(_ text: some StringProtocol) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.utf8.count <= 64, let parsed = IPAddress(String(trimmed.split(separator: "%").first ?? "")) else {
            return nil
        }
        address = Self.unmapped(parsed)
    }

    init(_ address: IPAddress) { self.address = Self.unmapped(address) }

    /// `::ffff:192.0.2.1` is 192.0.2.1: a dual-stack listener sees IPv4 peers so.
    static func unmapped(_ address: IPAddress) -> IPAddress {
        guard !address.isIPv4, address.bytes[0..<12].elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]) else {
            return address
        }
        return IPAddress(bytes: Array(address.bytes[12..<16])) ?? address
    }

    /// The key the rate limiter counts by: the address, or its /64 for IPv6.
    var limitKey: String {
        guard !address.isIPv4 else { return address.description }
        let prefix = IPAddress(bytes: Array(address.bytes[0..<8]) + Array(repeating: 0, count: 8)) ?? address
        return "\(prefix)/64"
    }

    /// As the access log shows it (an address's standard text: nothing a client chose).
    var description: String { address.description }

    /// The client of a request from `peer` with these `X-Forwarded-For` values: the last
    /// forwarded address when the peer is a trusted proxy and that address parses, else the peer.
    static func of(peer: ClientAddress?, forwardedFor: [String], trusting proxies: [IPNetwork]) -> ClientAddress? {
        guard let peer, proxies.contains(where: { $0.contains(peer.address) }),
            let last = forwardedFor.last?.split(separator: ",").last, let forwarded = ClientAddress(last)
        else { return peer }
        return forwarded
    }
}
