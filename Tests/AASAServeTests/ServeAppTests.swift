import AASAFetch
import AASAModel
import AASAReport
import AASAServe
import Foundation
import Testing

/// `ServeApp.respond` driven without a socket: the middleware (host, token), the handlers'
/// answers and refusals, the files of `--out`. The live-port tests (ServeLiveTests, beside these)
/// keep the bounds, idle closing, streaming and drain.
@Suite struct ServeAppTests {
    /// An app over a fresh output folder; checks resolve `blocked.example` to loopback, which
    /// the address policy refuses before any connection.
    final class App: Sendable {
        let app: ServeApp
        let output: URL

        init(token: String? = nil, serverNames: [String] = [], burst: Double = 5, listen: String = "127.0.0.1") throws {
            output = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            let fetcher = FetcherConfiguration(
                timeoutSeconds: 2, userAgent: "aasa-audit-test", resolve: ["blocked.example:443:127.0.0.1"],
                addressPolicy: .publicOnly)
            var settings = ServeSettings(output: output.path, fetcher: fetcher, tool: ToolInfo(version: "test"))
            settings.deviceView = .originOnly
            settings.token = token
            settings.serverNames = serverNames
            settings.host = listen
            settings.checkBurst = burst
            // No refill within a test, however slow the machine.
            settings.checksPerMinute = 0.01
            app = try ServeApp(settings: settings)
        }

        func get(
            _ target: String, client: String = "192.0.2.1", authorization: String? = nil, host: String = "127.0.0.1"
        ) async -> ServeResponse {
            await app.respond(ServeRequest(target: target, client: client, authorization: authorization, host: host))
        }

        /// The body, read whole (a file's from its descriptor).
        func text(_ response: ServeResponse) -> String {
            switch response.body {
            case .bytes(let bytes): return String(decoding: bytes, as: UTF8.self)
            case .file(let file, _): return String(decoding: file.read(at: 0, count: file.size) ?? [], as: UTF8.self)
            case .stream:
                Issue.record("a stream where a body was expected")
                return ""
            }
        }

        func write(_ text: String, to path: String) throws {
            let url = output.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }

        deinit {
            app.shutdown()
            try? FileManager.default.removeItem(at: output)
        }
    }

    @Test func theFilesOfTheOutputFolderAreServedByName() async throws {
        let app = try App()
        #expect(await app.get("/latest.json").status == 404)
        #expect(await app.get("/").status == 200)
        try app.write(#"{"schemaVersion": 1}"#, to: "latest.json")
        let latest = await app.get("/api/v1/latest")
        #expect(latest.status == 200 && app.text(latest) == #"{"schemaVersion": 1}"#)
        #expect(latest.header("content-type") == "application/json")
        // The audit's sixth digit of an attempt: its reports are served (issue 39's disagreement).
        let run = "2026-11-22T031500Z-123456"
        try app.write("{}", to: "\(run)/report.json")
        try app.write("", to: "\(run)/.aasa-audit-run")
        #expect(await app.get("/\(run)/report.json").status == 200)
        #expect(await app.get("/\(run)/report.html").status == 404)
        try app.write("<html><body><p>runs</p></body></html>", to: "index.html")
        let home = await app.get("/")
        #expect(home.status == 200 && app.text(home).contains("<p>runs</p>"))
        guard case .file(_, let insert) = home.body else {
            Issue.record("the history page is not streamed from its file")
            return
        }
        #expect(insert?.at == "<html><body>".utf8.count)
    }

    @Test func theTokenGuardsTheAPIsDataAndGuessesAreLimited() async throws {
        let token = "0123456789abcdef0123456789abcdef"
        let app = try App(token: token)
        let without = await app.get("/api/v1/runs")
        #expect(without.status == 401 && without.header("www-authenticate") == "Bearer")
        #expect(await app.get("/metrics", client: "192.0.2.9", authorization: "Bearer \(token)").status == 200)
        let health = await app.get("/healthz")
        #expect(health.status == 200 && app.text(health) == "ok\n")
        // The chain's order: routing before the token, so a path nothing serves is a 404, not a
        // 401 that would say a token opens it.
        #expect(await app.get("/api/v1/nothing").status == 404)
        #expect(await app.get("/check").status == 200)
        var statuses: [Int] = []
        for attempt in 0..<11 {
            statuses.append(
                await app.get("/metrics", client: "198.51.100.7", authorization: "Bearer \(attempt)").status)
        }
        #expect(statuses == Array(repeating: 401, count: 9) + [401, 429], "\(statuses)")
        // Another client is not locked out by the first one's guesses.
        #expect(await app.get("/metrics", client: "198.51.100.8", authorization: "Bearer no").status == 401)
    }

    /// With a token, the pages show no form a browser could only have refused (it cannot send a
    /// bearer token): they say how to check; a check asked on the page anyway is refused as a
    /// page, not raw JSON; the API's refusal stays JSON (issue 56).
    @Test func withATokenThePagesSayHowToCheck() async throws {
        let token = "0123456789abcdef0123456789abcdef"
        let app = try App(token: token)
        let form = app.text(await app.get("/check"))
        #expect(!form.contains("<form") && form.contains(CheckPage.tokenNote.prefix(40)), "\(form)")
        let refused = await app.get("/check?domain=example.com")
        #expect(refused.status == 401 && refused.header("content-type") == "text/html; charset=utf-8")
        #expect(app.text(refused).contains("Authorization: Bearer") && !app.text(refused).contains("<form"))
        let api = await app.get("/api/v1/check?domain=example.com")
        #expect(api.status == 401 && api.header("content-type") == "application/json")
        try app.write("<html><body><p>runs</p></body></html>", to: "index.html")
        guard case .file(_, let insert) = await app.get("/").body, let bytes = insert?.bytes else {
            Issue.record("the history page is not streamed with its navigation")
            return
        }
        let navigation = String(decoding: bytes, as: UTF8.self)
        #expect(navigation.contains(#"<a href="/check">Check a domain</a>"#) && !navigation.contains("<form"))

        let open = try App()
        #expect(open.text(await open.get("/check")).contains(#"<form class="check""#))
    }

    /// A token too short or too uniform to resist guessing is refused when serve starts.
    @Test func aWeakTokenIsRefusedAtStart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("token")
        for weak in ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "short-but-varied-123"] {
            try weak.write(to: file, atomically: true, encoding: .utf8)
            #expect(throws: ServeError.self) { try ServeToken.read(file.path) }
        }
        try "0123456789abcdef0123456789abcdef".write(to: file, atomically: true, encoding: .utf8)
        #expect(try ServeToken.read(file.path) == "0123456789abcdef0123456789abcdef")
    }

    @Test func aForeignHostIsMisdirectedButTheHealthCheckIsNot() async throws {
        let app = try App()
        #expect(await app.get("/", host: "rebound.attacker.example").status == 421)
        #expect(await app.get("/nowhere", host: "rebound.attacker.example").status == 421)
        #expect(await app.get("/", host: "localhost:8080").status == 200)
        #expect(await app.get("/healthz", host: "10.0.0.5").status == 200)
        let named = try App(serverNames: ["audit.example.com"])
        #expect(await named.get("/", host: "audit.example.com").status == 200)
        #expect(await named.get("/", host: "audit.example.com.").status == 200)
        #expect(await named.get("/", host: "localhost").status == 421)
    }

    /// An IP address in `Host` cannot be rebound through DNS: the address serve listens on is
    /// answered (it printed `http://127.0.0.55:8080/`), as is any other; a loopback address
    /// however spelled gets the Host check, and `localhost.` is localhost (issue 46, item 7).
    @Test func itsOwnAddressIsAnsweredAndEveryLoopbackSpellingIsChecked() async throws {
        let odd = try App(listen: "127.0.0.55")
        #expect(await odd.get("/", host: "127.0.0.55:8080").status == 200)
        #expect(await odd.get("/", host: "[::1]:8080").status == 200)
        #expect(await odd.get("/", host: "localhost.:8080").status == 200)
        #expect(await odd.get("/", host: "rebound.attacker.example").status == 421)
        for spelling in ["0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "LOCALHOST", "localhost."] {
            let app = try App(listen: spelling)
            #expect(await app.get("/", host: "rebound.attacker.example").status == 421, "\(spelling)")
            #expect(await app.get("/", host: "localhost").status == 200, "\(spelling)")
        }
        // Not loopback and no --server-name: any name, as before.
        #expect(await (try App(listen: "0.0.0.0")).get("/", host: "audit.internal").status == 200)
    }

    /// A check's refusals, each before any connection: bad input (400, as JSON and as the
    /// page), an address the policy refuses (403), then the client's rate (429).
    @Test func checksAreRefusedForBadInputPrivateAddressesAndTheirRate() async throws {
        let app = try App(burst: 2)
        let bad = await app.get("/api/v1/check?domain=exa%20mple.com")
        #expect(bad.status == 400 && app.text(bad).contains(#""status":400"#))
        let badApp = await app.get("/api/v1/check?domain=example.com&android=not%20a%20package")
        #expect(badApp.status == 400 && app.text(badApp).contains("android="))
        let page = await app.get("/check?domain=example.com&app-id=nope")
        #expect(page.status == 400 && page.header("content-type")?.hasPrefix("text/html") == true)
        let statuses = await [
            app.get("/api/v1/check?domain=blocked.example").status,
            app.get("/api/v1/check?domain=blocked.example").status,
            app.get("/api/v1/check?domain=blocked.example").status,
        ]
        #expect(statuses == [403, 403, 429], "\(statuses)")
        // The page's refusal is the page, with the form as filled and why (`CheckPageRefusals`),
        // whichever step of the chain refused it.
        let limited = await app.get("/check?domain=blocked.example")
        #expect(limited.status == 429 && limited.header("retry-after") != nil)
        #expect(limited.header("content-type")?.hasPrefix("text/html") == true)
        #expect(
            app.text(limited).contains("Too many checks from this address")
                && app.text(limited).contains("blocked.example"))
        let metrics = app.text(await app.get("/metrics"))
        #expect(metrics.contains(#"aasa_audit_serve_checks_total{outcome="refused"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"aasa_audit_serve_checks_total{outcome="limited"} 2"#))
    }

    /// `/mcp` behind the same chain, without a socket: a call of a tool that reaches the network
    /// takes from the client's rate of checks as a check does; one that does not, and the
    /// protocol's own requests, take nothing.
    @Test func mcpCallsThatReachTheNetworkAreChecks() async throws {
        let app = try App(burst: 1)
        func post(_ body: String, session: String? = nil) async -> ServeResponse {
            let headers = ["content-type": "application/json", "accept": "application/json"]
                .merging(session.map { ["mcp-session-id": $0] } ?? [:]) { first, _ in first }
            return await app.app.respond(
                ServeRequest(
                    method: "POST", target: "/mcp", client: "192.0.2.1", host: "127.0.0.1", headers: headers,
                    body: Array(body.utf8)))
        }
        let opened = await post(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
        )
        let session = try #require(opened.header("mcp-session-id"), "\(app.text(opened))")
        func call(_ id: Int, _ tool: String, _ arguments: String) -> String {
            #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments)}}"#
        }
        let checked = await post(call(2, "check_domain", #"{"domain":"blocked.example"}"#), session: session)
        #expect(checked.status == 200 && app.text(checked).contains(#""domain":"blocked.example""#))
        let limited = await post(call(3, "check_domain", #"{"domain":"blocked.example"}"#), session: session)
        #expect(limited.status == 429 && limited.header("retry-after") != nil)
        let explained = await post(call(4, "explain_finding", #"{"code":"http.redirect"}"#), session: session)
        #expect(explained.status == 200 && app.text(explained).contains("http.redirect"))
        let listed = await post(#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#, session: session)
        #expect(listed.status == 200 && app.text(listed).contains("audit_domains"))
        #expect(await app.get("/mcp", host: "127.0.0.1").status == 405)
    }
}
