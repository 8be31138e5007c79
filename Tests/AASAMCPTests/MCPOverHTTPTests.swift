import AASAModel
import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// `serve`'s `/mcp`, driven by the reference client over Streamable HTTP with the team's token:
/// the same tools as `aasa-audit mcp` but the write tool, each answer valid against its schema,
/// progress as server-sent events, the team's history; and each refusal of the transport (no
/// token, another site's Origin, no or an unknown session, a wrong content type, a body over
/// the bound, a GET) a status and a JSON-RPC error.
@Suite(.live, .tags(.live), .enabled(if: MCPClient.isAvailable, "\(MCPClient.unavailableMessage)"))
struct MCPOverHTTPTests {
    @Test func theTeamsServerOffersTheToolsOverHTTP() async throws {
        let world = try TestWorld()
        try "good.aasa.test\nmissing.aasa.test\n".write(
            to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let audit = try await ProcessRunner.run(
            MCPServerTests.binary, ["audit"] + MCPServerTests.worldArguments(world, []), in: world.directory.url)
        #expect(audit.status == 1, "\(audit.stderr)")
        let outcome = try await MCPServerTests().drive(
            world, over: .http,
            calls: [
                ("check", "check_domain", ["domain": "good.aasa.test", "app_ids": [TestWorld.appID]]),
                ("batch", "audit_domains", ["domains": ["good.aasa.test", "missing.aasa.test", "good2.aasa.test"]]),
                ("lint", "lint_file", ["text": TestWorld.validFile]),
                ("explain", "explain_finding", ["code": "http.redirect"]),
                ("history", "domain_history", ["domain": "missing.aasa.test"]),
                ("changed", "what_changed", [:]),
                ("urls", "explain_url", ["urls": ["https://good.aasa.test/buy/shoes"]]),
                ("acknowledge", "acknowledge", ["domain": "missing.aasa.test", "until": "2099-01-01", "reason": "x"]),
            ], resources: ["aasa-audit://domains/good.aasa.test"])
        #expect(outcome.protocolVersion == "2025-11-25" && outcome.schemaProblems.isEmpty)
        #expect(
            Set(outcome.tools.keys) == [
                "check_domain", "audit_domains", "lint_file", "explain_finding", "domain_history", "what_changed",
                "explain_url",
            ], "serve writes nothing: no acknowledge")
        for (label, call) in outcome.calls where call.structured != nil {
            #expect(call.valid == true, "\(label): \(call.invalid ?? "")")
        }
        #expect(outcome.calls["check"]?.structured?["verdict"] == .string("pass"))
        #expect(outcome.calls["batch"]?.structured?["summary"]?["fail"] == .number(1))
        #expect(outcome.progress.map { $0.first } == [.number(1), .number(2), .number(3)], "\(outcome.progress)")
        #expect(outcome.calls["lint"]?.structured?["verdict"] == .string("pass"))
        #expect(outcome.calls["history"]?.structured?["runs"]?.array?.count == 1, "the team's --out")
        // One night only: nothing to compare yet, said as the team's folder says it.
        #expect(
            outcome.calls["changed"]?.text?.contains("holds no two runs") == true,
            "\(outcome.calls["changed"].map { "\($0)" } ?? "")")
        #expect(outcome.calls["urls"]?.structured?["matches"]?.array?.first?["result"] == .string("app"))
        #expect(outcome.calls["acknowledge"]?.exception?.contains("Unknown tool") == true)
        #expect(outcome.read?["aasa-audit://domains/good.aasa.test"]?.text?.contains(#""verdict""#) == true)
    }

    /// With `serve --allow-acknowledge`, the write tool is offered at /mcp (behind the token) and
    /// writes the team's acknowledgement into serve's --out, as `ack` would.
    @Test func theWriteToolIsOfferedWhenServeAllowsIt() async throws {
        let world = try TestWorld()
        let until = String(ISO8601DateFormatter().string(from: Date().addingTimeInterval(5 * 86_400)).prefix(10))
        let outcome = try await MCPServerTests().drive(
            world, over: .http, extraArguments: ["--allow-acknowledge"],
            calls: [
                ("acknowledge", "acknowledge", ["domain": "missing.aasa.test", "until": until, "reason": "vendor"])
            ])
        #expect(outcome.tools["acknowledge"]?.annotations["destructiveHint"] == true)
        let call = try #require(outcome.calls["acknowledge"])
        #expect(call.valid == true && call.structured?["reason"] == .string("vendor"), "\(call)")
        let listed = try await ProcessRunner.run(MCPServerTests.binary, ["ack", "--list"], in: world.directory.url)
        #expect(listed.stdout.contains("missing.aasa.test") && listed.stdout.contains("vendor"), "\(listed.stdout)")
    }

    @Test func theTransportRefusesWhatItMust() async throws {
        let world = try TestWorld()
        let team = try await MCPServerTests.TeamServer(world)
        defer { team.daemon.stop() }
        let port = team.daemon.port
        let bearer = "Bearer \(team.token)"
        let initialize =
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
        let list = #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#
        /// A POST to /mcp with these headers (JSON, accepting both, unless said).
        func post(_ body: String, _ headers: [String: String] = [:]) async throws -> HTTPTestClient.Response {
            let all = ["Content-Type": "application/json", "Accept": "application/json, text/event-stream"]
                .merging(headers) { _, given in given }
            var request = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
            for (name, value) in all where !value.isEmpty { request += "\(name): \(value)\r\n" }
            request += "Content-Length: \(body.utf8.count)\r\n\r\n" + body
            return try HTTPTestClient.parse(try await HTTPTestClient.exchange(port: port, Array(request.utf8)))
        }
        func errorMessage(_ response: HTTPTestClient.Response) -> String? {
            let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            return (object?["error"] as? [String: Any])?["message"] as? String
        }

        #expect(try await post(initialize).status == 401, "the token guards /mcp")
        let foreign = try await post(initialize, ["Authorization": bearer, "Origin": "https://evil.example"])
        #expect(foreign.status == 403)
        let opened = try await post(
            initialize, ["Authorization": bearer, "Origin": "http://127.0.0.1:\(port)", "Accept": "application/json"])
        #expect(opened.status == 200 && opened.headers["content-type"] == "application/json", "\(opened.text)")
        let session = try #require(opened.headers["mcp-session-id"])
        #expect(session.count == 32 && opened.text.contains(#""protocolVersion":"2025-11-25""#))
        // In the session, a request answered as events: its response, then the stream ends.
        let listed = try await post(list, ["Authorization": bearer, "Mcp-Session-Id": session])
        #expect(listed.status == 200 && listed.headers["content-type"] == "text/event-stream")
        #expect(listed.text.hasPrefix("event: message\ndata: {") && listed.text.contains("check_domain"))

        let withoutSession = try await post(list, ["Authorization": bearer])
        #expect(withoutSession.status == 400 && errorMessage(withoutSession)?.contains("Mcp-Session-Id") == true)
        #expect(try await post(list, ["Authorization": bearer, "Mcp-Session-Id": "0123"]).status == 404)
        #expect(try await post(list, ["Authorization": bearer, "Content-Type": "text/plain"]).status == 415)
        #expect(try await post("{", ["Authorization": bearer, "Mcp-Session-Id": session]).status == 400)
        let tooLarge = try await post(
            String(repeating: " ", count: (1 << 20) + 1) + list, ["Authorization": bearer, "Mcp-Session-Id": session])
        #expect(tooLarge.status == 413)
        let get = try await HTTPTestClient.get(port: port, "/mcp", headers: ["Authorization": bearer])
        #expect(get.status == 405 && get.headers["allow"] == "POST, DELETE")
        let ended = try await HTTPTestClient.get(
            port: port, "/mcp", headers: ["Authorization": bearer, "Mcp-Session-Id": session], method: "DELETE")
        #expect(ended.status == 200)
        #expect(try await post(list, ["Authorization": bearer, "Mcp-Session-Id": session]).status == 404)
        #expect(try await HTTPTestClient.get(port: port, "/healthz").status == 200, "the server went on")
    }
}
