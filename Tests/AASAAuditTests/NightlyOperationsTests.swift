import AASAAudit
import AASAModel
import AASAReport
import AuditTestSupport
import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The nightly job's features against real loopback servers: a fake of Apple's CDN, a server
/// that refuses Apple's bot, consecutive runs, an overlapping run, JUnit and metrics.
@Suite(.live, .tags(.live)) struct NightlyOperationsTests {
    func settings(_ world: TestWorld, out: URL, cdn: Bool = true) -> AuditSettings {
        var fetcher = world.fetcherConfiguration()
        fetcher.connectTo = [world.connectTo]
        return AuditSettings(
            inputFiles: ["domains.txt"], outputDirectory: out, concurrency: 4, fetcher: fetcher, failOn: .error,
            deviceView: DeviceViewSettings(cdnBase: cdn ? TestWorld.cdnBase : nil))
    }

    func findings(_ report: DomainReport) -> [String] {
        report.findings.map { "\($0.code.rawValue)/\($0.severity.rawValue)/\($0.location.rawValue)" }
    }

    /// A CDN answer's caching headers beyond every bound (a max-age of 20 digits, the lowest
    /// Age, a 14-digit year) are a finding, not a crash: the run completes with its reports.
    @Test func aHostileCDNAnswerIsAFindingNotACrash() async throws {
        let world = try TestWorld()
        let out = world.directory.url.appendingPathComponent("reports")
        let result = try await AuditRun.run(
            targets: [DomainTarget(domain: "hostilecdn.aasa.test")], inputProblems: [],
            settings: settings(world, out: out))
        #expect(result.complete)
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: result.reportJSON))
        #expect(report.domains.map(findings) == [["cdn.missing/error/cdn"]])
        #expect(report.domains[0].findings[0].message.contains("for about 596523 hours after this answer"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("latest.json").path))
    }

    @Test func theCDNCopyAndApplesBotAreChecked() async throws {
        let world = try TestWorld()
        let out = world.directory.url.appendingPathComponent("reports")
        let hosts = ["good.aasa.test", "stale.aasa.test", "nocdn.aasa.test", "botblock.aasa.test"]
        let result = try await AuditRun.run(
            targets: hosts.map { DomainTarget(domain: $0) }, inputProblems: [], settings: settings(world, out: out))
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: result.reportJSON))
        #expect(
            report.domains.map(findings) == [
                [], ["cdn.stale/warning/cdn"], ["cdn.missing/error/cdn"], ["ua.blocked/error/well-known"],
            ])
        let nocdn = report.domains[2]
        #expect(nocdn.findings[0].message.contains("Apple says: SWCERR00301 Timeout"))
        let cdnFetch = try #require(nocdn.fetches.first { $0.location == .cdn })
        #expect(cdnFetch.url == "https://cdn.aasa.test/a/v1/nocdn.aasa.test")
        #expect(cdnFetch.headers.appleFailureReason == "SWCERR00301 Timeout")
        #expect(cdnFetch.headers.appleTryDirect == "true")
        #expect(report.domains[0].fetches.map(\.label) == [".well-known as Apple's bot", "root", "Apple CDN"])
        #expect(
            report.domains[3].fetches.map(\.label) == [
                ".well-known as Apple's bot", "root", ".well-known as a browser", "Apple CDN",
            ])
        // Apple's bot was really sent as Apple's bot.
        #expect(
            world.server.requests.contains {
                $0.host == "botblock.aasa.test" && $0.userAgent == AppleLimits.botUserAgent
            })
        #expect(
            world.server.requests.contains {
                $0.host == "botblock.aasa.test" && $0.userAgent == DeviceViewSettings.safari
            })
        // The origin fetches of a domain share one connection; the CDN's are separate.
        let originConnections = Set(world.server.requests.filter { $0.host == "good.aasa.test" }.map(\.connection))
        #expect(originConnections.count == 1)
        #expect(report.run.options.cdnURL == TestWorld.cdnBase)
    }

    /// The request plan (OriginFetchPlan): the bot's `.well-known` answers both questions when
    /// it gets the file; a browser's is asked only when it does not. On this HTTP/1.1 server the
    /// root follows on the same connection.
    @Test func theBotsAnswerDecidesAndABrowserIsAskedOnlyWhenTheBotGetsNoFile() async throws {
        let world = try TestWorld()
        let hosts = [
            "good.aasa.test", "botblock.aasa.test", "browserblock.aasa.test", "challenge.aasa.test",
            "missing.aasa.test",
        ]
        let result = try await AuditRun.run(
            targets: hosts.map { DomainTarget(domain: $0) }, inputProblems: [],
            settings: settings(world, out: world.directory.url.appendingPathComponent("reports"), cdn: false))
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: result.reportJSON))
        #expect(
            report.domains.map(findings) == [
                [],
                ["ua.blocked/error/well-known"],
                [],
                ["ua.blocked/error/well-known"],
                ["http.status/error/well-known", "location.root-absent/info/root", "location.none/error/domain"],
            ])
        #expect(report.domains[3].findings[0].message.contains("a challenge page"))
        // The judged file of a blocked host is the browser's copy: its app IDs are reported.
        #expect(report.domains[3].appIDs.applinks == [TestWorld.appID])

        func requests(_ host: String) -> [ServedRequest] { world.server.requests.filter { $0.host == host } }
        let bot = AppleLimits.botUserAgent
        for host in ["good.aasa.test", "browserblock.aasa.test"] {
            #expect(
                requests(host).map(\.path) == [AASALocation.wellKnown.path, AASALocation.root.path],
                "\(host): two requests")
            #expect(requests(host).first?.userAgent == bot)
            #expect(Set(requests(host).map(\.connection)).count == 1, "\(host): one connection")
        }
        for host in ["botblock.aasa.test", "challenge.aasa.test", "missing.aasa.test"] {
            #expect(requests(host).map(\.userAgent).filter { $0 == bot }.count == 1)
            #expect(
                requests(host).map(\.userAgent).filter { $0 == DeviceViewSettings.safari }.count == 1,
                "\(host): a browser is asked")
            // A host that serves no file anywhere is also asked for the file under a .json name.
            let fetches = report.domains.first { $0.domain == host }?.fetches.map {
                "\($0.label): \($0.error?.message ?? String($0.status ?? 0)) \($0.timings)"
            }
            #expect(requests(host).count == (host == "missing.aasa.test" ? 4 : 3), "\(host): \(fetches ?? [])")
            #expect(Set(requests(host).map(\.connection)).count == 1, "\(host): one connection")
        }
    }

    /// Over HTTP/2 the root is requested on the same connection before `.well-known` is
    /// answered: the server holds each `.well-known` answer until that connection's root
    /// request arrives, which a client asking one thing at a time never does.
    @Test func overHTTP2TheRootIsMultiplexedBesideWellKnown() async throws {
        let world = try TestWorld()
        // A long hold and deadline, a failure's bound only (a passing run answers as soon as the
        // root arrives): the audit runs in the test's process, whose pool the suite's CPU-bound
        // tests may keep away for half a minute on a loaded machine (4 of 8 roots were not sent
        // within 30 s in a clean-clone run beside a build), and .well-known is not answered
        // until the root arrives.
        let server = try HTTP2LoopbackServer(
            identity: try world.pki.issueServerIdentity(for: ["*.aasa.test"]), body: TestWorld.validFile,
            hold: .seconds(180))
        defer { server.shutdown() }
        let hosts = (1...8).map { "good\($0).aasa.test" }
        var settings = settings(world, out: world.directory.url.appendingPathComponent("reports"), cdn: false)
        settings.fetcher.connectTo = [server.connectTo]
        settings.fetcher.timeoutSeconds = 180
        let result = try await AuditRun.run(
            targets: hosts.map { DomainTarget(domain: $0) }, inputProblems: [], settings: settings)
        #expect(result.summary.verdicts.pass == 8)
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: result.reportJSON))
        #expect(report.domains.allSatisfy { $0.fetches.map(\.httpVersion) == ["2", "2"] })
        #expect(server.connectionCount == 8, "one connection per domain")
        #expect(server.requests.count == 16, "two requests per domain")
        #expect(server.multiplexedConnections == Set(1...8), "the root must not wait for .well-known's answer")
    }

    @Test func consecutiveRunsReportWhatChangedAndDiffSaysTheSame() async throws {
        let world = try TestWorld()
        let out = world.directory.url.appendingPathComponent("reports")
        let first = try await AuditRun.run(
            targets: [
                DomainTarget(domain: "good.aasa.test", expectedAppIDs: [TestWorld.appID]),
                DomainTarget(domain: "good2.aasa.test"),
            ],
            inputProblems: [], settings: settings(world, out: out, cdn: false))
        let firstReport = try JSONReport.makeDecoder().decode(
            AuditReport.self, from: Data(contentsOf: first.reportJSON))
        #expect(firstReport.changes == nil)

        let second = try await AuditRun.run(
            targets: [
                DomainTarget(
                    domain: "good.aasa.test", expectedAppIDs: [TestWorld.appID, "ABCDE12346.com.example.other"]),
                DomainTarget(domain: "textplain.aasa.test"),
            ],
            inputProblems: [], settings: settings(world, out: out, cdn: false))
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: second.reportJSON))
        let changes = try #require(report.changes)
        #expect(changes.previousRunStartedAt == firstReport.run.startedAt)
        #expect(changes.domains.map(\.domain) == ["good.aasa.test"])
        #expect(changes.domains[0].verdict == VerdictChange(from: .pass, to: .fail))
        #expect(changes.domains[0].newFindings.map(\.code) == [.aasa(.appIDMissing)])
        #expect(changes.addedDomains == ["textplain.aasa.test"])
        #expect(changes.removedDomains == ["good2.aasa.test"])
        let html = try String(contentsOf: second.reportHTML, encoding: .utf8)
        #expect(html.contains("Changes since the run of"))
        #expect(html.contains("No longer audited: good2.aasa.test"))

        let text = try await ProcessRunner.run(
            CommandLineTests.binary, ["diff", first.reportJSON.path, second.reportJSON.path])
        // good.aasa.test got worse: diff says so with its exit status, for a CI step.
        #expect(text.status == 1)
        #expect(text.stdout.contains("good.aasa.test  PASS → FAIL"))
        #expect(text.stdout.contains("+ error   appid.missing (well-known)"))
        #expect(text.stdout.contains("New domains: textplain.aasa.test"))
        let json = try await ProcessRunner.run(
            CommandLineTests.binary, ["diff", first.reportJSON.path, second.reportJSON.path, "--json"])
        #expect(try JSONReport.makeDecoder().decode(RunChanges.self, from: Data(json.stdout.utf8)) == changes)
        let same = try await ProcessRunner.run(
            CommandLineTests.binary, ["diff", second.reportJSON.path, second.reportJSON.path])
        #expect(same.status == 0 && same.stdout == "No changes.\n")
        // Run folders name their reports (issue 47, item 6: "is a directory").
        let folders = try await ProcessRunner.run(
            CommandLineTests.binary,
            [
                "diff", first.reportJSON.deletingLastPathComponent().path,
                second.reportJSON.deletingLastPathComponent().path,
            ])
        #expect(folders.status == 1 && folders.stdout == text.stdout, "\(folders.stderr)")
    }

    @Test func keepPrunesTheOldestRunFolders() async throws {
        let world = try TestWorld()
        let out = world.directory.url.appendingPathComponent("reports")
        var settings = settings(world, out: out, cdn: false)
        settings.keepRuns = 2
        var folders: [URL] = []
        for _ in 1...3 {
            folders.append(
                try await AuditRun.run(
                    targets: [DomainTarget(domain: "good.aasa.test")], inputProblems: [], settings: settings
                ).runDirectory)
        }
        let remaining = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix("20") }
            .sorted()
        #expect(remaining == folders.suffix(2).map(\.lastPathComponent).sorted())
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("latest.json").path))
    }

    @Test func anOverlappingRunExitsTwoAndLeavesTheFirstAlone() async throws {
        let world = try TestWorld()
        // Completes TLS, then never answers: only the long total timeout could end the fetches.
        let silent = try FaultServer(
            identity: try world.pki.issueServerIdentity(for: ["*.aasa.test"]), fault: .respond { _, _ in .never })
        defer { silent.shutdown() }
        try "stuck.aasa.test\n".write(
            to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        // A timeout far beyond the test's own steps, so that a slow, loaded machine cannot let
        // the first run finish before the second starts or the signal arrives.
        let arguments =
            [
                "audit", "--no-cdn", "--timeout", "300", "--cacert", world.caFile, "--connect-to",
                silent.connectTo("stuck.aasa.test"),
            ] + LoopbackNetworks.allowArguments
        let first = try ProcessRunner.start(CommandLineTests.binary, arguments, in: world.directory.url)
        for _ in 0..<2400 where silent.connectionCount < 1 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(silent.connectionCount >= 1)
        let second = try await ProcessRunner.run(CommandLineTests.binary, arguments, in: world.directory.url)
        #expect(second.status == 2)
        #expect(second.stderr.contains("another audit is writing to"))
        #expect(second.stderr.contains("pid \(first.processIdentifier)"))
        first.send(SIGTERM)
        let firstResult = await first.finished()
        #expect(firstResult.status == 143, "first run: \(firstResult.stdout)\(firstResult.stderr)")
    }

    @Test func junitXMLParsesWithATestCasePerDomain() async throws {
        let world = try TestWorld()
        var settings = settings(world, out: world.directory.url.appendingPathComponent("reports"), cdn: false)
        let junit = world.directory.url.appendingPathComponent("junit.xml")
        settings.junitFile = junit
        let hosts = ["good.aasa.test", "missing.aasa.test", "textplain.aasa.test", "hostile.aasa.test"]
        _ = try await AuditRun.run(
            targets: hosts.map { DomainTarget(domain: $0) }, inputProblems: [], settings: settings)
        let collector = JUnitCollector()
        let parser = XMLParser(data: try Data(contentsOf: junit))
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(collector.testCases == hosts)
        #expect(collector.failures == ["missing.aasa.test": "http.status", "hostile.aasa.test": "json.invalid"])
        #expect(collector.suiteAttributes["tests"] == "4")
        #expect(collector.suiteAttributes["failures"] == "2")
    }

    @Test(.enabled(if: PrometheusTextParser.isAvailable, Comment(rawValue: PrometheusTextParser.unavailableMessage)))
    func metricsAreAcceptedByAPrometheusParser() async throws {
        let world = try TestWorld()
        var settings = settings(world, out: world.directory.url.appendingPathComponent("reports"), cdn: false)
        let metrics = world.directory.url.appendingPathComponent("aasa.prom")
        settings.metricsFile = metrics
        _ = try await AuditRun.run(
            targets: ["good.aasa.test", "missing.aasa.test"].map { DomainTarget(domain: $0) }, inputProblems: [],
            settings: settings)
        let samples = try await PrometheusTextParser.samples(in: metrics)
        #expect(samples.contains("gauge aasa_audit_domain_verdict{domain=good.aasa.test,verdict=pass} 1.0"))
        #expect(samples.contains("gauge aasa_audit_domain_verdict{domain=missing.aasa.test,verdict=fail} 1.0"))
        #expect(samples.contains("gauge aasa_audit_domain_verdict{domain=missing.aasa.test,verdict=pass} 0.0"))
        #expect(samples.contains("gauge aasa_audit_domains{verdict=fail} 1.0"))
        #expect(samples.contains("gauge aasa_audit_findings{code=http.status,severity=error} 1.0"))
        #expect(samples.contains("gauge aasa_audit_run_complete{} 1.0"))
        #expect(
            samples.contains {
                $0.hasPrefix("gauge aasa_audit_fetch_duration_seconds{domain=good.aasa.test,fetch=well-known} ")
            })
        #expect(samples.contains { $0.hasPrefix("gauge aasa_audit_last_run_timestamp_seconds{} ") })
    }
}

/// Collects test cases and failures from JUnit XML.
final class JUnitCollector: NSObject, XMLParserDelegate {
    var testCases: [String] = []
    var failures: [String: String] = [:]
    var suiteAttributes: [String: String] = [:]

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "testsuite": suiteAttributes = attributes
        case "testcase": testCases.append(attributes["name"] ?? "")
        case "failure": failures[testCases.last ?? ""] = attributes["type"]
        default: break
        }
    }
}
