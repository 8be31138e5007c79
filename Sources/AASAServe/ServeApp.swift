import AASAAudit
import AASAFetch
import AASAModel
import AASAReport
import Foundation
import Synchronization

/// What `serve` answers, route by route: a request goes through the middleware chain (the host
/// check, routing, the token check: `Middleware/`), then to its route's handler (`Handlers/`);
/// any of them may refuse with an `HTTPError`, encoded once. The HTTP plumbing is `HTTPServer`'s; this holds
/// the checks' fetcher, the limits and the counters, and is driven without a socket in tests.
public final class ServeApp: Sendable {
    let settings: ServeSettings
    let folder: OutputFolder
    let auditor: DomainAuditor
    let page = CheckPage()
    let rows = HTMLReport()
    let counters = ServeCounters()
    /// The cross-cutting steps, in order (`Middleware/ServeMiddleware.swift`).
    let middleware: [any ServeMiddleware]
    let checkLimiter: Mutex<RateLimiter>
    let checksInFlight = Mutex(0)
    let started = ContinuousClock.now
    /// The history's answers, kept for the file they were made from.
    let historyCache: HistoryCache

    public init(settings: ServeSettings) throws(FetcherSetupError) {
        self.settings = settings
        folder = OutputFolder(path: settings.output)
        let fetcher = try DomainCheck.sharedFetcher(settings.fetcher)
        auditor = DomainAuditor(fetcher: fetcher, validation: settings.validation, deviceView: settings.deviceView)
        checkLimiter = Mutex(RateLimiter(perMinute: settings.checksPerMinute, burst: settings.checkBurst))
        middleware = [HostCheck(settings: settings), RoutingStep(), TokenCheck(token: settings.token)]
        historyCache = HistoryCache(output: settings.output, runsList: Self.runsList)
    }

    public func shutdown() {
        auditor.fetcher.shutdown()
    }

    /// Checks running now.
    public var activeChecks: Int { checksInFlight.withLock { $0 } }

    public func respond(_ request: ServeRequest) async -> ServeResponse {
        let routed = RoutedRequest(
            request: request,
            route: Result { () throws(HTTPError) in try Route(method: request.method, target: request.target) })
        do {
            for step in middleware { try step.check(routed) }
            return try await handle(try routed.route.get(), client: request.client)
        } catch {
            return error.response
        }
    }

    /// Each route's handler: one line each.
    private func handle(_ route: Route, client: String) async throws(HTTPError) -> ServeResponse {
        switch route {
        case .health: ServeResponse(status: 200, type: "text/plain; charset=utf-8", "ok\n")
        case .apiDescription: ServeResponse(status: 200, type: "application/json", OpenAPIDocument.text + "\n")
        case .historyPage: historyPage()
        case .checkPage(let query): await checkPage(query, client: client)
        case .outputFile(let run, let file): try outputFile(run: run, file: file)
        case .apiCheck(let query): try await apiCheck(query, client: client)
        case .apiLatest: try outputFile(run: nil, file: OutputFolderLayout.latestJSON)
        case .apiRuns: try await runs()
        case .apiHistory(let domain): try await history(domain)
        case .metrics: metrics()
        case .badge(let domain, let format): try await badge(domain, format: format)
        }
    }

    func html(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> ServeResponse {
        ServeResponse(status: status, type: "text/html; charset=utf-8", text, headers: headers)
    }
}
