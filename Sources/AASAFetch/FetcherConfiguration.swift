import AASAModel
import CCurlShim

/// How every transfer of a fetcher is made.
public struct FetcherConfiguration: Sendable {
    /// Total time allowed for one transfer, connection included.
    public var timeoutSeconds: Double
    /// Time allowed for the TCP and TLS connection (capped at the total timeout).
    public var connectTimeoutSeconds: Double
    public var userAgent: String
    /// Body bytes read at most, counted after decompression; the rest is not read.
    public var maximumBodyBytes: Int
    /// Body bytes kept in memory at most (the rest is counted and hashed, not kept): one more
    /// than the largest file iOS reads is all the checks need.
    public var maximumStoredBodyBytes: Int
    /// Response header bytes accepted at most.
    public var maximumHeaderBytes: Int
    /// curl's `--resolve` entries, `HOST:PORT:ADDR[,ADDR]` (`*` as HOST means any).
    public var resolve: [String]
    /// curl's `--connect-to` entries, `HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT`.
    public var connectTo: [String]
    /// A PEM file of CA certificates to trust instead of the system's.
    public var caCertFile: String?
    /// Which addresses may be connected to (checked after resolution): public ones only unless
    /// it names exceptions.
    public var addressPolicy: AddressPolicy
    /// Connections per address, new connections a second per address, lookups a second.
    public var politeness: PolitenessLimits
    /// Transfers expected in flight at once; sizes curl's connection cache.
    public var expectedConcurrency: Int
    /// Threads driving a curl multi handle each; a host's fetches always use the same one, so
    /// its connection is reused. More than one lets TLS work use more than one core.
    public var loopThreads: Int
    /// The DNS server (`IPv4:PORT`) asked why a name did not resolve, instead of
    /// /etc/resolv.conf's (tests make this machine's resolver look down with it).
    public var diagnosisNameServer: String?
    /// The monotonic clock of the stamps that tell this process's time from the network's (a
    /// transfer's hand-over, start and end, its caller's resumption) and of a domain's deadline:
    /// the system's; a test moves its own.
    public var now: @Sendable () -> ContinuousClock.Instant = { .now }

    public init(
        timeoutSeconds: Double = FetcherConfiguration.defaultTimeoutSeconds,
        connectTimeoutSeconds: Double = FetcherConfiguration.defaultConnectTimeoutSeconds, userAgent: String,
        maximumBodyBytes: Int = 1 << 20, maximumStoredBodyBytes: Int = AppleLimits.maximumFileBytes + 1,
        maximumHeaderBytes: Int = 256 << 10,
        resolve: [String] = [], connectTo: [String] = [], caCertFile: String? = nil,
        addressPolicy: AddressPolicy = .publicOnly, politeness: PolitenessLimits = PolitenessLimits(),
        expectedConcurrency: Int = 64,
        loopThreads: Int = FetcherConfiguration.defaultLoopThreads
    ) {
        self.loopThreads = max(1, loopThreads)
        self.timeoutSeconds = timeoutSeconds
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.userAgent = userAgent
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumStoredBodyBytes = maximumStoredBodyBytes
        self.maximumHeaderBytes = maximumHeaderBytes
        self.resolve = resolve
        self.connectTo = connectTo
        self.caCertFile = caCertFile
        self.addressPolicy = addressPolicy
        self.politeness = politeness
        self.expectedConcurrency = expectedConcurrency
    }
}

extension FetcherConfiguration {
    /// One thread drives 64 transfers well below its CPU limit (about 1,500 domains a second
    /// on the bench machine) whenever the network adds latency; more only help when the CPU
    /// is the limit, as on the loopback bench, and cost OpenSSL lock contention (5-9% more CPU
    /// per domain with two). See docs/performance.md.
    public static let defaultLoopThreads = 1
    /// What `--fetch-threads` may be.
    public static let loopThreadsRange = 1...64
    /// A domain's deadline (`--timeout`) and the connection's (`--connect-timeout`) unless told
    /// otherwise, and what either may be.
    public static let defaultTimeoutSeconds = 10.0
    public static let defaultConnectTimeoutSeconds = 5.0
    public static let timeoutRange = 0.001...600.0
}

/// One GET to make.
public struct FetchRequest: Sendable {
    public var url: String
    public var location: AASALocation
    /// Close the connection after this transfer: set on a domain's last fetch, so that
    /// finished domains hold no sockets.
    public var closeConnection: Bool
    /// Overrides the configured user agent for this request.
    public var userAgent: String?
    /// Overrides the configured total timeout for this request (a domain's later fetches get
    /// what its earlier ones left).
    public var timeoutSeconds: Double?
    /// Called once, on the fetcher's thread, when the connection is up and before the request is
    /// sent: true when it negotiated HTTP/2, so that other requests to the host can share it at
    /// once. Not called when no connection could be made.
    public var onConnected: (@Sendable (_ multiplexes: Bool) -> Void)?
    /// Resolve the host's name and connect to none of its addresses (`Fetcher.resolves`).
    public var resolveOnly = false
    /// Keeps more of the body than the configured `maximumStoredBodyBytes` (a file whose clients
    /// read more than the AASA's 128 KB), up to `maximumBodyBytes`.
    public var maximumStoredBodyBytes: Int?
    /// Offers only these TLS versions and suites, as a platform's own client does (Apple Pay's
    /// verifier), and records what the connection negotiated (`FetchedLocation.tls`); nil: curl's
    /// defaults, nothing recorded. A connection made with other offers is not reused for it.
    public var offeredTLS: OfferedTLS?

    public init(
        url: String, location: AASALocation, closeConnection: Bool = false, userAgent: String? = nil,
        timeoutSeconds: Double? = nil
    ) {
        self.url = url
        self.location = location
        self.closeConnection = closeConnection
        self.userAgent = userAgent
        self.timeoutSeconds = timeoutSeconds
    }
}

extension FetcherConfiguration {
    /// The CA bundle the fetches trust: `--cacert`, else the one libcurl was built with.
    public var trustedCAFile: String? {
        caCertFile ?? Self.defaultCAFile
    }

    /// The CA bundle libcurl was built to trust.
    public static var defaultCAFile: String? {
        ccurl_default_ca_file().map { String(cString: $0) }
    }
}

/// The TLS a client offers: TLS 1.2 at least, its TLS 1.2 suites and its TLS 1.3 suites, by
/// OpenSSL's names.
public struct OfferedTLS: Sendable, Equatable {
    public var tls12Suites: [String]
    public var tls13Suites: [String]

    public init(tls12Suites: [String], tls13Suites: [String]) {
        self.tls12Suites = tls12Suites
        self.tls13Suites = tls13Suites
    }
}
