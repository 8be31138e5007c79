/// What the fetcher got for one location: the record, and the body bytes it read
/// (at most the read cap) for the checks to look at.
public struct FetchedLocation: Sendable {
    public var record: FetchRecord
    public var body: [UInt8]
    /// The time this process took around the transfer (before it started, and from its end
    /// until the caller ran again), not the network's: a domain's deadline does not count it.
    public var localDelay: Duration = .zero
    /// How long before the caller ran again it had handed the request to the fetcher (nil for
    /// a fetch never handed over).
    public var sinceHandOver: Duration?
    /// The TLS the connection negotiated, for a request that offered its own (Apple Pay's).
    public var tls: NegotiatedTLS?

    public init(record: FetchRecord, body: [UInt8] = []) {
        self.record = record
        self.body = body
    }
}

/// A connection's TLS version (`TLSv1.3`) and cipher suite (OpenSSL's name).
public struct NegotiatedTLS: Codable, Sendable, Equatable {
    public var version: String
    public var suite: String

    public init(version: String, suite: String) {
        self.version = version
        self.suite = suite
    }
}
