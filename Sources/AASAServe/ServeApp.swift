import AASAAudit
import AASAFetch
import AASAModel
import AASAReport
import Foundation
import Synchronization

/// What `serve` answers, route by route: a request goes through the host check, routing and
/// the token check (`Middleware/`), then to its route's handler (`Handlers/`); any of them may
/// refuse with an `HTTPError`, encoded once. The HTTP plumbing is `HTTPServer`'s; this holds
/// the checks' fetcher, the limits and the counters, and is driven without a socket in tests.
public final class ServeApp: Sendable {
    let settings: ServeSettings
    let folder: OutputFolder
    let auditor: DomainAuditor
    let page = CheckPage()
    let rows = HTMLReport()
    let counters = ServeCounters()
    let hostCheck: HostCheck
    let tokenCheck: TokenCheck
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
        hostCheck = HostCheck(settings: settings)
        tokenCheck = TokenCheck(token: settings.token)
        historyCache = HistoryCache(output: settings.output, runsList: Self.runsList)
    }

    public func shutdown() {
        auditor.fetcher.shutdown()
    }

    /// Checks running now.
    public var activeChecks: Int { checksInFlight.withLock { $0 } }

    public func respond(_ request: ServeRequest) async -> ServeResponse {
        do {
            let route = Result { () throws(HTTPError) in try Route(method: request.method, target: request.target) }
            try hostCheck.check(host: request.host, route: try? route.get())
            let routed = try route.get()
            if routed.needsToken { try tokenCheck.check(authorization: request.authorization, client: request.client) }
            return try await handle(routed, client: request.client)
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
