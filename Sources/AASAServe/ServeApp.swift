import AASAAudit
import AASAFetch
import AASAMCP
import AASAModel
import AASAReport
import Foundation

/// What `serve` answers, route by route: a request goes through the middleware chain (the host
/// check, routing, the check page's refusals, the token check, the checks' limits: `Middleware/`), then to
/// its route's handler (`Handlers/`); any of them may refuse with an `HTTPError`, encoded once.
/// The HTTP plumbing is `HTTPServer`'s; this holds the checks' fetcher, the limits and the
/// counters, and is driven without a socket in tests.
public final class ServeApp: Sendable {
    let settings: ServeSettings
    let folder: OutputFolder
    let auditor: DomainAuditor
    let page: CheckPage
    let rows = HTMLReport()
    let counters: ServeCounters
    /// The cross-cutting steps, in order (`Middleware/ServeMiddleware.swift`).
    let middleware: [any ServeMiddleware]
    let checkLimits: CheckLimits
    /// The history's answers, kept for the file they were made from.
    let historyCache: HistoryCache
    /// `/mcp`: the MCP server of `aasa-audit mcp`, one a session, on this server's fetcher.
    let mcp: MCPHTTPEndpoint

    public init(settings: ServeSettings) throws(FetcherSetupError) {
        self.settings = settings
        page = CheckPage(tokenRequired: settings.token != nil)
        folder = OutputFolder(path: settings.output)
        let fetcher = try DomainCheck.sharedFetcher(settings.fetcher)
        auditor = DomainAuditor(fetcher: fetcher, validation: settings.validation, deviceView: settings.deviceView)
        let counters = ServeCounters()
        self.counters = counters
        let mcp = MCPHTTPEndpoint(settings: settings.mcp, auditor: auditor, seconds: settings.seconds)
        self.mcp = mcp
        checkLimits = CheckLimits(settings: settings, counters: counters) { mcp.reachesNetwork($0) }
        middleware = [
            CrashNote(), HostCheck(settings: settings), OriginCheck(), RoutingStep(),
            CheckPageRefusals(page: page, tool: settings.tool),
            TokenCheck(token: settings.token, seconds: settings.seconds), checkLimits,
        ]
        historyCache = HistoryCache(output: settings.output, runsList: Self.runsList)
    }

    public func shutdown() {
        auditor.fetcher.shutdown()
    }

    /// Ends every MCP session: their answers in flight end with them.
    public func closeSessions() async {
        await mcp.shutdown()
    }

    /// Checks running now.
    public var activeChecks: Int { checkLimits.running }

    public func respond(_ request: ServeRequest) async -> ServeResponse {
        let routed = RoutedRequest(
            request: request,
            route: Result { () throws(HTTPError) in try Route(method: request.method, target: request.target) })
        do {
            return try await respond(routed, from: 0)
        } catch {
            return error.response
        }
    }

    /// The chain from its `index`-th step on, the route's handler at its end.
    private func respond(_ request: RoutedRequest, from index: Int) async throws(HTTPError) -> ServeResponse {
        guard index < middleware.count else { return try await handle(try request.route.get(), request) }
        return try await middleware[index].respond(to: request) {
            (next: RoutedRequest) async throws(HTTPError) -> ServeResponse in
            try await self.respond(next, from: index + 1)
        }
    }

    /// Each route's handler: one line each.
    private func handle(_ route: Route, _ request: RoutedRequest) async throws(HTTPError) -> ServeResponse {
        switch route {
        case .health: ServeResponse(status: 200, type: "text/plain; charset=utf-8", "ok\n")
        case .apiDescription: ServeResponse(status: 200, type: "application/json", OpenAPIDocument.text + "\n")
        case .historyPage: historyPage()
        case .checkPage(let query): try await checkPage(query)
        case .outputFile(let run, let file): try outputFile(run: run, file: file)
        case .apiCheck(let query): try await apiCheck(query)
        case .apiLatest: try outputFile(run: nil, file: OutputFolderLayout.latestJSON)
        case .apiRuns: try await runs()
        case .apiHistory(let domain): try await history(domain)
        case .metrics: metrics()
        case .badge(let domain, let format): try await badge(domain, format: format)
        case .mcp: await mcpExchange(request)
        }
    }

    func html(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> ServeResponse {
        ServeResponse(status: status, type: "text/html; charset=utf-8", text, headers: headers)
    }
}
