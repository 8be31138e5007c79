import AASAModel
import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// `aasa-audit mcp` driven by the reference MCP client (PyPI's mcp 2.3.0) over stdio: every
/// tool listed with a strict input schema and truthful annotations, called against loopback
/// hosts (every kind), its structured content valid against its output schema (checked by the
/// client and again with jsonschema); progress on a batch; a business failure a result with
/// isError, an unknown tool a JSON-RPC error; the write tool absent unless allowed.
@Suite(.live, .tags(.live), .enabled(if: MCPClient.isAvailable, "\(MCPClient.unavailableMessage)"))
struct MCPServerTests {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("aasa-audit")

    static let script = #"""
        import asyncio, contextlib, json, os, sys
        import jsonschema
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        plan = json.loads(sys.argv[1])

        async def main():
            out = {"calls": {}, "progress": [], "schemaProblems": []}
            async with contextlib.AsyncExitStack() as stack:
                if "url" in plan:
                    # serve's /mcp: Streamable HTTP, with the team's token.
                    http = await stack.enter_async_context(create_mcp_http_client(headers=plan["headers"]))
                    read, write = await stack.enter_async_context(streamable_http_client(plan["url"], http_client=http))
                else:
                    params = StdioServerParameters(command=plan["command"], args=plan["args"], cwd=plan["cwd"])
                    read, write = await stack.enter_async_context(stdio_client(params))
                async with ClientSession(read, write) as session:
                    init = await session.initialize()
                    out["protocol"] = init.protocol_version
                    out["server"] = init.server_info.name
                    tools = (await session.list_tools()).tools
                    schemas = {}
                    out["tools"] = {}
                    for tool in tools:
                        for which, schema in (("input", tool.input_schema), ("output", tool.output_schema)):
                            try:
                                jsonschema.Draft202012Validator.check_schema(schema)
                            except Exception as error:
                                out["schemaProblems"].append(f"{tool.name} {which}: {error}")
                        schemas[tool.name] = tool.output_schema
                        annotations = tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations else {}
                        out["tools"][tool.name] = {
                            "strict": tool.input_schema.get("additionalProperties") is False,
                            "maxDomains": tool.input_schema.get("properties", {}).get("domains", {}).get("maxItems"),
                            "annotations": {key: value for key, value in annotations.items() if key.endswith("Hint")},
                        }

                    async def progress(done, total, message):
                        out["progress"].append([done, total, message])

                    cancel = plan.get("cancel") or {}
                    for label, name, arguments in plan["calls"]:
                        if label == cancel.get("label"):
                            # Cancelled by the client once this many domains are done.
                            reached = asyncio.Event()
                            seen = []
                            async def counting(done, total, message):
                                seen.append(done)
                                if len(seen) >= cancel["after"]:
                                    reached.set()
                            task = asyncio.create_task(session.call_tool(name, arguments, progress_callback=counting))
                            await asyncio.wait_for(reached.wait(), 300)
                            task.cancel()
                            try:
                                await task
                            except asyncio.CancelledError:
                                pass
                            out["calls"][label] = {"cancelled": True, "progressAtCancel": len(seen)}
                            # The test watches the server's connections meanwhile, then says go on
                            # (a file it makes), within two minutes.
                            for _ in range(2400):
                                if os.path.exists(cancel["proceed"]):
                                    break
                                await asyncio.sleep(0.05)
                            continue
                        try:
                            result = await session.call_tool(
                                name, arguments, progress_callback=progress if name == "audit_domains" else None)
                        except Exception as error:
                            out["calls"][label] = {"exception": str(error)}
                            continue
                        call = {"isError": result.is_error, "text": "".join(getattr(block, "text", "") for block in result.content)}
                        if result.structured_content is not None:
                            call["structured"] = result.structured_content
                            try:
                                jsonschema.validate(result.structured_content, schemas[name],
                                                    cls=jsonschema.Draft202012Validator,
                                                    format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
                                call["valid"] = True
                            except jsonschema.ValidationError as error:
                                call["valid"] = False
                                call["invalid"] = error.message[:500]
                        out["calls"][label] = call
                    if "resources" in plan:
                        listed = await session.list_resources()
                        out["resources"] = [str(resource.uri) for resource in listed.resources]
                        templates = await session.list_resource_templates()
                        out["templates"] = [template.uri_template for template in templates.resource_templates]
                        out["read"] = {}
                        for uri in plan["resources"]:
                            try:
                                read = await session.read_resource(uri)
                                out["read"][uri] = {"text": read.contents[0].text, "mimeType": read.contents[0].mime_type}
                            except Exception as error:
                                out["read"][uri] = {"exception": str(error)}
            print(json.dumps(out))

        asyncio.run(main())
        """#

    struct Outcome: Decodable {
        struct Tool: Decodable {
            var strict: Bool
            var maxDomains: Int?
            var annotations: [String: Bool]
        }

        struct Call: Decodable {
            var cancelled: Bool?
            var progressAtCancel: Int?
            var isError: Bool?
            var text: String?
            var structured: JSONValue?
            var valid: Bool?
            var invalid: String?
            var exception: String?
        }

        var protocolVersion: String
        var server: String
        var tools: [String: Tool]
        var calls: [String: Call]
        var progress: [[JSONValue]]
        var schemaProblems: [String]
        var resources: [String]?
        var templates: [String]?
        var read: [String: Read]?

        struct Read: Decodable {
            var text: String?
            var mimeType: String?
            var exception: String?
        }

        enum CodingKeys: String, CodingKey {
            case protocolVersion = "protocol"
            case server, tools, calls, progress, schemaProblems, resources, templates, read
        }
    }

    /// How the client reaches the server: `aasa-audit mcp` on its standard input and output, or
    /// `aasa-audit serve`'s `/mcp` (Streamable HTTP, with a token).
    enum Transport: String, CaseIterable, Sendable {
        case stdio, http
    }

    /// `aasa-audit serve` on a loopback port, with a token, auditing through the world.
    struct TeamServer {
        let daemon: LocalDaemon
        let token = "a-token-of-the-team-0123456789abcdef"
        var url: String { "http://127.0.0.1:\(daemon.port)/mcp" }

        init(_ world: TestWorld, extraArguments: [String] = []) async throws {
            let tokenFile = world.directory.url.appendingPathComponent("token")
            try token.write(to: tokenFile, atomically: true, encoding: .utf8)
            let out = world.directory.url.appendingPathComponent("reports")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            daemon = try await LocalDaemon(MCPServerTests.binary.path, readyPath: "/healthz") { port in
                ["serve", "--listen", "127.0.0.1:\(port)", "--out", out.path, "--token-file", tokenFile.path]
                    + MCPServerTests.worldArguments(world, extraArguments)
            }
        }
    }

    /// What both servers take to audit through the world's loopback hosts.
    static func worldArguments(_ world: TestWorld, _ extraArguments: [String]) -> [String] {
        ["--cacert", world.caFile] + extraArguments + ["--connect-to", world.connectTo, "--no-cdn"]
            + LoopbackNetworks.allowArguments
    }

    /// - Parameter cancel: the label of an `audit_domains` call the client cancels once that many
    ///   domains are done.
    /// - Parameter watching: runs while the client does; a client that cancels waits after its
    ///   cancel until this returns.
    func drive(
        _ world: TestWorld, over transport: Transport = .stdio, extraArguments: [String] = [],
        calls: [(String, String, [String: Any])],
        cancel: (label: String, after: Int)? = nil, resources: [String]? = nil,
        watching: (ProcessRunner.Running) async -> Void = { _ in }
    ) async throws -> Outcome {
        var plan: [String: Any] = ["calls": calls.map { [$0.0, $0.1, $0.2] as [Any] }]
        var server: TeamServer?
        switch transport {
        case .stdio:
            plan["command"] = Self.binary.path
            plan["args"] = ["mcp"] + Self.worldArguments(world, extraArguments)
            plan["cwd"] = world.directory.url.path
        case .http:
            let team = try await TeamServer(world, extraArguments: extraArguments)
            plan["url"] = team.url
            plan["headers"] = ["Authorization": "Bearer \(team.token)"]
            server = team
        }
        defer { server?.daemon.stop() }
        let proceed = world.directory.url.appendingPathComponent("proceed").path
        if let resources { plan["resources"] = resources }
        if let cancel { plan["cancel"] = ["label": cancel.label, "after": cancel.after, "proceed": proceed] }
        let text = String(decoding: try JSONSerialization.data(withJSONObject: plan), as: UTF8.self)
        let running = try MCPClient.start(Self.script, [text])
        await watching(running)
        _ = FileManager.default.createFile(atPath: proceed, contents: Data())
        return try JSONDecoder().decode(Outcome.self, from: try MCPClient.output(of: await running.finished()))
    }

    @Test func everyToolAnswersAsItsSchemasSay() async throws {
        let world = try TestWorld()
        let everyKind: [String: Any] = [
            "domain": "good.aasa.test", "app_ids": [TestWorld.appID], "android": ["com.example.app"],
            "passkeys": true, "windows": ["Contoso.App_8wekyb3d8bbwe"], "harmony": ["5765880207854972765"],
            "origin": ["https://shop.aasa.test"],
        ]
        let batch = [
            "good.aasa.test \(TestWorld.appID)", "missing.aasa.test", "good2.aasa.test android:com.x.y", "not a host!",
        ]
        let outcome = try await drive(
            world,
            calls: [
                ("check", "check_domain", ["domain": "good.aasa.test", "app_ids": [TestWorld.appID]]),
                ("checkEveryKind", "check_domain", everyKind),
                ("checkMissing", "check_domain", ["domain": "missing.aasa.test"]),
                ("checkBadName", "check_domain", ["domain": "exa mple.com"]),
                ("checkUnknownArgument", "check_domain", ["domain": "good.aasa.test", "colour": "red"]),
                ("batch", "audit_domains", ["domains": batch]),
                ("lintGood", "lint_file", ["text": TestWorld.validFile]),
                (
                    "lintBroken", "lint_file",
                    ["text": "{\"applinks\": {\"details\": [}", "name": "apple-app-site-association"]
                ),
                ("lintAssetLinks", "lint_file", ["text": "[{\"relation\": [\"x\"]}]", "kind": "assetlinks"]),
                ("explain", "explain_finding", ["code": "http.redirect"]),
                (
                    "urls", "explain_url",
                    ["urls": ["https://good.aasa.test/buy/shoes", "https://good.aasa.test/sell/shoes"]]
                ),
                (
                    "urlsAndroid", "explain_url",
                    [
                        "domain": "android.aasa.test", "urls": ["https://android.aasa.test/x"],
                        "android": "com.example.app",
                    ]
                ),
                ("urlsNoFile", "explain_url", ["domain": "missing.aasa.test", "urls": ["https://missing.aasa.test/"]]),
                (
                    "urlsTwoApps", "explain_url",
                    ["urls": ["https://good.aasa.test/"], "android": "a.b", "windows": "A_b"]
                ),
                ("explainUnknown", "explain_finding", ["code": "http.redirec"]),
                ("historyWithoutOut", "domain_history", ["domain": "good.aasa.test"]),
                ("changedWithoutOut", "what_changed", [:]),
                ("unknownTool", "no_such_tool", [:]),
                (
                    "acknowledgeNotOffered", "acknowledge",
                    ["domain": "a.example", "until": "2026-12-01", "reason": "x"]
                ),
            ])
        #expect(outcome.server == "aasa-audit" && outcome.protocolVersion == "2025-11-25")
        #expect(outcome.schemaProblems.isEmpty, "\(outcome.schemaProblems)")
        #expect(
            Set(outcome.tools.keys) == [
                "check_domain", "audit_domains", "lint_file", "explain_finding", "domain_history", "what_changed",
                "explain_url",
            ])
        #expect(outcome.tools.values.allSatisfy { $0.strict }, "every input schema refuses unknown names")
        #expect(outcome.tools["check_domain"]?.annotations["openWorldHint"] == true)
        #expect(outcome.tools["lint_file"]?.annotations["readOnlyHint"] == true)
        #expect(outcome.tools["lint_file"]?.annotations["openWorldHint"] == false)

        for (label, call) in outcome.calls where call.structured != nil {
            #expect(call.valid == true, "\(label): \(call.invalid ?? "")")
        }
        let check = try #require(outcome.calls["check"])
        #expect(check.isError == false && check.structured?["verdict"] == .string("pass"), "\(check.text ?? "")")
        let every = try #require(outcome.calls["checkEveryKind"]?.structured)
        for key in ["expectedAndroidApps", "expectedWindowsApps", "expectedHarmonyApps", "passkeyEndpoints"] {
            #expect(every[key] != nil, "\(key) missing from the record")
        }
        #expect(outcome.calls["checkMissing"]?.structured?["verdict"] == .string("fail"))
        for label in [
            "checkBadName", "checkUnknownArgument", "explainUnknown", "historyWithoutOut", "changedWithoutOut",
        ] {
            #expect(outcome.calls[label]?.isError == true, "\(label): \(outcome.calls[label].map { "\($0)" } ?? "")")
        }
        #expect(outcome.calls["checkUnknownArgument"]?.text?.contains("Unknown argument 'colour'") == true)
        #expect(outcome.calls["explainUnknown"]?.text?.contains("Did you mean http.redirect") == true)
        #expect(outcome.calls["unknownTool"]?.exception?.contains("Unknown tool") == true)
        #expect(outcome.calls["acknowledgeNotOffered"]?.exception?.contains("Unknown tool") == true)

        let summary = try #require(outcome.calls["batch"]?.structured?["summary"])
        #expect(summary["domains"] == .number(3) && summary["pass"] == .number(1), "\(summary)")
        #expect(outcome.calls["batch"]?.structured?["problems"]?.array?.count == 1)
        #expect(outcome.progress.count == 3 && outcome.progress.last?.first == .number(3), "\(outcome.progress)")

        #expect(outcome.calls["lintGood"]?.structured?["verdict"] == .string("pass"))
        #expect(outcome.calls["lintBroken"]?.structured?["verdict"] == .string("fail"))
        let lintFindings = outcome.calls["lintBroken"]?.structured?["findings"]?.array ?? []
        #expect(lintFindings.contains { $0["line"] != nil }, "a finding with its place")
        #expect(outcome.calls["lintAssetLinks"]?.structured?["verdict"] == .string("fail"))
        #expect(outcome.calls["explain"]?.structured?["code"] == .string("http.redirect"))
        let matches = outcome.calls["urls"]?.structured?["matches"]?.array ?? []
        #expect(matches.map { $0["result"] } == [.string("app"), .string("none")], "\(matches)")
        #expect(matches.last?["nearest"]?["explanation"] != nil, "the rule that came closest")
        #expect(outcome.calls["urlsAndroid"]?.structured?["matches"]?.array?.first?["result"] != nil)
        #expect(outcome.calls["urlsNoFile"]?.isError == true && outcome.calls["urlsTwoApps"]?.isError == true)
    }
}

extension MCPServerTests {
    /// With the team's --out: a domain's nights, and (allowed) an acknowledgement written there.
    @Test func historyAndTheAllowedWriteReadAndWriteTheTeamsFolder() async throws {
        let world = try TestWorld()
        /// A night's audit of these domains.txt lines into reports/.
        func night(_ lines: String) async throws -> Int32 {
            try lines.write(
                to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
            let audit = try await ProcessRunner.run(
                Self.binary,
                ["audit", "--no-cdn", "--cacert", world.caFile, "--connect-to", world.connectTo]
                    + LoopbackNetworks.allowArguments, in: world.directory.url)
            return audit.status
        }
        #expect(try await night("good.aasa.test\nmissing.aasa.test\n") == 1)
        // A second night: good.aasa.test now expected to name an app it does not, good2 added,
        // missing removed.
        #expect(try await night("good.aasa.test ZZZZZ99999.com.other.app\ngood2.aasa.test\n") == 1)
        let until = String(ISO8601DateFormatter().string(from: Date().addingTimeInterval(5 * 86_400)).prefix(10))
        let outcome = try await drive(
            world, extraArguments: ["--out", "reports", "--allow-acknowledge", "--max-batch", "7"],
            calls: [
                ("history", "domain_history", ["domain": "missing.aasa.test"]),
                ("changed", "what_changed", [:]),
                ("changedSinceLongAgo", "what_changed", ["since": "2001-01-01"]),
                ("changedSinceNonsense", "what_changed", ["since": "last tuesday"]),
                ("acknowledge", "acknowledge", ["domain": "missing.aasa.test", "until": until, "reason": "vendor"]),
                (
                    "acknowledgePast", "acknowledge",
                    ["domain": "missing.aasa.test", "until": "2001-01-01", "reason": "x"]
                ),
                ("checkAcknowledged", "check_domain", ["domain": "missing.aasa.test"]),
            ],
            resources: [
                "aasa-audit://runs/latest", "aasa-audit://domains/good2.aasa.test",
                "aasa-audit://domains/missing.aasa.test", "aasa-audit://nothing",
            ])
        #expect(outcome.tools["acknowledge"]?.annotations["readOnlyHint"] == false)
        #expect(outcome.tools["acknowledge"]?.annotations["destructiveHint"] == true)
        for (label, call) in outcome.calls where call.structured != nil {
            #expect(call.valid == true, "\(label): \(call.invalid ?? "")")
        }
        let runs = try #require(outcome.calls["history"]?.structured?["runs"]?.array)
        #expect(runs.count == 2 && runs[0]["verdict"] == JSONValue.string("fail"), "\(runs)")
        let changed = try #require(outcome.calls["changed"]?.structured)
        let domains = changed["changed"]?.array ?? []
        #expect(domains.count == 1 && domains.first?["domain"] == JSONValue.string("good.aasa.test"), "\(changed)")
        #expect(domains.first?["from"] == JSONValue.string("pass") && domains.first?["to"] == JSONValue.string("fail"))
        #expect(changed["added"] == JSONValue.array([.string("good2.aasa.test")]))
        #expect(changed["removed"] == JSONValue.array([.string("missing.aasa.test")]))
        #expect(outcome.calls["changedSinceLongAgo"]?.structured?["changed"]?.array?.count == 1)
        #expect(outcome.calls["changedSinceNonsense"]?.isError == true)
        #expect(outcome.calls["acknowledge"]?.structured?["reason"] == JSONValue.string("vendor"))
        #expect(outcome.calls["acknowledgePast"]?.isError == true)
        let findings = outcome.calls["checkAcknowledged"]?.structured?["findings"]?.array ?? []
        #expect(findings.contains { $0["acknowledged"]?["reason"] == JSONValue.string("vendor") }, "the check shows it")
        let listed = try await ProcessRunner.run(Self.binary, ["ack", "--list"], in: world.directory.url)
        #expect(outcome.tools["what_changed"]?.annotations["readOnlyHint"] == true)
        #expect(outcome.tools["audit_domains"]?.maxDomains == 7, "the schema says --max-batch")
        // Resources: the newest run (small whatever the fleet), and a domain's record in it.
        #expect(outcome.resources == ["aasa-audit://runs/latest"])
        #expect(outcome.templates == ["aasa-audit://domains/{domain}"])
        let latest = try #require(outcome.read?["aasa-audit://runs/latest"]?.text)
        #expect(latest.contains(#""summary""#) && latest.contains(#""run""#), "\(latest.prefix(300))")
        let record = try #require(outcome.read?["aasa-audit://domains/good2.aasa.test"]?.text)
        let decoded = try JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any]
        #expect(decoded?["domain"] as? String == "good2.aasa.test" && decoded?["verdict"] as? String == "pass")
        #expect(outcome.read?["aasa-audit://domains/missing.aasa.test"]?.exception?.contains("did not audit") == true)
        #expect(outcome.read?["aasa-audit://nothing"]?.exception?.contains("No resource") == true)
        #expect(listed.stdout.contains("missing.aasa.test"), "\(listed.stdout)")
    }

    /// A batch of 1,000 domains: a progress notification per domain with the total, every
    /// domain's verdict; a larger batch is refused.
    @Test(arguments: Transport.allCases) func aThousandDomainsReportProgress(over transport: Transport) async throws {
        let world = try TestWorld()
        let thousand = (1...1000).map { "good\($0).aasa.test" }
        let outcome = try await drive(
            world, over: transport,
            calls: [
                ("thousand", "audit_domains", ["domains": thousand]),
                ("tooMany", "audit_domains", ["domains": thousand + ["good1001.aasa.test"]]),
            ])
        let summary = try #require(outcome.calls["thousand"]?.structured?["summary"])
        #expect(summary["domains"] == .number(1000) && summary["pass"] == .number(1000), "\(summary)")
        #expect(outcome.calls["thousand"]?.valid == true, "\(outcome.calls["thousand"]?.invalid ?? "")")
        let thousandProgress = outcome.progress.filter { $0.count > 1 && $0[1] == .number(1000) }
        #expect(thousandProgress.count == 1000 && thousandProgress.last?.first == .number(1000))
        #expect(outcome.calls["tooMany"]?.isError == true, "\(outcome.calls["tooMany"].map { "\($0)" } ?? "")")
    }

    /// A batch the client cancels stops: the stuck hosts' connections (which only the 120 s
    /// deadline would end) close while the client still waits, and the server answers the next
    /// call.
    @Test(arguments: Transport.allCases) func aCancelledBatchStops(over transport: Transport) async throws {
        let world = try TestWorld()
        let silent = try FaultServer(
            identity: try world.pki.issueServerIdentity(for: ["*.aasa.test"]), fault: .respond { _, _ in .never })
        defer { silent.shutdown() }
        let stuck = (1...12).map { "a-stuck-host-number-\($0).aasa.test" }
        let closed = ClosedWhileRunning()
        let outcome = try await drive(
            world, over: transport,
            extraArguments: stuck.flatMap { ["--connect-to", silent.connectTo($0)] } + ["--timeout", "120"],
            calls: [
                ("cancelled", "audit_domains", ["domains": (1...3).map { "good\($0).aasa.test" } + stuck]),
                ("after", "explain_finding", ["code": "cdn.stale"]),
            ], cancel: ("cancelled", 3)
        ) { running in
            // The stuck hosts connected, then (cancelled) their connections closed while the
            // client waits after its cancel (it goes on once this returns).
            // (At most --per-address of them at once: the rest wait for a place.)
            for _ in 0..<1200 where running.isRunning && silent.connectionCount == 0 {
                try? await Task.sleep(for: .milliseconds(100))
            }
            let connected = silent.connectionCount
            for _ in 0..<1200 where running.isRunning && silent.openConnections > 0 {
                try? await Task.sleep(for: .milliseconds(100))
            }
            closed.record(connected: connected, closedWhileRunning: running.isRunning && silent.openConnections == 0)
        }
        #expect(outcome.calls["cancelled"]?.cancelled == true)
        #expect(
            closed.connected > 0, "the stuck hosts were reached: \(silent.connectionCount) accepted, \(outcome.calls)")
        #expect(closed.closedWhileRunning, "the cancelled batch's fetches ended")
        #expect(outcome.calls["after"]?.structured?["code"] == .string("cdn.stale"), "the server went on")
    }

    /// Standard input as a hostile client writes it: a line that is not JSON and one over the
    /// bound each get a JSON-RPC error with id null, and the server goes on; standard output holds
    /// protocol messages only; closing standard input ends the server, with status 0.
    @Test func garbageAndOversizedLinesAreRefusedAndAClosedInputEndsIt() async throws {
        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            "this is not JSON",
        ]
        let after =
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"explain_finding","arguments":{"code":"cdn.stale"}}}"#
        let shell = """
            { printf '%s\n' '\(requests.joined(separator: "' '"))'; head -c 5000000 /dev/zero | tr '\\0' x; echo; \
              printf '%s\n' '\(after)'; sleep 2; } | '\(Self.binary.path)' mcp
            """
        let result = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", shell])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        let messages = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(
            messages.count == lines.count && messages.allSatisfy { $0["jsonrpc"] as? String == "2.0" },
            "\(result.stdout.prefix(2000))")
        let errors = messages.compactMap { $0["error"] as? [String: Any] }
        #expect(errors.map { $0["code"] as? Int } == [-32700, -32600], "\(errors)")
        #expect(messages.filter { $0["error"] != nil }.allSatisfy { $0["id"] is NSNull })
        #expect(messages.contains { ($0["id"] as? Int) == 2 && $0["result"] != nil }, "it went on after them")
    }
}

/// A JSON value as the client printed it, for the test's reading.
enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    var array: [JSONValue]? {
        if case .array(let array) = self { array } else { nil }
    }

    var description: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .number(let number): "\(number)"
        case .bool(let flag): "\(flag)"
        case .null: "null"
        case .array(let array): "[\(array.map(\.description).joined(separator: ", "))]"
        case .object(let object): "{\(object.map { "\($0.key): \($0.value)" }.sorted().joined(separator: ", "))}"
        }
    }
}

/// What the watcher of a cancelled batch saw.
final class ClosedWhileRunning: @unchecked Sendable {
    private let lock = NSLock()
    private var values = (connected: 0, closedWhileRunning: false)
    func record(connected: Int, closedWhileRunning: Bool) {
        lock.withLock { values = (connected, closedWhileRunning) }
    }
    var connected: Int { lock.withLock { values.connected } }
    var closedWhileRunning: Bool { lock.withLock { values.closedWhileRunning } }
}
