import AASAModel
import AASAServe
import Foundation
import Testing

/// Every path `serve` answers, routed from the request line alone: no socket, no server.
@Suite struct RouteTests {
    static func route(_ target: String, method: String = "GET") -> Result<Route, HTTPError> {
        Result { () throws(HTTPError) in try Route(method: method, target: target) }
    }

    @Test func eachPathHasItsRoute() throws {
        let run = try #require(RunFolderName("2026-11-22T031500Z"))
        let table: [(String, Route)] = [
            ("/", .historyPage), ("/index.html", .historyPage), ("/check", .checkPage(nil)),
            ("/check?domain=example.com", .checkPage(CheckQuery(domain: "example.com"))),
            (
                "/api/v1/check?domain=example.com&app-id=ABCDE12345.com.example&android=com.example.app",
                .apiCheck(
                    CheckQuery(
                        domain: "example.com", appIDs: ["ABCDE12345.com.example"],
                        more: ["android": ["com.example.app"]]))
            ),
            ("/api/v1/latest", .apiLatest), ("/api/v1/runs", .apiRuns), ("/api/v1/history", .apiHistory(domain: nil)),
            ("/api/v1/history?domain=a.example", .apiHistory(domain: "a.example")), ("/metrics", .metrics),
            ("/healthz", .health), ("/latest.json", .outputFile(run: nil, file: "latest.json")),
            ("/api/v1/openapi.json", .apiDescription),
            ("/check?domain=a.example&ios=none", .checkPage(CheckQuery(domain: "a.example", ios: "none"))),
            ("/history.json", .outputFile(run: nil, file: "history.json")),
            ("/2026-11-22T031500Z/report.html", .outputFile(run: run, file: "report.html")),
            ("/badge/Example.COM.svg", .badge(domain: "example.com", format: .svg)),
            ("/badge/a-b.example.json", .badge(domain: "a-b.example", format: .json)), ("/mcp", .mcp),
        ]
        for (target, expected) in table {
            #expect(try Self.route(target).get() == expected, "\(target)")
            // The route prints the path that asks for it, read back as itself.
            #expect(try Self.route(expected.path).get() == expected, "\(expected.path)")
        }
        #expect(Route.apiRuns.path == "/api/v1/runs" && Route.checkPage(nil).path == "/check")
        #expect(Route.outputFile(run: run, file: "report.json").path == "/2026-11-22T031500Z/report.json")
    }

    /// A run folder's name is read as the audit reads it (`RunFolderName`): the audit's sixth
    /// attempt digit is a run here too (it was a 404 when serve had a parser of its own).
    @Test func everyRunFolderTheAuditMakesIsARouteAndNothingElseIs() throws {
        for name in ["2026-11-22T031500Z", "2026-11-22T031500Z-2", "2026-11-22T031500Z-123456"] {
            let expected = try #require(RunFolderName(name))
            #expect(try Self.route("/\(name)/report.json").get() == .outputFile(run: expected, file: "report.json"))
        }
        for name in ["2026-11-22T031500Z-1", "2026-11-22T031500Z-02", "2026-11-22T031500Z-1234567", "..", "runs"] {
            #expect(throws: HTTPError.self, "\(name)") { try Self.route("/\(name)/report.json").get() }
        }
    }

    @Test func requestsForNothingServedAreRefusedWithTheirStatus() {
        let refusals: [(method: String, target: String, status: Int)] = [
            ("POST", "/", 405), ("DELETE", "/api/v1/latest", 405), ("POST", "/mcp/", 405),
            ("GET", "/" + String(repeating: "a", count: Route.maximumTargetBytes), 414),
            ("GET", "/check?domain=%zz", 400), ("GET", "/api/v1/check", 400), ("GET", "/api/v1/check?domain=", 400),
            ("GET", "/etc/passwd", 404), ("GET", "/2026-11-22T031500Z/../../etc/passwd", 404),
            ("GET", "/2026-11-22T031500Z/.aasa-audit-run", 404), ("GET", "/history.json/../index.html", 404),
            ("GET", "/badge/example.com.png", 404), ("GET", "/badge/<svg>.svg", 404), ("GET", "/badge/.svg", 404),
            ("GET", "/badge/a/b.svg", 404),
        ]
        for refusal in refusals {
            let result = Self.route(refusal.target, method: refusal.method)
            guard case .failure(let error) = result else {
                Issue.record("\(refusal.method) \(refusal.target.prefix(60)) was routed: \(result)")
                continue
            }
            #expect(error.status == refusal.status, "\(refusal.target.prefix(60))")
            #expect(error.response.status == refusal.status && !error.reason.isEmpty)
        }
    }

    /// Who needs the token, route by route: the API's data under any name, and every check.
    @Test func theTokensScopeIsEveryPathOfTheAPIsData() throws {
        let needs = [
            "/api/v1/latest", "/api/v1/runs", "/api/v1/history", "/api/v1/check?domain=a.example", "/metrics",
            "/latest.json", "/history.json", "/2026-11-22T031500Z/report.json", "/check?domain=a.example",
        ]
        let open = [
            "/", "/check", "/healthz", "/latest.html", "/2026-11-22T031500Z/report.html", "/badge/a.example.svg",
            "/api/v1/openapi.json",
        ]
        for target in needs { #expect(try Self.route(target).get().needsToken, "\(target)") }
        for target in open { #expect(try !Self.route(target).get().needsToken, "\(target)") }
    }

    @Test func aRefusalIsEncodedOnce() throws {
        let error = HTTPError(429, "Too many \"checks\".", retryAfter: 7)
        let response = error.response
        #expect(response.status == 429 && response.header("retry-after") == "7")
        #expect(response.header("content-type") == "application/json")
        let body = try #require(response.bytes)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect(decoded["status"] as? Int == 429 && decoded["error"] as? String == #"Too many "checks"."#)
        #expect(body.last == 0x0A)
    }
}

/// The per-client limit, on a clock the test gives.
@Suite struct RateLimiterTests {
    @Test func aBurstIsGrantedThenTheRateRefills() {
        var limiter = RateLimiter(perMinute: 6, burst: 2)
        #expect(limiter.take("a", now: 0) == nil && limiter.take("a", now: 0) == nil)
        #expect(limiter.take("a", now: 0) == 10)
        #expect(limiter.take("b", now: 0) == nil)
        #expect(limiter.take("a", now: 10) == nil)
        #expect(limiter.take("a", now: 11) == 9)
    }

    @Test func theTableForgetsTheLeastRecentTenth() {
        var limiter = RateLimiter(perMinute: 1, burst: 1, maximumClients: 100)
        for client in 0..<1_000 { _ = limiter.take("c\(client)", now: Double(client)) }
        #expect(limiter.clientCount <= 100)
        #expect(limiter.take("new", now: 1_000) == nil)
    }

    /// `--token-file`'s help names what the token guards from `Route.tokenScope`: every route
    /// that needs the token is named there, and one that does not is not said to.
    @Test func theTokensScopeInWordsNamesEveryGuardedRoute() throws {
        let named: [(target: String, words: String)] = [
            ("/api/v1/check?domain=example.com", "/api/v1/"), ("/api/v1/latest", "/api/v1/"),
            ("/api/v1/runs", "/api/v1/"), ("/api/v1/history", "/api/v1/"), ("/metrics", "/metrics"),
            ("/check?domain=example.com", "/check?domain="), ("/latest.json", "/latest.json"),
            ("/history.json", "/history.json"), ("/2026-01-01T000000Z/report.json", "report.json"),
        ]
        for (target, words) in named {
            #expect(try RouteTests.route(target).get().needsToken, "\(target)")
            #expect(Route.tokenScope.contains(words), "\(target) is guarded but the help does not say so")
        }
        for open in ["/", "/healthz", "/check", "/latest.html", "/api/v1/openapi.json", "/badge/example.com.svg"] {
            #expect(try !RouteTests.route(open).get().needsToken, "\(open)")
        }
    }
}
