import AASAMCP
import Synchronization

/// The check routes' limits, around a check (`/api/v1/check`, `/check?domain=`, and a call on
/// `/mcp` of a tool that reaches the network: one place and one of the rate whatever its count
/// of domains, which its tool bounds): a check whose
/// parameters do not read is refused as such first (400: it takes none of the client's rate),
/// then a client past its rate (429, with `Retry-After`), then a check beyond the checks in
/// flight (503); an admitted check holds its place until its answer is made.
final class CheckLimits: ServeMiddleware {
    private let limiter: Mutex<RateLimiter>
    private let inFlight = Mutex(0)
    private let maximum: Int
    private let counters: ServeCounters
    private let seconds: @Sendable () -> Double
    /// Whether a message POSTed to `/mcp` calls a tool that reaches the network.
    private let reachesNetwork: @Sendable (MCPHTTPRequest) -> Bool

    init(
        settings: ServeSettings, counters: ServeCounters,
        reachesNetwork: @escaping @Sendable (MCPHTTPRequest) -> Bool
    ) {
        limiter = Mutex(RateLimiter(perMinute: settings.checksPerMinute, burst: settings.checkBurst))
        maximum = settings.maximumChecks
        self.counters = counters
        seconds = settings.seconds
        self.reachesNetwork = reachesNetwork
    }

    /// Checks running now.
    var running: Int { inFlight.withLock { $0 } }

    func respond(to request: RoutedRequest, next: ServeNext) async throws(HTTPError) -> ServeResponse {
        var request = request
        switch request.routed {
        case .mcp where request.request.method == "POST":
            // Read once, here (after the token), and handed on to the endpoint.
            let exchange = MCPHTTPRequest(request.request)
            request.mcp = exchange
            guard reachesNetwork(exchange) else { return try await next(request) }
        case let route?:
            guard let query = route.checkQuery else { return try await next(request) }
            _ = try query.checked()
        case nil: return try await next(request)
        }
        let now = seconds()
        if let wait = limiter.withLock({ $0.take(request.request.client, now: now) }) {
            counters.add(\.checksLimited)
            let seconds = Int(wait.rounded(.up))
            throw HTTPError(429, "Too many checks from this address: try again in \(seconds) s.", retryAfter: seconds)
        }
        let admitted = inFlight.withLock { count in
            guard count < maximum else { return false }
            count += 1
            return true
        }
        guard admitted else {
            counters.add(\.checksBusy)
            throw HTTPError(503, "\(maximum) checks are running: try again in a few seconds.", retryAfter: 5)
        }
        defer { inFlight.withLock { $0 -= 1 } }
        counters.add(\.checks)
        return try await next(request)
    }
}

extension Route {
    /// The check a route asks for, when it is a check route with a domain.
    var checkQuery: CheckQuery? {
        switch self {
        case .apiCheck(let query): query
        case .checkPage(let query): query
        default: nil
        }
    }
}
