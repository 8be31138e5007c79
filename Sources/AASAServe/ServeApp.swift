import AASAAudit
import AASAFetch
import AASAModel
import AASAReport
import Foundation
import Synchronization

/// An answer: status, headers and a body of bytes or of a file of `--out`.
public struct ServeResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        /// A file of `--out`, opened, read in pieces as it is sent, with bytes put in at an
        /// offset (the history page's check form) or not.
        case file(OutputFolder.OpenFile, insert: Insert? = nil)
    }

    public struct Insert: Sendable {
        public var at: Int
        public var bytes: [UInt8]
    }

    public var status: Int
    public var headers: [(String, String)]
    public var body: Body

    init(status: Int, headers: [(String, String)], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    init(status: Int, type: String, _ text: String, headers: [(String, String)] = []) {
        self.status = status
        self.headers = [("Content-Type", type)] + headers
        body = .bytes(Array(text.utf8))
    }

    init(status: Int, type: String, bytes: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.headers = [("Content-Type", type)] + headers
        body = .bytes(bytes)
    }
}

/// A request as the app sees it: its route, the client's address, and the headers it reads.
public struct ServeRequest: Sendable {
    public var route: Route
    public var client: String
    public var authorization: String?
    /// The `Host` header, when the request had one.
    public var host: String?

    public init(route: Route, client: String, authorization: String? = nil, host: String? = nil) {
        self.route = route
        self.client = client
        self.authorization = authorization
        self.host = host
    }
}

/// What `serve` answers, route by route. The HTTP plumbing is `HTTPServer`'s; this holds the
/// checks' fetcher, the limits and the counters.
public final class ServeApp: Sendable {
    let settings: ServeSettings
    let folder: OutputFolder
    let auditor: DomainAuditor
    let page = CheckPage()
    let rows = HTMLReport()
    let counters = ServeCounters()
    private let limiter: Mutex<RateLimiter>
    private let checksInFlight = Mutex(0)
    private let started = ContinuousClock.now

    public init(settings: ServeSettings) throws(FetcherSetupError) {
        self.settings = settings
        folder = OutputFolder(path: settings.output)
        let fetcher = try DomainCheck.sharedFetcher(settings.fetcher)
        auditor = DomainAuditor(fetcher: fetcher, validation: settings.validation, deviceView: settings.deviceView)
        limiter = Mutex(RateLimiter(perMinute: settings.checksPerMinute, burst: settings.checkBurst))
        failedTokens = Mutex(RateLimiter(perMinute: Self.failedTokensPerMinute, burst: Self.failedTokensPerMinute))
        historyCache = HistoryCache(output: settings.output, runsList: Self.runsList)
    }

    /// Wrong or missing tokens a client may send a minute; more are answered 429 unread.
    static let failedTokensPerMinute = 10.0
    private let failedTokens: Mutex<RateLimiter>
    /// The history's answers, kept for the file they were made from.
    let historyCache: HistoryCache

    /// The names this server answers to (`Host`, without its port): `--server-name`, or on a
    /// loopback address the loopback names, so that a page a teammate's browser opens elsewhere
    /// cannot reach it through DNS rebinding. Nil: any.
    var allowedHosts: Set<String>? {
        if !settings.serverNames.isEmpty { return Set(settings.serverNames.map { $0.lowercased() }) }
        guard ServeSettings.isLoopback(settings.host) else { return nil }
        return ["localhost", "127.0.0.1", "[::1]", "::1"]
    }

    /// 421 for a request whose `Host` is not one of `allowedHosts` (the health check aside: a
    /// load balancer may name the server by its address).
    private func misdirected(_ request: ServeRequest) -> ServeResponse? {
        if case .health = request.route { return nil }
        guard let allowed = allowedHosts, !allowed.contains(ServeSettings.hostName(request.host ?? "")) else {
            return nil
        }
        return problem(421, "This server does not answer for that host name (see --server-name).")
    }

    public func shutdown() {
        auditor.fetcher.shutdown()
    }

    /// Checks running now.
    public var activeChecks: Int { checksInFlight.withLock { $0 } }

    public func respond(_ request: ServeRequest) async -> ServeResponse {
        if let refusal = misdirected(request) { return refusal }
        if request.route.needsToken, let refusal = unauthorized(request) { return refusal }
        switch request.route {
        case .refused(let status, let reason):
            return problem(status, reason)
        case .health:
            return ServeResponse(status: 200, type: "text/plain; charset=utf-8", "ok\n")
        case .historyPage:
            return historyPage()
        case .checkPage(let query):
            guard let query else { return html(page.render(CheckPage.Content(), tool: settings.tool)) }
            return await checkPage(query, client: request.client)
        case .outputFile(let run, let file):
            return outputFile(run: run, file: file)
        case .apiCheck, .apiLatest, .apiRuns, .apiHistory, .metrics:
            return await api(request)
        }
    }

    private func api(_ request: ServeRequest) async -> ServeResponse {
        switch request.route {
        case .apiCheck(let query): return await apiCheck(query, client: request.client)
        case .apiLatest: return outputFile(run: nil, file: "latest.json")
        case .apiRuns: return await runs()
        case .apiHistory(let domain): return await history(domain)
        case .metrics: return metrics()
        default: return problem(404, "Nothing is served at this path.")
        }
    }

    // MARK: Checks

    /// Reads a check's parameters, applies the limits, runs it: the record, or the status and
    /// reason it was not made.
    func check(_ query: CheckQuery, client: String) async -> Result<CheckedDomain, CheckRefusal> {
        let host: String
        let wants: AssociationWants
        do {
            host = try AuditInput.pastedHost(query.domain).host
            try AuditInput.validateAppIDs(query.appIDs)
            wants = try query.wants()
        } catch let error as InputError {
            return .failure(CheckRefusal(status: 400, reason: error.message))
        } catch let error as CheckQueryError {
            return .failure(CheckRefusal(status: 400, reason: error.message))
        } catch {
            return .failure(CheckRefusal(status: 400, reason: "\(error)"))
        }
        let now = started.duration(to: .now)
        let seconds = Double(now.components.seconds) + Double(now.components.attoseconds) / 1e18
        if let wait = limiter.withLock({ $0.take(client, now: seconds) }) {
            counters.add(\.checksLimited)
            return .failure(
                CheckRefusal(
                    status: 429, reason: "Too many checks from this address: try again in \(Int(wait.rounded(.up))) s.",
                    retryAfter: Int(wait.rounded(.up))))
        }
        let admitted = checksInFlight.withLock { count in
            guard count < settings.maximumChecks else { return false }
            count += 1
            return true
        }
        guard admitted else {
            counters.add(\.checksBusy)
            return .failure(
                CheckRefusal(
                    status: 503, reason: "\(settings.maximumChecks) checks are running: try again in a few seconds.",
                    retryAfter: 5))
        }
        defer { checksInFlight.withLock { $0 -= 1 } }
        counters.add(\.checks)
        // The team's acknowledgements as they are now (a small file, read per check): a known
        // failure shows as acknowledged, with its reason and date.
        var auditor = auditor
        auditor.acknowledgements = (try? AcknowledgementStore.read(output: settings.output)) ?? Acknowledgements()
        let checked = await DomainCheck.run(host: host, appIDs: query.appIDs, wants: wants, auditor: auditor)
        // The address policy refused every address of the host: no connection was made.
        let origin = checked.report.fetches.filter { $0.location != .cdn && $0.error?.kind != .skipped }
        if !origin.isEmpty, origin.allSatisfy({ $0.error?.kind == .blockedAddress }) {
            counters.add(\.checksRefused)
            return .failure(
                CheckRefusal(status: 403, reason: origin[0].error?.message ?? "The host's addresses are not public."))
        }
        return .success(checked)
    }

    struct CheckRefusal: Error {
        var status: Int
        var reason: String
        var retryAfter: Int?
    }

    private func apiCheck(_ query: CheckQuery, client: String) async -> ServeResponse {
        switch await check(query, client: client) {
        case .success(let checked):
            let bytes = (try? JSONReport.makeEncoder(pretty: true).encode(checked.report)) ?? Data()
            return ServeResponse(
                status: 200, type: "application/json", bytes: Array(bytes) + [0x0A],
                headers: [("Cache-Control", "no-store")])
        case .failure(let refusal):
            return problem(refusal.status, refusal.reason, retryAfter: refusal.retryAfter)
        }
    }

    private func checkPage(_ query: CheckQuery, client: String) async -> ServeResponse {
        var content = CheckPage.Content()
        content.domain = query.domain
        content.appID = query.appIDs.first ?? ""
        content.more = query.more.compactMapValues(\.first)
        switch await check(query, client: client) {
        case .success(let checked):
            content.row = rows.detailedRow(report: checked.report, files: checked.files)
            content.jsonLink = "/api/v1/check?" + query.queryString
            return html(page.render(content, tool: settings.tool), headers: [("Cache-Control", "no-store")])
        case .failure(let refusal):
            content.problem = refusal.reason
            return html(
                page.render(content, tool: settings.tool), status: refusal.status,
                headers: refusal.retryAfter.map { [("Retry-After", String($0))] } ?? [])
        }
    }

    // MARK: Files and history

    /// `index.html`, streamed as a file, with the check form after its `<body>`.
    private func historyPage() -> ServeResponse {
        guard let file = folder.open(run: nil, file: "index.html") else {
            var content = CheckPage.Content()
            content.problem =
                "No history yet in \(settings.output): the page of the nightly runs appears after the first complete audit there."
            return html(page.render(content, tool: settings.tool))
        }
        let start = file.read(at: 0, count: min(file.size, 64 << 10)) ?? []
        let insert = start.firstRange(of: Array("<body>".utf8)).map {
            ServeResponse.Insert(at: $0.upperBound, bytes: Array(("\n" + CheckPage.navigation).utf8))
        }
        return ServeResponse(
            status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")],
            body: .file(file, insert: insert))
    }

    private func outputFile(run: String?, file: String) -> ServeResponse {
        guard let open = folder.open(run: run, file: file) else {
            return problem(404, run == nil ? "\(file) is not in the output folder yet." : "No such report.")
        }
        let type =
            file.hasSuffix(".html")
            ? "text/html; charset=utf-8" : file.hasSuffix(".json") ? "application/json" : "text/plain; charset=utf-8"
        return ServeResponse(
            status: 200, headers: [("Content-Type", type), ("Cache-Control", "no-cache")],
            body: .file(open))
    }

    private func runs() async -> ServeResponse {
        switch await historyCache.fleetAnswers() {
        case .success(let answers): return ServeResponse(status: 200, type: "application/json", bytes: answers.runs)
        case .failure(let error): return problem(404, error.message)
        }
    }

    private func history(_ domain: String?) async -> ServeResponse {
        let answer: HistoryCache.Answer
        if let domain {
            answer = await historyCache.timeline(domain)
        } else {
            answer = await historyCache.fleetAnswers().map(\.record)
        }
        switch answer {
        case .success(let bytes): return ServeResponse(status: 200, type: "application/json", bytes: bytes)
        case .failure(let error): return problem(404, error.message)
        }
    }

    /// `/api/v1/runs`' list of a fleet's record.
    static func runsList(_ fleet: FleetHistoryRecord) -> any Encodable {
        ServeRunsRecord(
            runs: fleet.runs.map { run in
                ServeRunRecord(
                    run: run.run, startedAt: run.startedAt, verdicts: run.verdicts,
                    report: "/\(run.run)/report.json", page: "/\(run.run)/report.html")
            })
    }

    // MARK: Metrics

    private func metrics() -> ServeResponse {
        var text = ""
        if let latest = HistoryQuery.latestRun(output: settings.output) {
            text += MetricsReport.runSection(run: latest.run, summary: latest.summary)
        }
        text += counters.prometheus(activeChecks: activeChecks)
        return ServeResponse(status: 200, type: "text/plain; version=0.0.4; charset=utf-8", text)
    }

    // MARK: Answers

    private func unauthorized(_ request: ServeRequest) -> ServeResponse? {
        guard let token = settings.token else { return nil }
        let given = request.authorization.flatMap { value -> String? in
            value.lowercased().hasPrefix("bearer ") ? String(value.dropFirst(7)) : nil
        }
        if let given, Self.sameBytes(Array(given.utf8), Array(token.utf8)) { return nil }
        // Failed attempts are limited per client: guessing costs a minute per ten tries.
        let elapsed = started.duration(to: .now).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        if let wait = failedTokens.withLock({ $0.take(request.client, now: seconds) }) {
            var response = problem(429, "Too many requests without the right token: try again later.")
            response.headers.append(("Retry-After", String(Int(wait.rounded(.up)))))
            return response
        }
        var response = problem(401, "This path needs Authorization: Bearer TOKEN (the server's --token-file).")
        response.headers.append(("WWW-Authenticate", "Bearer"))
        return response
    }

    /// Compares without stopping at the first difference.
    static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }

    /// An error's answer: `{"status": 404, "error": "why"}` (docs/openapi.json's Error).
    func problem(_ status: Int, _ reason: String, retryAfter: Int? = nil) -> ServeResponse {
        struct Problem: Encodable {
            var status: Int
            var error: String
        }
        let body = (try? JSONEncoder().encode(Problem(status: status, error: reason))) ?? Data()
        return ServeResponse(
            status: status, type: "application/json", bytes: Array(body) + [0x0A],
            headers: (retryAfter.map { [("Retry-After", String($0))] } ?? []) + [("Cache-Control", "no-store")])
    }

    private func html(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> ServeResponse {
        ServeResponse(status: status, type: "text/html; charset=utf-8", text, headers: headers)
    }

    private func json(_ value: some Encodable) -> ServeResponse {
        let bytes = (try? JSONReport.makeEncoder(pretty: true).encode(value)) ?? Data()
        return ServeResponse(status: 200, type: "application/json", bytes: Array(bytes) + [0x0A])
    }
}

/// `/api/v1/runs`.
struct ServeRunsRecord: Encodable {
    var schemaVersion = HistorySchema.version
    var runs: [ServeRunRecord]
}

struct ServeRunRecord: Encodable {
    var run: String
    var startedAt: Date
    var verdicts: VerdictCounts
    /// The run's reports on this server.
    var report: String
    var page: String
}
