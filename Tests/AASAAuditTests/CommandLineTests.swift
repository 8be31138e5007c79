import AASAAudit
import AASAFetch
import AASAModel
import AASAReport
import AASAServe
import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// The built `aasa-audit` binary, run as a user runs it.
@Suite(.live, .tags(.live)) struct CommandLineTests {
    public static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("aasa-audit")

    func run(_ arguments: [String], in directory: URL) async throws -> ProcessRunner.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        return try await ProcessRunner.run(Self.binary, arguments, in: directory, environment: environment)
    }

    func fetchArguments(_ world: TestWorld) -> [String] {
        ["--connect-to", world.connectTo, "--cacert", world.caFile, "--timeout", "5", "--no-cdn"]
            + LoopbackNetworks.allowArguments
    }

    /// Apple's CDN out of this machine's reach (here: a refused port) fails no domain; the run
    /// says so first and exits 3, and its origin verdicts stand: it is latest.* and what the next
    /// run is compared with. A later run's summary starts with what changed.
    /// Every option a message names (`OptionName`) is an option of the program, as its parser
    /// describes it: a renamed option whose case was left behind is found here.
    @Test func everyOptionAMessageNamesIsAnOptionOfTheProgram() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dump = try await run(["--experimental-dump-help"], in: directory.url)
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any], "\(dump.stderr)")
        var longNames: Set<String> = []
        func collect(_ command: [String: Any]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                    (name["name"] as? String).map { _ = longNames.insert($0) }
                }
            }
            (command["subcommands"] as? [[String: Any]] ?? []).forEach(collect)
        }
        collect(try #require(root["command"] as? [String: Any]))
        #expect(longNames.count > 50, "\(longNames)")
        for option in OptionName.allCases.map(\.rawValue) + AndroidOption.allCases.map(\.rawValue) {
            #expect(longNames.contains(option), "--\(option) is no option of aasa-audit")
        }
        for kind in AssociationKinds.all { #expect(longNames.contains(kind.word), "--\(kind.word)") }
    }

    @Test func theMachinesOwnFailuresAreNotTheSitesAndChangesComeFirst() async throws {
        let world = try TestWorld()
        try "good.aasa.test \(TestWorld.appID)\ngood2.aasa.test\n".write(
            to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        // curl takes the first --connect-to that matches: the CDN's host goes to a refused port.
        let refusedCDN = "cdn.aasa.test:443:127.0.0.1:\(try LoopbackServer.unusedPort())"
        let arguments =
            [
                "audit", "--connect-to", refusedCDN, "--connect-to", world.connectTo, "--cacert", world.caFile,
                "--timeout", "5",
                "--cdn-url", "https://cdn.aasa.test/a/v1/",
            ] + LoopbackNetworks.allowArguments
        let first = try await run(arguments, in: world.directory.url)
        #expect(first.status == 3, "\(first.stdout)\(first.stderr)")
        #expect(
            first.stdout.hasPrefix(
                "Partly checked: Apple's CDN could not be reached from this machine for 2 of 2 domains"),
            "\(first.stdout)")
        #expect(first.stdout.contains("2 pass, 0 warn, 0 fail"))
        let latest = try String(
            contentsOf: world.directory.url.appendingPathComponent("reports/latest.json"), encoding: .utf8)
        #expect(latest.contains(#""partlyChecked":["Apple's CDN could not be reached"#), "latest.* take it")

        // Its origin verdicts are sound: the next run is compared with it.
        let sound = try await run(["audit"] + fetchArguments(world), in: world.directory.url)
        #expect(sound.status == 0)
        #expect(sound.stdout.hasPrefix("No changes since the last run."), "\(sound.stdout)")

        try "good.aasa.test \(TestWorld.appID)\nmissing.aasa.test\n".write(
            to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let second = try await run(["audit"] + fetchArguments(world), in: world.directory.url)
        #expect(second.status == 1)
        #expect(second.stdout.hasPrefix("Since the last run:\n"), "\(second.stdout)")
        #expect(second.stdout.contains("New domains: missing.aasa.test"))
        #expect(second.stdout.contains("No longer audited: good2.aasa.test"))
    }

    /// `--quiet`: a first run, and a run with a change or a failure, print their summary; a
    /// night on which every domain passes and nothing changed prints nothing at all.
    @Test func quietNightsPrintNothing() async throws {
        let world = try TestWorld()
        let domains = world.directory.url.appendingPathComponent("domains.txt")
        try "good.aasa.test \(TestWorld.appID)\n".write(to: domains, atomically: true, encoding: .utf8)
        let arguments = ["audit", "--quiet"] + fetchArguments(world)
        let first = try await run(arguments, in: world.directory.url)
        #expect(first.status == 0)
        #expect(first.stdout.contains("1 pass, 0 warn, 0 fail"), "a first run is news: \(first.stdout)")
        let quiet = try await run(arguments, in: world.directory.url)
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)\(quiet.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: world.directory.url.appendingPathComponent("reports").path
            )
            .filter { $0.hasPrefix("20") }.count == 2, "the quiet run still wrote its reports")
        try "good.aasa.test \(TestWorld.appID)\nmissing.aasa.test\n".write(
            to: domains, atomically: true, encoding: .utf8)
        let failing = try await run(arguments, in: world.directory.url)
        #expect(failing.status == 1)
        #expect(failing.stdout.hasPrefix("Since the last run:"), "\(failing.stdout)")
        // A failure that did not change is still printed: only passing, unchanged nights are quiet.
        let again = try await run(arguments, in: world.directory.url)
        #expect(again.stdout.contains("No changes since the last run"), "\(again.stdout)")
    }

    @Test func checkTakesSeveralDomainsAndPastedForms() async throws {
        let world = try TestWorld()
        let result = try await run(
            ["check", "applinks:good.aasa.test", "https://redirect.aasa.test/some/page", "--app-id", TestWorld.appID]
                + fetchArguments(world), in: world.directory.url)
        #expect(result.status == 1, "the redirecting domain fails")
        #expect(result.stdout.hasPrefix("good.aasa.test  PASS"), "\(result.stdout)")
        #expect(result.stdout.contains("\nredirect.aasa.test  FAIL"))
        #expect(
            result.stderr.contains(
                "note: \"applinks:good.aasa.test\" is an entitlement entry; audited as its host good.aasa.test"))
        #expect(
            result.stderr.contains(
                "note: \"https://redirect.aasa.test/some/page\" is a URL; audited as its host redirect.aasa.test."))
    }

    /// `check --ios none`: an Android-only domain passes on demand as it does every night (issue
    /// 47, item 2), and the terminal says which platform the verdict is for.
    @Test func checkTakesAnAndroidOnlyDomain() async throws {
        let world = try TestWorld()
        let arguments = ["check", "android.aasa.test", "--android", TestWorld.androidPackage] + fetchArguments(world)
        let androidOnly = try await run(arguments + ["--ios", "none"], in: world.directory.url)
        #expect(androidOnly.status == 0, "\(androidOnly.stdout)\(androidOnly.stderr)")
        #expect(androidOnly.stdout.hasPrefix("android.aasa.test  PASS"), "\(androidOnly.stdout)")
        #expect(!world.server.requests.contains { $0.path.contains("apple-app-site-association") })
        #expect(androidOnly.stdout.contains("\n  iOS "), "\(androidOnly.stdout)")
        let expecting = try await run(arguments, in: world.directory.url)
        #expect(expecting.status == 1, "without --ios none the missing AASA fails it")
        // Every row's value in one column, however long its label (issue 47, item 6).
        for output in [androidOnly.stdout, expecting.stdout] {
            let rows = output.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
                .prefix { !$0.isEmpty }
            let columns = Set(rows.map(Self.valueColumn))
            #expect(rows.count >= 3 && columns.count == 1, "\(output)")
        }
    }

    /// Passkeys' related origins from the command line: `check --origin` audits the domain's
    /// webauthn file, `lint` knows one by its name, `schema webauthn` prints its schema.
    @Test func checkAndLintTakeRelatedOrigins() async throws {
        let world = try TestWorld()
        let arguments = ["check", "passkeys.aasa.test", "--app-id", TestWorld.appID] + fetchArguments(world)
        let allowed = try await run(arguments + ["--origin", "https://shop.example"], in: world.directory.url)
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        #expect(
            allowed.stdout.contains("Origins") && allowed.stdout.contains("https://example.co.uk"), "\(allowed.stdout)")
        let refused = try await run(arguments + ["--origin", "https://checkout.example"], in: world.directory.url)
        #expect(refused.status == 1 && refused.stdout.contains("webauthn.origin-missing"), "\(refused.stdout)")
        let bad = try await run(arguments + ["--origin", "shop.example"], in: world.directory.url)
        #expect(bad.status == 2 && bad.stderr.contains("\"shop.example\" is not an https origin"), "\(bad.stderr)")

        let file = world.directory.url.appendingPathComponent("webauthn")
        try #"{"origins": ["example.co.uk", "https://shop.example"]}"#.write(
            to: file, atomically: true, encoding: .utf8)
        let lint = try await run(["lint", file.path, "--origin", "https://shop.example"], in: world.directory.url)
        #expect(lint.status == 0 && lint.stdout.contains("webauthn.entry-skipped"), "\(lint.stdout)\(lint.stderr)")
        let schema = try await run(["schema", "webauthn"], in: world.directory.url)
        #expect(schema.status == 0 && schema.stdout.contains("\"origins\""), "\(schema.stderr)")

        // --passkeys: the endpoints file and its pages; lint knows the file by its name.
        let passkeys = try await run(arguments + ["--passkeys"], in: world.directory.url)
        #expect(
            passkeys.stdout.contains("Passkey endpoints") && passkeys.stdout.contains("passkey-endpoints.unreachable"),
            "\(passkeys.stdout)")
        let endpoints = world.directory.url.appendingPathComponent("passkey-endpoints")
        try #"{"enroll": "/new"}"#.write(to: endpoints, atomically: true, encoding: .utf8)
        let lintEndpoints = try await run(["lint", endpoints.path], in: world.directory.url)
        #expect(
            lintEndpoints.status == 1 && lintEndpoints.stdout.contains("passkey-endpoints.url"),
            "\(lintEndpoints.stdout)")
    }

    /// A nightly audit of domains.txt lines written the way a team declares passkeys
    /// (`APPID android:PACKAGE passkeys`, and a passkeys-only app as `webcredentials:APPID`):
    /// the good site passes, the one that forgot webcredentials and get_login_creds fails with
    /// both named, and the metrics say which file of it fails.
    @Test func passkeysDeclaredInDomainsTxtAreAuditedAcrossFiles() async throws {
        let world = try TestWorld()
        let app = TestWorld.appID
        let input = """
            passkeysapp.aasa.test   \(app) android:\(TestWorld.androidPackage) passkeys
            passkeysweb.aasa.test   \(app) android:\(TestWorld.androidPackage) passkeys
            passkeysapp1.aasa.test  webcredentials:\(app)
            """
        try input.write(
            to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let metrics = world.directory.url.appendingPathComponent("audit.prom")
        let result = try await run(
            ["audit", "--metrics", metrics.path] + fetchArguments(world), in: world.directory.url)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let latest = world.directory.url.appendingPathComponent("reports/latest.json")
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: latest))
        let verdicts = Dictionary(uniqueKeysWithValues: report.domains.map { ($0.domain, $0.verdict) })
        #expect(
            verdicts == [
                "passkeysapp.aasa.test": .pass, "passkeysweb.aasa.test": .fail, "passkeysapp1.aasa.test": .pass,
            ])
        let web = try #require(report.domains.first { $0.domain == "passkeysweb.aasa.test" })
        #expect(
            Set(web.findings.filter { $0.severity == .error }.map(\.code)) == [
                .aasa(.serviceMissing), .assetLinks(.loginCreds),
            ])
        let prom = try String(contentsOf: metrics, encoding: .utf8)
        #expect(
            prom.contains(
                #"aasa_audit_domain_file_verdict{domain="passkeysweb.aasa.test",file="assetlinks",verdict="fail"} 1"#),
            "\(prom)")
        #expect(
            prom.contains(
                #"aasa_audit_domain_file_verdict{domain="passkeysapp.aasa.test",file="passkey-endpoints",verdict="pass"} 1"#
            ))
    }

    /// A Windows-only and a HarmonyOS-only domain in a nightly audit, as a team lists them
    /// (`ios:none windows:PFN`, `ios:none harmony:ID`): the good ones pass without an AASA, the
    /// broken ones fail with their kind's codes, the next run hears what changed, and the
    /// metrics say which file fails. `check` from outside agrees; `match --windows` and `lint`
    /// read the files by name.
    @Test func windowsAndHarmonyOSDomainsAreAuditedNightly() async throws {
        let world = try TestWorld()
        let domains = world.directory.url.appendingPathComponent("domains.txt")
        try """
        windows.aasa.test       ios:none windows:\(TestWorld.windowsApp)
        harmony.aasa.test       ios:none harmony:\(TestWorld.harmonyApp)
        harmonyblog.aasa.test   ios:none harmony:\(TestWorld.harmonyApp)
        """.write(to: domains, atomically: true, encoding: .utf8)
        let metrics = world.directory.url.appendingPathComponent("audit.prom")
        let first = try await run(
            ["audit", "--metrics", metrics.path] + fetchArguments(world), in: world.directory.url)
        #expect(first.status == 1, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("FAIL harmonyblog.aasa.test  harmony.shape  new in this run"), "\(first.stdout)")
        let latest = world.directory.url.appendingPathComponent("reports/latest.json")
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: latest))
        #expect(report.domains.map(\.verdict) == [.pass, .pass, .fail])
        #expect(report.domains[0].associations.windows?.entries.first?.packageFamilyName == TestWorld.windowsApp)
        let prom = try String(contentsOf: metrics, encoding: .utf8)
        #expect(
            prom.contains(
                #"aasa_audit_domain_file_verdict{domain="harmonyblog.aasa.test",file="harmony",verdict="fail"} 1"#))
        #expect(!prom.contains(#"domain="windows.aasa.test",file="aasa""#), "no AASA for ios:none")

        // The next night: the Windows site breaks (its list names another app), and is heard.
        try """
        windows.aasa.test       ios:none windows:Contoso.App_8wekyb3d8bbwe
        harmony.aasa.test       ios:none harmony:\(TestWorld.harmonyApp)
        harmonyblog.aasa.test   ios:none harmony:\(TestWorld.harmonyApp)
        """.write(to: domains, atomically: true, encoding: .utf8)
        let second = try await run(["audit"] + fetchArguments(world), in: world.directory.url)
        #expect(
            second.stdout.contains("FAIL windows.aasa.test  windows.app-missing  new in this run"), "\(second.stdout)")
        #expect(!second.stdout.contains("harmonyblog.aasa.test  harmony.shape  new in this run"))

        // check from outside says what the audit said.
        let check = try await run(
            ["check", "harmonyblog.aasa.test", "--ios", "none", "--harmony", TestWorld.harmonyApp, "--json"]
                + fetchArguments(world), in: world.directory.url)
        #expect(check.status == 1 && check.stdout.contains("harmony.shape"), "\(check.stdout)\(check.stderr)")
        let badName = try await run(["check", "windows.aasa.test", "--windows", "MyApp"], in: world.directory.url)
        #expect(badName.status == 2 && badName.stderr.contains("no publisher ID"), "\(badName.stderr)")

        // match --windows on the live file, and lint by the files' names.
        let match = try await run(
            [
                "match", "windows.aasa.test", "--windows", TestWorld.windowsApp, "--json",
                "https://windows.aasa.test/shop/1", "https://windows.aasa.test/news/today", "--connect-to",
                world.connectTo, "--cacert", world.caFile,
            ] + LoopbackNetworks.allowArguments,
            in: world.directory.url)
        #expect(
            match.stdout.contains(#""result" : "app""#) && match.stdout.contains(#""result" : "excluded""#),
            "\(match.stdout)\(match.stderr)")
        let windowsFile = world.directory.url.appendingPathComponent("windows-app-web-link")
        try #"{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["*"]}"#.write(
            to: windowsFile, atomically: true, encoding: .utf8)
        let lintWindows = try await run(["lint", windowsFile.path], in: world.directory.url)
        #expect(lintWindows.status == 1 && lintWindows.stdout.contains("windows.not-list"), "\(lintWindows.stdout)")
        let harmonyFile = world.directory.url.appendingPathComponent("applinking.json")
        try TestWorld.harmonyFile.write(to: harmonyFile, atomically: true, encoding: .utf8)
        let lintHarmony = try await run(["lint", harmonyFile.path, "--harmony", "42"], in: world.directory.url)
        #expect(lintHarmony.status == 1 && lintHarmony.stdout.contains("harmony.app-missing"), "\(lintHarmony.stdout)")
    }

    /// `check webcredentials:HOST --app-id ID` judges the app in webcredentials only (the
    /// entitlement entry names its service), never as applinks; `lint` knows a single
    /// assetlinks statement by its content (`assetlinks.not-list`), and `--kind` decides.
    @Test func anEntitlementEntrysServiceAndLintsKindDecide() async throws {
        let world = try TestWorld()
        let fetch = fetchArguments(world)
        let right = try await run(
            ["check", "webcredentials:passkeysapp.aasa.test", "--app-id", TestWorld.appID] + fetch,
            in: world.directory.url)
        #expect(right.status == 0, "\(right.stdout)\(right.stderr)")
        let wrong = try await run(
            ["check", "webcredentials:passkeysweb.aasa.test", "--app-id", TestWorld.appID, "--json"] + fetch,
            in: world.directory.url)
        #expect(wrong.status == 1)
        #expect(wrong.stdout.contains("service.missing") && !wrong.stdout.contains("appid.missing"), "\(wrong.stdout)")
        #expect(wrong.stdout.contains("\"webcredentials:\(TestWorld.appID)\""), "the record keeps the service")

        let statement = world.directory.url.appendingPathComponent("statement.json")
        try
            #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": []}}"#
            .write(to: statement, atomically: true, encoding: .utf8)
        let byContent = try await run(["lint", statement.path], in: world.directory.url)
        #expect(byContent.status == 1 && byContent.stdout.contains("assetlinks.not-list"), "\(byContent.stdout)")
        #expect(!byContent.stdout.contains("applinks.missing"))
        let asAASA = try await run(["lint", "--kind", "aasa", statement.path], in: world.directory.url)
        #expect(asAASA.stdout.contains("applinks.missing"), "\(asAASA.stdout)")
        let file = world.directory.url.appendingPathComponent("apple-app-site-association")
        try TestWorld.webauthnFile.write(to: file, atomically: true, encoding: .utf8)
        let asWebAuthn = try await run(["lint", "--kind", "webauthn", file.path], in: world.directory.url)
        #expect(asWebAuthn.status == 0 && !asWebAuthn.stdout.contains("applinks"), "\(asWebAuthn.stdout)")
        let unknown = try await run(["lint", "--kind", "symbian", file.path], in: world.directory.url)
        #expect(unknown.status == 2 && unknown.stderr.contains("--kind takes aasa, assetlinks"), "\(unknown.stderr)")
    }

    /// Help that the code owns (issue 50, item 2): `--timeout` is a domain's deadline, not a
    /// transfer's; `--token-file` names every route the token guards (`Route.tokenScope`).
    @Test func helpSaysWhatTheCodeDoes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        func help(_ command: String) async throws -> String {
            let result = try await run([command, "--help"], in: directory.url)
            return result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let check = try await help("check")
        #expect(check.contains("Seconds a domain's fetches may take together, from its first request"), "\(check)")
        #expect(!check.contains("each transfer"))
        let serve = try await help("serve")
        #expect(serve.contains(Route.tokenScope), "\(serve)")
        // Each option's default is its settings type's (issue 50, item 2): the help shows it.
        for shown in [
            FetcherConfiguration.defaultTimeoutSeconds, FetcherConfiguration.defaultConnectTimeoutSeconds,
            PolitenessLimits.defaultLookupsPerSecond,
        ] {
            #expect(check.contains("(default: \(shown))"), "\(shown)")
        }
        #expect(check.contains("(default: \(PolitenessLimits.defaultConnectionsPerAddress))"))
        #expect(serve.contains("(default: \(ServeSettings.defaultMaximumChecks))"))
        #expect(serve.contains("(default: \(Int(ServeSettings.defaultChecksPerMinute)))"))
        #expect(serve.contains("(default: \(ServeSettings.defaultDrainSeconds))"))
        let audit = try await help("audit")
        #expect(audit.contains("(default: \(AuditSettings.defaultConcurrency))"))
        // And each bound is the settings type's, in the refusal.
        let tooLong = try await run(["check", "example.com", "--timeout", "601"], in: directory.url)
        #expect(tooLong.status == 2 && tooLong.stderr.contains("between 0.001 and 600 seconds"), "\(tooLong.stderr)")
        let tooMany = try await run(["serve", "--max-checks", "0"], in: directory.url)
        #expect(tooMany.status == 2 && tooMany.stderr.contains("from 1 to 1000"), "\(tooMany.stderr)")
    }

    /// Where a record row's value starts: past its label and the run of two or more spaces.
    static func valueColumn(_ row: Substring) -> Int {
        let text = Array(row)
        var index = 2
        while index + 1 < text.count, !(text[index] == " " && text[index + 1] == " ") { index += 1 }
        while index < text.count, text[index] == " " { index += 1 }
        return index
    }

    @Test func explainForgivesCaseAndTakesPrefixes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let exact = try await run(["explain", "JSON.INVALID"], in: directory.url)
        #expect(exact.status == 0 && exact.stdout.hasPrefix("json.invalid (error)"))
        let family = try await run(["explain", "json", "--codes"], in: directory.url)
        #expect(family.stdout == "json.invalid\njson.not-object\njson.duplicate-key\n", "\(family.stdout)")
    }

    /// lint as a CI step: expected app IDs, one line per finding with its position, GitHub
    /// annotations, positions in the JSON, a closing count.
    @Test func lintSpeaksCI() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try "{\n  \"applinks\": {\"details\": [],}\n}".write(
            to: directory.url.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        try TestWorld.validFile.write(
            to: directory.url.appendingPathComponent("good.json"), atomically: true, encoding: .utf8)
        let compact = try await run(
            [
                "lint", "bad.json", "good.json", "--format", "compact", "--app-id", TestWorld.appID, "--app-id",
                "ABCDE12346.com.example.other",
            ], in: directory.url)
        #expect(compact.status == 1)
        #expect(
            compact.stdout.contains("bad.json:2:30: error: json.invalid: Not valid JSON: a trailing comma"),
            "\(compact.stdout)")
        #expect(
            compact.stdout.contains(
                "good.json: error: appid.missing: The expected app ID ABCDE12346.com.example.other is not in the file's applinks section."
            ))
        #expect(compact.stdout.hasSuffix("2 files: 0 pass, 0 warn, 2 fail\n"))
        let github = try await run(["lint", "bad.json", "--format", "github"], in: directory.url)
        #expect(
            github.stdout.hasPrefix("::error file=bad.json,line=2,col=30,title=json.invalid::Not valid JSON"),
            "\(github.stdout)")
        let finding = try await firstLintFinding("bad.json", in: directory)
        #expect(finding["line"] as? Int == 2 && finding["column"] as? Int == 30)
        #expect(finding["docs"] as? String == "docs/findings.md#json.invalid")
    }

    /// The first finding of `lint FILE --json`, as a dictionary.
    func firstLintFinding(_ file: String, in directory: TemporaryDirectory) async throws -> [String: Any] {
        let json = try await run(["lint", file, "--json"], in: directory.url)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        return try #require((records.first?["findings"] as? [[String: Any]])?.first)
    }

    /// A finding about a place in a pretty-printed file is annotated on its line, in every
    /// format: an unknown key on line 7.
    @Test func findingsCarryTheirPlaceInTheFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = """
            {
              "applinks": {
                "details": [
                  {
                    "appIDs": ["\(TestWorld.appID)"],
                    "components": [
                      {"pth": "/buy/*", "/": "/x/*"}
                    ]
                  }
                ]
              }
            }
            """
        try file.write(to: directory.url.appendingPathComponent("aasa.json"), atomically: true, encoding: .utf8)
        let compact = try await run(["lint", "aasa.json", "--format", "compact"], in: directory.url)
        #expect(compact.stdout.contains("aasa.json:7:19: warning: component.unknown-key: "), "\(compact.stdout)")
        let github = try await run(["lint", "aasa.json", "--format", "github"], in: directory.url)
        #expect(
            github.stdout.hasPrefix("::warning file=aasa.json,line=7,col=19,title=component.unknown-key::"),
            "\(github.stdout)")
        let finding = try await firstLintFinding("aasa.json", in: directory)
        #expect(finding["pointer"] as? String == "/applinks/details/0/components/0/pth")
        #expect(finding["line"] as? Int == 7 && finding["column"] as? Int == 19)
        let text = try await run(["lint", "aasa.json"], in: directory.url)
        #expect(text.stdout.contains("component.unknown-key (file, line 7, column 19)"), "\(text.stdout)")

        // SARIF 2.1.0: one rule per code, the result at its region, pointing at its rule.
        let sarif = try await run(["lint", "aasa.json", "--format", "sarif"], in: directory.url)
        #expect(sarif.status == 0, "\(sarif.stderr)")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        let runs = try #require(log["runs"] as? [[String: Any]])
        let driver = try #require((runs.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "aasa-audit")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == FindingCode.allCases.map(\.rawValue))
        #expect(rules.allSatisfy { (($0["help"] as? [String: Any])?["text"] as? String)?.hasPrefix("Fix: ") == true })
        // Each rule links its entry of docs/findings.md, an anchor the page has.
        let findingsPage = try String(contentsOf: Repository.file("docs/findings.md"), encoding: .utf8)
        for rule in rules {
            let id = try #require(rule["id"] as? String)
            #expect(rule["helpUri"] as? String == ToolInfo.documentation("docs/findings.md#\(id)"))
            #expect(findingsPage.contains("<a id=\"\(id)\">"), "docs/findings.md has no anchor \(id)")
        }
        #expect(driver["informationUri"] as? String == ToolInfo.homepage)
        let result = try #require((runs.first?["results"] as? [[String: Any]])?.first)
        #expect(result["ruleId"] as? String == "component.unknown-key" && result["level"] as? String == "warning")
        let index = try #require(result["ruleIndex"] as? Int)
        #expect(rules[index]["id"] as? String == "component.unknown-key")
        let location = try #require((result["locations"] as? [[String: Any]])?.first)
        let physical = try #require(location["physicalLocation"] as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "aasa.json")
        let region = try #require(physical["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 7 && region["startColumn"] as? Int == 19)
        #expect(
            (location["logicalLocations"] as? [[String: Any]])?.first?["fullyQualifiedName"] as? String
                == "/applinks/details/0/components/0/pth")
    }

    /// A malformed app ID is placed in the file like every other finding: its line and column in
    /// compact, github and SARIF, its pointer in JSON (issue 35, item 10).
    @Test func aMalformedAppIDIsPlacedInTheFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = """
            {"applinks": {"details": [
              {"appIDs": ["\(TestWorld.appID)", "TEAMID.com.example.app"], "components": [{"/": "/a"}]}]},
             "webcredentials": {"apps": ["YOUR_TEAM_ID.com.example.app"]}}
            """
        try file.write(to: directory.url.appendingPathComponent("aasa.json"), atomically: true, encoding: .utf8)
        let compact = try await run(["lint", "aasa.json", "--format", "compact"], in: directory.url)
        #expect(compact.stdout.contains("aasa.json:2:45: error: appid.malformed: applinks.details[0].appIDs[1]: "))
        #expect(compact.stdout.contains("aasa.json:3:30: error: appid.malformed: webcredentials.apps[0]: "))
        let github = try await run(["lint", "aasa.json", "--format", "github"], in: directory.url)
        #expect(
            github.stdout.hasPrefix("::error file=aasa.json,line=2,col=45,title=appid.malformed::"), "\(github.stdout)")
        let sarif = try await run(["lint", "aasa.json", "--format", "sarif"], in: directory.url)
        #expect(
            sarif.stdout.contains(#""startLine" : 2"#) || sarif.stdout.contains(#""startLine":2"#), "\(sarif.stdout)")
        let finding = try await firstLintFinding("aasa.json", in: directory)
        #expect(finding["pointer"] as? String == "/applinks/details/0/appIDs/1")
    }

    /// A file's kind from its name or --android when they say so, from its content only when
    /// nothing does: a broken assetlinks.json gets Android's codes, not the AASA's (issue 37).
    @Test func lintKnowsAFilesKindByItsNameOrTheOption() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let files = ["assetlinks.json": "[]", "one.json": #"{"relation": [], "target": {}}"#, "broken.json": "{bad"]
        for (name, text) in files {
            try text.write(to: directory.url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let byName = try await run(["lint", "assetlinks.json", "--format", "compact"], in: directory.url)
        #expect(byName.stdout.contains("error: assetlinks.not-list:") && !byName.stdout.contains("json.not-object"))
        let byOption = try await run(
            ["lint", "one.json", "broken.json", "--android", "com.example.app", "--format", "compact"],
            in: directory.url)
        #expect(byOption.stdout.contains("one.json: error: assetlinks.not-list:"), "\(byOption.stdout)")
        #expect(byOption.stdout.contains("broken.json:1:2: error: assetlinks.json-invalid:"), "\(byOption.stdout)")
        #expect(!byOption.stdout.contains("applinks.missing") && !byOption.stdout.contains(" json.invalid"))
        // Android's reasons in Android's words: a byte-order mark is Google's parser's refusal.
        try ("\u{FEFF}[]").write(
            to: directory.url.appendingPathComponent("assetlinks.json"), atomically: true, encoding: .utf8)
        let bom = try await run(["lint", "assetlinks.json", "--format", "compact"], in: directory.url)
        #expect(bom.stdout.contains("which Google's parser rejects") && !bom.stdout.contains("iOS"), "\(bom.stdout)")
    }

    @Test func aDashReadsStandardInput() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "printf '%s' '\(TestWorld.validFile)' | '\(Self.binary.path)' lint -"], in: directory.url)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("-  PASS"))
    }

    @Test func theBinaryWasBuilt() {
        #expect(
            FileManager.default.isExecutableFile(atPath: Self.binary.path),
            "expected the aasa-audit binary at \(Self.binary.path)")
    }

    @Test func auditExitsOneWhenADomainFailsAndWritesTheRunFolder() async throws {
        let world = try TestWorld()
        let input = """
            # test domains
            good.aasa.test \(TestWorld.appID)
            missing.aasa.test
            bad.example:8443
            """
        try input.write(
            to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let result = try await run(["audit"] + fetchArguments(world), in: world.directory.url)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("Audited 2 domains"))
        #expect(result.stdout.contains("1 pass, 0 warn, 1 fail"))
        #expect(result.stdout.contains("FAIL missing.aasa.test  http.status  new in this run\n"))
        #expect(result.stdout.contains("domains.txt:4: \"bad.example:8443\" names a port"))
        #expect(!result.stderr.contains("\r"), "no progress line when stderr is not a terminal")
        let latest = world.directory.url.appendingPathComponent("reports/latest.json")
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: latest))
        #expect(report.domains.map(\.domain) == ["good.aasa.test", "missing.aasa.test"])
        #expect(report.input.problems.map(\.line) == [4])
        #expect(report.run.options.inputFiles == ["domains.txt"])
    }

    @Test func auditExitsZeroWhenEveryDomainPassesAndFailOnWarningCountsWarnings() async throws {
        let world = try TestWorld()
        let file = world.directory.url.appendingPathComponent("list.txt")
        try "good.aasa.test\ntextplain.aasa.test\n".write(to: file, atomically: true, encoding: .utf8)
        let out = world.directory.url.appendingPathComponent("out").path
        let lenient = try await run(
            ["audit", "list.txt", "--out", out] + fetchArguments(world), in: world.directory.url)
        #expect(lenient.status == 0, "\(lenient.stdout)\(lenient.stderr)")
        #expect(lenient.stdout.contains("1 pass, 1 warn, 0 fail"))
        let strict = try await run(
            ["audit", "list.txt", "--out", out, "--fail-on", "warning"] + fetchArguments(world), in: world.directory.url
        )
        #expect(strict.status == 1)
        // The same verdicts with the transfers spread over two curl multi threads.
        let threaded = try await run(
            ["audit", "list.txt", "--out", out, "--fetch-threads", "2"] + fetchArguments(world), in: world.directory.url
        )
        #expect(threaded.status == 0, "\(threaded.stdout)\(threaded.stderr)")
        #expect(threaded.stdout.contains("1 pass, 1 warn, 0 fail"))
    }

    @Test(arguments: [
        (["audit", "no-such-file.txt"], "cannot read the domains file no-such-file.txt"),
        (["audit", "empty.txt"], "lists no domain"),
        (["audit", "ok.txt", "--out", "a-file/reports"], "cannot create the output directory"),
        (["audit", "ok.txt", "--junit", "no-such-dir/junit.xml"], "no-such-dir/junit.xml: No such file or directory"),
        (["audit", "ok.txt", "--metrics", "a-file/metrics.prom"], "a-file/metrics.prom: Not a directory"),
        (["audit", "ok.txt", "--stats", "no-such-dir/stats.json"], "cannot write --stats no-such-dir/stats.json"),
        (["audit", "ok.txt", "--cacert", "ok.txt"], "--cacert 'ok.txt' holds no PEM certificate"),
        (["audit", "ok.txt", "--cacert", "/dev/zero"], "is not a regular file"),
        // Option values are read at parse time, and the error says why (issue 39, item 5).
        (
            ["audit", "ok.txt", "--allow-network", "10.0.0.0/33"],
            "'--allow-network <cidr>': not an address or a network"
        ),
        (["serve", "--trusted-proxy", "proxy.local"], "'--trusted-proxy <address>': not an address"),
        (["serve", "--listen", "8080"], "'--listen <host:port>': give HOST:PORT"),
        (["serve", "--listen", "[::1]:70000"], "the port must be a number from 0 to 65535"),
        (["lint", "ok.txt", "--format", "xml"], "Please provide one of 'text', 'compact', 'github' or 'sarif'"),
        (["check", "example.com", "--severity", "cdn.stale=loud"], "'--severity <code=level>'"),
        (["check", "example.com", "--min-ios", "thirteen"], "not a version such as 12 or 13.5"),
        (["audit", "/dev/zero"], "cannot read the domains file /dev/zero: it is a device, not a regular file"),
        (["audit", "a-fifo"], "it is a FIFO, not a regular file"),
        (["lint", "a-fifo"], "it is a FIFO, not a regular file"),
        (["match", "--file", "a-fifo", "https://example.com/"], "it is a FIFO, not a regular file"),
        (["lint", "."], "it is a directory, not a regular file"),
        (["check", "example.com", "--android", "com.example.app@12:34"], "is not a SHA-256 certificate fingerprint"),
        (["check", "example.com", "--ios", "maybe"], "--ios takes none (the domain serves no AASA), not maybe."),
        (["check", "example.com", "--ios", "none", "--app-id", TestWorld.appID], "no AASA is asked for"),
        (["lint", "ok.txt", "--android", "nodots"], "is not an Android package name"),
        (["audit", "--concurrency", "0"], "--concurrency"),
        (["chek", "example.com"], "unknown command 'chek'; did you mean 'check'?"),
        (["audit", "--timeout", "-1"], "--timeout must be between 0.001 and 600"),
        (["audit", "--concurrency", "-5"], "--concurrency must be between 1 and 4096"),
        (
            ["check", "example.com", "--min-ios", "99"],
            "not an iOS version universal links know: give one from 8 to 30"
        ),
        (["check", "example.com", "--min-ios", "7.1"], "give one from 8 to 30"),
        (["audit", "--fetch-threads", "0"], "--fetch-threads"),
        (["audit", "--bogus"], "Unknown option"),
        (["check", "ftp://example.com"], "is a ftp URL"),
        (["check", "example.com", "--app-id", "TEAM_ID.x.y"], "placeholder"),
        (["check", "example.com", "--resolve", "nonsense"], "--resolve"),
        (["check", "example.com", "--timeout", "0.0009"], "--timeout must be between 0.001 and 600"),
        (["check", "example.com", "--connect-timeout", "0"], "--connect-timeout must be between"),
        (["explain", "no.such-code"], "unknown finding code"),
        (["explain", "content-type"], "Did you mean http.content-type"),
    ])
    func usageAndInputErrorsExitTwo(arguments: [String], message: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try "# nothing here\n\n".write(
            to: directory.url.appendingPathComponent("empty.txt"), atomically: true, encoding: .utf8)
        try "example.invalid\n".write(
            to: directory.url.appendingPathComponent("ok.txt"), atomically: true, encoding: .utf8)
        try Data().write(to: directory.url.appendingPathComponent("a-file"))
        // A FIFO nobody writes to: opening it must not wait for a writer.
        #expect(mkfifo(directory.url.appendingPathComponent("a-fifo").path, 0o600) == 0)
        let result = try await run(arguments, in: directory.url)
        #expect(result.status == 2, "\(arguments): \(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func checkPrintsAReadableVerdict() async throws {
        let world = try TestWorld()
        let failing = try await run(
            ["check", "Redirect.AASA.test.", "--app-id", TestWorld.appID] + fetchArguments(world),
            in: world.directory.url)
        #expect(failing.status == 1)
        #expect(failing.stdout.hasPrefix("redirect.aasa.test  FAIL"))
        #expect(failing.stdout.contains("301  → https://www.redirect.aasa.test/.well-known/apple-app-site-association"))
        #expect(failing.stdout.contains("Fix: "))
        #expect(!failing.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")

        let passing = try await run(
            ["check", "good.aasa.test", "--app-id", TestWorld.appID] + fetchArguments(world), in: world.directory.url)
        #expect(passing.status == 0)
        #expect(passing.stdout.contains("applinks: \(TestWorld.appID)"))
        #expect(passing.stdout.contains("No findings"))
    }

    /// Hundreds in flight need more sockets than a soft limit of 1,024 (or, here, 128) allows;
    /// the fetcher raises the soft limit towards the hard one instead of failing connections.
    @Test func aLowOpenFileLimitIsRaisedForTheDomainsInFlight() async throws {
        let world = try TestWorld()
        let hosts = (1...150).map { "good\($0).aasa.test" }
        try hosts.joined(separator: "\n").write(
            to: world.directory.url.appendingPathComponent("many.txt"), atomically: true, encoding: .utf8)
        let audit = ([Self.binary.path, "audit", "many.txt", "--concurrency", "150"] + fetchArguments(world)).map {
            "'\($0)'"
        }.joined(separator: " ")
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "ulimit -Sn 128 && exec \(audit)"], in: world.directory.url)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("150 pass, 0 warn, 0 fail"))
    }

    /// One shape whatever the number of domains: an array of the report's records.
    @Test func checkJSONIsTheReportRecord() async throws {
        let world = try TestWorld()
        let result = try await run(
            ["check", "otherapp.aasa.test", "--json", "--app-id", TestWorld.appID] + fetchArguments(world),
            in: world.directory.url)
        #expect(result.status == 1)
        let records = try JSONReport.makeDecoder().decode([DomainReport].self, from: Data(result.stdout.utf8))
        #expect(records.count == 1)
        let record = try #require(records.first)
        #expect(record.domain == "otherapp.aasa.test")
        #expect(record.findings.map(\.code) == [.aasa(.appIDMissing)])
        #expect(record.fetches.map(\.label) == [".well-known as Apple's bot", "root"])
    }

    /// `check HOST --json`'s record of the host.
    func checkRecord(_ host: String, in world: TestWorld) async throws -> DomainReport {
        let result = try await run(["check", host, "--json"] + fetchArguments(world), in: world.directory.url)
        return try #require(
            try JSONReport.makeDecoder().decode([DomainReport].self, from: Data(result.stdout.utf8)).first)
    }

    /// A file uploaded as apple-app-site-association.json: one more request, for failing
    /// domains only, lets the finding say "rename it".
    @Test func aFileUploadedWithDotJSONIsFound() async throws {
        let world = try TestWorld()
        let record = try await checkRecord("dotjson.aasa.test", in: world)
        let misnamed = try #require(record.findings.first { $0.code == .aasa(.locationMisnamed) })
        #expect(misnamed.causedBy == nil && misnamed.message.hasPrefix("Your file is there"))
        #expect(record.findings.first { $0.code == .aasa(.httpStatus) }?.causedBy?.code == .aasa(.locationMisnamed))
        #expect(record.fetches.map(\.label).contains("apple-app-site-association.json"))
        let probes = world.server.requests.filter { $0.path.hasSuffix(".json") }
        #expect(probes.count == 1)
        // A domain that passes, or that fails otherwise, is not asked.
        _ = try await run(
            ["check", "good.aasa.test", "textplain.aasa.test"] + fetchArguments(world), in: world.directory.url)
        #expect(world.server.requests.filter { $0.path.hasSuffix(".json") }.count == 1)
        let missing = try await run(
            ["check", "missing.aasa.test", "--json"] + fetchArguments(world), in: world.directory.url)
        #expect(!missing.stdout.contains("location.misnamed"))
        #expect(world.server.requests.filter { $0.path.hasSuffix(".json") }.count == 2)
    }

    /// A certificate that expires in ten days: a warning with its date (`--cert-warn-days`
    /// moves the window), and the date in the record, the history and the domain's timeline.
    @Test func anExpiringCertificateIsWarnedAndItsDateKept() async throws {
        let expires = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 86400 * 10).rounded(.down))
        let world = try TestWorld(certificateExpires: expires)
        let record = try await checkRecord("good.aasa.test", in: world)
        #expect(record.verdict == .warn)
        #expect(record.findings.map(\.code) == [.aasa(.tlsExpiring)])
        #expect(record.certificateExpires == expires)
        #expect(record.fetches.allSatisfy { $0.certificateExpires == expires })
        let narrower = try await run(
            ["check", "good.aasa.test", "--cert-warn-days", "9"] + fetchArguments(world), in: world.directory.url)
        #expect(narrower.status == 0 && narrower.stdout.contains("PASS"), "\(narrower.stdout)")
        let seconds = Int(expires.timeIntervalSince1970)
        #expect(
            narrower.stdout.split(separator: "\n").contains {
                $0.hasPrefix("  Certificate ")
                    && $0.hasSuffix(" expires \(UTCCalendar.date(seconds)) \(UTCCalendar.clock(seconds)) UTC")
            }, "\(narrower.stdout)")
        let wrong = try await run(["check", "good.aasa.test", "--cert-warn-days", "-1"], in: world.directory.url)
        #expect(wrong.status == 2 && wrong.stderr.contains("--cert-warn-days"), "\(wrong.stderr)")

        try "good.aasa.test\nmissing.aasa.test\n".write(
            to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let audit = try await run(["audit"] + fetchArguments(world), in: world.directory.url)
        #expect(audit.stdout.contains("tls.expiring"), "\(audit.stdout)")
        let day = UTCCalendar.date(Int(expires.timeIntervalSince1970))
        let history = try String(
            contentsOf: world.directory.url.appendingPathComponent("reports/history.json"), encoding: .utf8)
        // Both hosts are one server here: the same certificate, read on each one's connection.
        #expect(history.contains(#""certificateExpiry":{"\#(day)":[0,1]}"#), "\(history)")
        let timeline = try await run(["history", "good.aasa.test"], in: world.directory.url)
        #expect(timeline.stdout.contains("tls.expiring  (TLS certificate until \(day))"), "\(timeline.stdout)")
    }

    /// The platform is recognised from the answer, and the fix names its setting.
    @Test func checkNamesThePlatformAndItsFix() async throws {
        let world = try TestWorld()
        let record = try await checkRecord("sthree.aasa.test", in: world)
        #expect(record.platform == .amazonS3)
        let finding = try #require(record.findings.first { $0.code == .aasa(.httpContentType) })
        #expect(finding.platformFix?.platform == .amazonS3)
        #expect(finding.platformFix?.fix.contains("aws s3 cp") == true)
        let text = try await run(["check", "sthree.aasa.test"] + fetchArguments(world), in: world.directory.url)
        #expect(text.stdout.contains("          Fix on Amazon S3: S3 serves the Content-Type stored"), "\(text.stdout)")
        // Self-hosted: nginx by its Server header, Express by its X-Powered-By and error page.
        let nginx = try await checkRecord("nginxplain.aasa.test", in: world)
        #expect(nginx.platform == .nginx)
        #expect(
            nginx.findings.first { $0.code == .aasa(.httpContentType) }?.platformFix?.fix.contains(
                "default_type application/json")
                == true)
        let express = try await checkRecord("expressapp.aasa.test", in: world)
        #expect(express.platform == .express)
        #expect(
            express.findings.first { $0.code == .aasa(.httpStatus) }?.platformFix?.fix.contains("dotfiles: 'allow'")
                == true,
            "\(express.findings)")
        let plain = try await run(
            ["check", "textplain.aasa.test", "--json"] + fetchArguments(world), in: world.directory.url)
        #expect(!plain.stdout.contains("platformFix") && !plain.stdout.contains("\"platform\""))
    }

    /// A domain that serves no AASA still gets its platform's fixes, for the files it serves: the
    /// platform is read from their answers, and the fix names their path (issue 57, item 2).
    @Test func aDomainWithoutAnAASAGetsItsPlatformsFixes() async throws {
        let world = try TestWorld()
        let result = try await run(
            ["check", "expressapp.aasa.test", "--ios", "none", "--android", "com.example.app", "--json"]
                + fetchArguments(world), in: world.directory.url)
        let record = try #require(
            try JSONReport.makeDecoder().decode([DomainReport].self, from: Data(result.stdout.utf8)).first)
        #expect(record.platform == .express, "\(result.stdout)")
        let missing = try #require(record.findings.first { $0.code == .assetLinks(.status) }, "\(record.findings)")
        #expect(missing.platformFix?.platform == .express)
        #expect(missing.platformFix?.fix.contains("dotfiles: 'allow'") == true, "\(missing)")
    }

    // MARK: lint

    @Test func lintGivesEachFileAVerdictAndTheAuditExitCodes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try TestWorld.validFile.write(
            to: directory.url.appendingPathComponent("good.json"), atomically: true, encoding: .utf8)
        try #"{"applinks":{"details":[{"appId":"ABCDE12346.a.b","paths":["*"]}]}}"#.write(
            to: directory.url.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let good = try await run(["lint", "good.json"], in: directory.url)
        #expect(good.status == 0, "\(good.stdout)")
        #expect(good.stdout.hasPrefix("good.json  PASS"))

        let both = try await run(["lint", "good.json", "bad.json", "--json"], in: directory.url)
        #expect(both.status == 1)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as? [[String: Any]])
        #expect(records.map { $0["file"] as? String } == ["good.json", "bad.json"])
        #expect(records.map { $0["verdict"] as? String } == ["pass", "fail"])
        let codes = (records[1]["findings"] as? [[String: Any]])?.compactMap { $0["code"] as? String }
        #expect(codes == ["entry.unknown-key", "entry.no-app"])

        let missing = try await run(["lint", "good.json", "absent.json"], in: directory.url)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read absent.json: no such file"))
        #expect(missing.stdout.contains("good.json  PASS"))
    }

    // MARK: match

    /// What people type is read, or answered with what they meant (issue 56, item 2): `match`
    /// takes URLs alone as `check` takes a URL; a domains.txt token given to its option names
    /// the option's form; a pasted Android package is audited as a host with a note.
    @Test func whatPeopleTypeIsReadOrAnsweredWithWhatTheyMeant() async throws {
        let world = try TestWorld()
        let fetch = ["--connect-to", world.connectTo, "--cacert", world.caFile] + LoopbackNetworks.allowArguments
        let urls = ["https://good.aasa.test/buy/1", "https://good.aasa.test/nothing"]
        let alone = try await run(["match", "--json"] + urls + fetch, in: world.directory.url)
        let withDomain = try await run(["match", "--json", "good.aasa.test"] + urls + fetch, in: world.directory.url)
        #expect(alone.status == 0 && alone.stdout == withDomain.stdout, "\(alone.stdout)\(alone.stderr)")
        #expect(alone.stdout.contains(#""result" : "app""#), "\(alone.stdout)")
        let twoHosts = try await run(["match", urls[0], "https://other.aasa.test/"], in: world.directory.url)
        #expect(twoHosts.status == 2 && twoHosts.stderr.contains("more than one host"), "\(twoHosts.stderr)")

        let token = try await run(
            ["check", "good.aasa.test", "--android", "android:com.example.app"], in: world.directory.url)
        #expect(
            token.status == 2 && token.stderr.contains("did you mean --android com.example.app?"), "\(token.stderr)")
        let package = try await run(
            ["check", "com.acme.app", "--timeout", "2", "--no-cdn"] + fetch, in: world.directory.url)
        #expect(package.stderr.contains("com.acme.app reads like an Android package name"), "\(package.stderr)")
        #expect(package.stderr.contains("--android com.acme.app"))
    }

    /// Without dynamic rules (or when none matches) the app's manifest decides, and match does
    /// not see it: `undecided`, which `--expect browser` does not pass (issue 55, item 1).
    @Test func matchForAnAndroidAppWithoutRulesIsUndecided() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file =
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]"#
        try file.write(to: directory.url.appendingPathComponent("assetlinks.json"), atomically: true, encoding: .utf8)
        let arguments = [
            "match", "--file", "assetlinks.json", "--android", "com.example.app", "https://shop.example/a",
        ]
        let json = try await run(arguments + ["--json"], in: directory.url)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(records.map { $0["result"] as? String } == ["undecided"], "\(json.stdout)")
        let expecting = try await run(arguments + ["--expect", "browser"], in: directory.url)
        #expect(expecting.status != 0, "\(expecting.stdout)")
        #expect(expecting.stdout.contains("manifest"), "\(expecting.stdout)")
    }

    @Test func matchALocalFileSaysWhichRuleDecides() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12346.com.acme.app"],"components":[{"/":"/help/*","exclude":true},{"/":"/buy/*"}]}]}}"#
        try file.write(to: directory.url.appendingPathComponent("aasa.json"), atomically: true, encoding: .utf8)
        let text = try await run(
            [
                "match", "--file", "aasa.json", "https://acme.example/buy/1", "https://acme.example/help/x",
                "https://acme.example/about",
            ], in: directory.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("→ opens ABCDE12346.com.acme.app"))
        #expect(text.stdout.contains("excluded by applinks.details[0].components[0]"))
        #expect(text.stdout.contains("stays in the browser: no rule matched"))

        let json = try await run(
            [
                "match", "--file", "aasa.json", "--domain", "acme.example", "--json", "https://acme.example/buy/1",
                "https://acme.example/help/x", "https://other.example/buy/1",
            ], in: directory.url)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(records.map { $0["result"] as? String } == ["app", "excluded", "none"])
        #expect(records.map { ($0["appIDs"] as? [String])?.count } == [1, 0, 0])
        #expect((records[1]["rule"] as? [String: Any])?["path"] as? String == "applinks.details[0].components[0]")
        #expect((records[0]["rule"] as? [String: Any])?["index"] as? Int == 1)
        #expect(records[2]["rule"] == nil, "absent when no rule decided")

        // The nearest rule, in words and in JSON.
        #expect(
            text.stdout.contains("    nearest rule: applinks.details[0].components[1] { \"/\": \"/buy/*\" }"),
            "\(text.stdout)")
        #expect(text.stdout.contains("    the path /about does not match /buy/*"))
        let near = try await run(
            ["match", "--file", "aasa.json", "--json", "https://acme.example/Buy/1"], in: directory.url)
        let nearest = try #require(
            (try JSONSerialization.jsonObject(with: Data(near.stdout.utf8)) as? [[String: Any]])?.first?["nearest"]
                as? [String: Any])
        #expect(nearest["failed"] as? [String] == ["path"])
        #expect((nearest["rule"] as? [String: Any])?["path"] as? String == "applinks.details[0].components[1]")
        #expect((nearest["explanation"] as? String)?.contains("it would ignoring case") == true)

        // --expect: a CI guard.
        let guarded = ["match", "--file", "aasa.json", "https://acme.example/buy/1", "https://acme.example/help/x"]
        let allApp = try await run(guarded + ["--expect", "app"], in: directory.url)
        #expect(allApp.status == 1)
        #expect(
            allApp.stderr.contains(
                "aasa-audit: https://acme.example/help/x: expected to open an app, but it stays in the browser (Excluded by applinks.details[0].components[0].)"
            ), "\(allApp.stderr)")
        #expect(!allApp.stderr.contains("buy/1"))
        let buy = try await run(
            ["match", "--file", "aasa.json", "https://acme.example/buy/1", "--expect", "ABCDE12346.com.acme.app"],
            in: directory.url)
        #expect(buy.status == 0, "\(buy.stderr)")
        let other = try await run(
            ["match", "--file", "aasa.json", "https://acme.example/buy/1", "--expect", "ABCDE12346.com.acme.other"],
            in: directory.url)
        #expect(other.status == 1 && other.stderr.contains("but it opens ABCDE12346.com.acme.app"))
        let browser = try await run(
            [
                "match", "--file", "aasa.json", "https://acme.example/help/x", "https://acme.example/about", "--expect",
                "browser",
            ],
            in: directory.url)
        #expect(browser.status == 0, "\(browser.stderr)")
        let typo = try await run(guarded + ["--expect", "apps"], in: directory.url)
        #expect(typo.status == 2 && typo.stderr.contains("--expect must be app, browser or an app ID"))

        let bad = try await run(["match", "--file", "aasa.json", "acme.example/no-scheme"], in: directory.url)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("is not an absolute URL"))
    }

    @Test func matchALiveDomainFetchesItsWellKnownFile() async throws {
        let world = try TestWorld()
        let fetch = ["--connect-to", world.connectTo, "--cacert", world.caFile] + LoopbackNetworks.allowArguments
        let result = try await run(
            ["match", "good.aasa.test", "https://good.aasa.test/buy/shoes", "https://good.aasa.test/sell", "--json"]
                + fetch, in: world.directory.url)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(records.map { $0["result"] as? String } == ["app", "none"])
        #expect(world.server.requests.map(\.path) == ["/.well-known/apple-app-site-association"])

        let broken = try await run(
            ["match", "missing.aasa.test", "https://missing.aasa.test/buy/1"] + fetch, in: world.directory.url)
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("serves no usable file: HTTP 404"))
    }

    // MARK: expectations

    @Test func anAuditChecksTheExpectationsOfDomainsTxt() async throws {
        let world = try TestWorld()
        try """
        good.aasa.test \(TestWorld.appID)
          + https://good.aasa.test/buy/1
          + https://good.aasa.test/sell/1
          - https://good.aasa.test/buy/2
          - https://good.aasa.test/about
        """.write(to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let result = try await run(["audit"] + fetchArguments(world), in: world.directory.url)
        #expect(result.status == 1)
        let report = try JSONReport.makeDecoder().decode(
            AuditReport.self, from: Data(contentsOf: world.directory.url.appendingPathComponent("reports/latest.json")))
        #expect(report.domains[0].findings.map(\.code) == [.aasa(.matchExpectedApp), .aasa(.matchExpectedBrowser)])
        #expect(report.domains[0].findings[0].message.contains("https://good.aasa.test/sell/1 (line 3)"))
        #expect(report.domains[0].findings[1].message.contains("https://good.aasa.test/buy/2 (line 4)"))
        let html = try String(
            contentsOf: world.directory.url.appendingPathComponent("reports/latest.html"), encoding: .utf8)
        #expect(html.contains("match.expected-browser"))
    }

    @Test func aMessyDomainsFileIsAuditedLineByLine() async throws {
        let world = try TestWorld()
        let bytes: [UInt8] =
            [0xEF, 0xBB, 0xBF] + Array("good.aasa.test\r\n# comment\r\n".utf8) + [0x62, 0xE9, 0x0D, 0x0A]
            + Array("example.com:443\r\nGOOD2.aasa.test.\r\n".utf8)
        try Data(bytes).write(to: world.directory.url.appendingPathComponent("domains.txt"))
        let result = try await run(["audit"] + fetchArguments(world), in: world.directory.url)
        #expect(result.status == 1, "input lines that were not audited make the run exit 1")
        #expect(result.stdout.contains("Audited 2 domains"))
        #expect(result.stdout.contains("2 pass, 0 warn, 0 fail"))
        #expect(result.stdout.contains("domains.txt:3: The line is not valid UTF-8."))
        #expect(result.stdout.contains("domains.txt:4: \"example.com:443\" names a port"))
        let report = try JSONReport.makeDecoder().decode(
            AuditReport.self, from: Data(contentsOf: world.directory.url.appendingPathComponent("reports/latest.json")))
        #expect(report.domains.map(\.domain) == ["good.aasa.test", "good2.aasa.test"])
        #expect(report.input.problems.map(\.line) == [3, 4])
    }
}
