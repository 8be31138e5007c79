import AASAAudit
import AASAChecks
import AASAFetch
import AASAMCP
import AASAModel
import Foundation

/// What `serve` is started with.
public struct ServeSettings: Sendable {
    /// The audits' `--out`, served read-only.
    public var output: String
    /// Where to listen: loopback by default (`--listen`'s default).
    public var host = ServeSettings.defaultHost
    public var port = ServeSettings.defaultPort
    public static let defaultHost = "127.0.0.1"
    public static let defaultPort = 8080
    /// The checks' fetcher (its address policy refuses private addresses unless
    /// `--allow-network` says otherwise), validation and device view, as `check` takes them.
    public var fetcher: FetcherConfiguration
    public var validation = ValidationOptions()
    public var deviceView = DeviceViewSettings()
    /// Checks in flight at once; more are answered 503 with `Retry-After`.
    public var maximumChecks = ServeSettings.defaultMaximumChecks
    /// Checks a client may start a minute, and in a burst; more are answered 429.
    public var checksPerMinute = ServeSettings.defaultChecksPerMinute
    public var checkBurst = 5.0
    /// When set, `/api/…` and `/metrics` need `Authorization: Bearer TOKEN`.
    public var token: String?
    /// Connections at once; more are closed on arrival.
    public var maximumConnections = 512
    /// Connections from one client address at once (a trusted proxy's are not counted); more
    /// are closed on arrival.
    public var maximumConnectionsPerAddress = 64
    /// A connection that sends nothing for this long, and is not answering, is closed.
    public var idle: Duration = .seconds(15)
    /// A request must arrive whole (head and body) within this long of its first byte, however
    /// slowly its bytes come (slowloris); else the connection is closed.
    public var requestDeadline: Duration = .seconds(10)
    /// How long SIGTERM waits for in-flight checks before the server stops.
    public var drainSeconds = ServeSettings.defaultDrainSeconds
    /// The clock the rate limits and a connection's "answered a moment ago" read: seconds on a
    /// monotonic clock, from any start. Tests inject one they move by hand, so that a slow
    /// machine refills no bucket. (The connection timers are the event loop's, as NIO's are.)
    public var seconds: @Sendable () -> Double = {
        let start = ContinuousClock.now
        return { start.duration(to: .now).seconds }
    }()

    /// The defaults `serve`'s options show, and what each may be.
    public static let defaultMaximumChecks = 8
    public static let maximumChecksRange = 1...1000
    public static let defaultChecksPerMinute = 20.0
    public static let checksPerMinuteRange = 0...100_000
    public static let defaultDrainSeconds = 20.0
    public static let drainSecondsRange = 0...600.0
    /// Trust `X-Forwarded-For` from these addresses or ranges (the reverse proxy in front): its
    /// last address, when it parses as one, is then the client's, for rate limits and the log.
    public var trustedProxies: [IPNetwork] = []
    public var tool: ToolInfo
    /// `--allow-acknowledge`: `/mcp` offers `acknowledge`, the one tool that writes (into `--out`);
    /// otherwise serve writes nothing.
    public var mcpAllowsAcknowledging = false
    /// `--server-name`: the host names this server answers to (the `Host` header, its port
    /// aside); empty: the loopback names on a loopback address, any elsewhere.
    public var serverNames: [String] = []

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.lowercased()
        return bare == "localhost" || bare == "localhost." || address(bare)?.isLoopback == true
    }

    /// A `Host` header's name, lower case, without its port: `[::1]:8080` → `[::1]`.
    static func hostName(_ header: String) -> String {
        let value = header.trimmingCharacters(in: .whitespaces).lowercased()
        if value.hasPrefix("["), let end = value.firstIndex(of: "]") { return String(value[...end]) }
        return String(value.split(separator: ":", maxSplits: 1).first ?? "")
    }

    /// The IP address a host (`127.0.0.1`, `::1`, `[::1]`) spells, or nil for a name.
    static func address(_ host: String) -> IPAddress? {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return IPAddress(bare)
    }

    public init(output: String, fetcher: FetcherConfiguration, tool: ToolInfo) {
        self.output = output
        self.fetcher = fetcher
        self.tool = tool
    }
}

extension ServeSettings {
    /// `/mcp`'s server: `aasa-audit mcp`'s, on these settings and `--out`, without the write
    /// tool unless `--allow-acknowledge` offers it.
    var mcp: MCPSettings {
        var settings = MCPSettings(fetcher: fetcher, tool: tool)
        settings.validation = validation
        settings.deviceView = deviceView
        settings.output = output
        settings.allowsAcknowledging = mcpAllowsAcknowledging
        return settings
    }
}
