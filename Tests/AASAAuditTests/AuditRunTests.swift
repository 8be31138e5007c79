import AASAAudit
import AASAReport
import AuditTestSupport
import DomainList
import Foundation
import TestSupport
import Testing

@testable import AASAModel

/// Whole runs of the engine against real HTTPS servers on 127.0.0.1.
@Suite(.live, .tags(.live)) struct AuditRunTests {
    /// (host, expected verdict, expected codes of its findings, in order)
    static let expectations: [(String, Verdict, [String])] = [
        ("good.aasa.test", .pass, []),
        (
            "redirect.aasa.test", .fail,
            ["http.redirect/error/well-known", "http.redirect/info/root", "location.none/error/domain"]
        ),
        (
            "missing.aasa.test", .fail,
            ["http.status/error/well-known", "location.root-absent/info/root", "location.none/error/domain"]
        ),
        ("rootonly.aasa.test", .fail, ["http.status/error/well-known", "location.root-only/error/domain"]),
        ("textplain.aasa.test", .warn, ["http.content-type/warning/well-known", "http.content-type/warning/root"]),
        ("big.aasa.test", .fail, ["body.too-large/error/well-known"]),
        ("empty.aasa.test", .fail, ["body.empty/error/well-known", "body.empty/warning/root"]),
        ("badjson.aasa.test", .fail, ["json.invalid/error/well-known"]),
        ("otherapp.aasa.test", .fail, ["appid.missing/error/well-known"]),
        ("chunked.aasa.test", .pass, []),
        ("good2.aasa.test", .pass, []),
    ]

    func targets() -> [DomainTarget] {
        Self.expectations.enumerated().map { index, expectation in
            DomainTarget(domain: expectation.0, expectedAppIDs: [TestWorld.appID], inputLine: index + 1)
        }
    }

    func settings(_ world: TestWorld, out: URL) -> AuditSettings {
        AuditSettings(
            inputFiles: ["domains.txt"], outputDirectory: out, concurrency: 4, fetcher: world.fetcherConfiguration(),
            failOn: .error)
    }

    /// A fleet above the page's threshold: report.html lists the domains worth a look and counts
    /// the passing ones without findings; report.json keeps every domain (issue 38, item 5).
    @Test func aLargeFleetsPageListsTheDomainsWorthALook() async throws {
        let world = try TestWorld()
        var settings = settings(world, out: world.directory.url.appendingPathComponent("reports"))
        settings.htmlListsEveryDomainUpTo = 3
        let result = try await AuditRun.run(targets: targets(), inputProblems: [], settings: settings)
        let html = try String(contentsOf: result.reportHTML, encoding: .utf8)
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: result.reportJSON))
        let quiet = report.domains.filter(HTMLReport.isCompact)
        #expect(quiet.count >= 2 && report.domains.count == Self.expectations.count)
        #expect(html.contains("\(quiet.count) passing domains without findings are not listed"), "\(html.prefix(2000))")
        for domain in report.domains {
            let listed = html.contains("id=\"\(domain.domain)\"")
            #expect(listed == !HTMLReport.isCompact(domain), "\(domain.domain)")
        }
        // Under the threshold, every domain has its row.
        settings.htmlListsEveryDomainUpTo = HTMLReport.fleetThreshold
        let small = try await AuditRun.run(targets: targets(), inputProblems: [], settings: settings)
        let every = try String(contentsOf: small.reportHTML, encoding: .utf8)
        #expect(!every.contains("not listed") && quiet.allSatisfy { every.contains("id=\"\($0.domain)\"") })
    }

    @Test func auditsEveryDomainAndWritesBothReports() async throws {
        let world = try TestWorld()
        let out = world.directory.url.appendingPathComponent("reports")
        let problem = InputProblem(
            file: "domains.txt", line: 20, text: "https://x", severity: .error, message: "is a URL")
        let result = try await AuditRun.run(
            targets: targets(), inputProblems: [problem], settings: settings(world, out: out))

        #expect(result.complete)
        #expect(result.runDirectory.deletingLastPathComponent().path == out.path)
        #expect(result.runDirectory.lastPathComponent.wholeMatch(of: /\d{4}-\d\d-\d\dT\d{6}Z/) != nil)
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: result.reportJSON))
        #expect(report.domains.map(\.domain) == Self.expectations.map(\.0))
        for (domain, expectation) in zip(report.domains, Self.expectations) {
            #expect(domain.verdict == expectation.1, "\(domain.domain): \(domain.findings)")
            #expect(
                domain.findings.map { "\($0.code.rawValue)/\($0.severity.rawValue)/\($0.location.rawValue)" }
                    == expectation.2, "\(domain.domain)")
            // Then, when neither location served the file, its .json name.
            #expect(domain.fetches.prefix(2).map(\.location) == [.wellKnown, .root])
            #expect(domain.fetches.count == (domain.findings.contains { $0.code == .aasa(.locationNone) } ? 3 : 2))
        }
        #expect(
            report.domains[0].appIDs == ServiceAppIDs(applinks: [TestWorld.appID], webcredentials: [TestWorld.appID]))
        #expect(report.domains[0].fetches[1].newConnection == false)
        #expect(report.summary.domains == Self.expectations.count)
        #expect(
            report.summary.verdicts.pass == 3 && report.summary.verdicts.warn == 1 && report.summary.verdicts.fail == 7)
        #expect(report.summary.findingsByCode["location.none"] == 2)
        #expect(report.input.problems == [problem])
        #expect(report.run.complete)
        #expect(result.flaggedDomains.map(\.domain) == Self.expectations.filter { $0.1 != .pass }.map(\.0))

        // One TLS connection per domain: both locations share it.
        #expect(world.server.connectionCount == Self.expectations.count)

        let html = try String(contentsOf: result.reportHTML, encoding: .utf8)
        for (host, _, _) in Self.expectations { #expect(html.contains(host)) }
        #expect(try Data(contentsOf: out.appendingPathComponent("latest.json")) == Data(contentsOf: result.reportJSON))
        #expect(try Data(contentsOf: out.appendingPathComponent("latest.html")) == Data(contentsOf: result.reportHTML))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: result.runDirectory.path).sorted()
        #expect(leftovers == [".aasa-audit-run", "domains.jsonl", "report.html", "report.json"])
        // The stream holds every domain's record, each the bytes report.json holds for it.
        let streamed = try String(
            contentsOf: result.runDirectory.appendingPathComponent("domains.jsonl"), encoding: .utf8
        )
        .split(separator: "\n").map(String.init)
        let documentLines = try String(contentsOf: result.reportJSON, encoding: .utf8).split(separator: "\n").map(
            String.init)
        #expect(streamed.count == Self.expectations.count)
        #expect(
            streamed.allSatisfy { line in documentLines.contains { $0.hasPrefix(line) } }, "\(streamed.first ?? "")")
        let domains = try streamed.map {
            try JSONReport.makeDecoder().decode(DomainReport.self, from: Data($0.utf8)).domain
        }
        #expect(Set(domains) == Set(Self.expectations.map(\.0)))
    }

    @Test(.enabled(if: ReportSchemaValidator.isAvailable, Comment(rawValue: ReportSchemaValidator.unavailableMessage)))
    func aRealReportValidatesAgainstTheSchema() async throws {
        let world = try TestWorld()
        let out = world.directory.url.appendingPathComponent("reports")
        let result = try await AuditRun.run(targets: targets(), inputProblems: [], settings: settings(world, out: out))
        #expect(try await ReportSchemaValidator.errors(in: Data(contentsOf: result.reportJSON)) == [])
    }

    @Test func aHostileServerCannotInjectMarkupIntoTheHTMLReport() async throws {
        let world = try TestWorld()
        let out = world.directory.url.appendingPathComponent("reports")
        let problem = InputProblem(
            file: "<b>domains.txt</b>", line: 2, text: "<script>alert(4)</script>", severity: .error,
            message: "\"<script>alert(5)</script>\" is a URL")
        let targets = [
            DomainTarget(domain: "hostile.aasa.test", expectedAppIDs: ["ABCDE12346.<i>x</i>"], inputLine: 1),
            DomainTarget(domain: "hostile2.aasa.test", inputLine: 3),
        ]
        let result = try await AuditRun.run(
            targets: targets, inputProblems: [problem], settings: settings(world, out: out))
        let html = try String(contentsOf: result.reportHTML, encoding: .utf8)
        // Markup from file content, headers, redirect targets, error bodies and the input: none of it live.
        #expect(html.components(separatedBy: "<script").count == 2)
        #expect(!html.contains("<img"))
        #expect(!html.contains("<b>domains.txt</b>") && !html.contains("<i>x</i>"))
        #expect(html.contains("&lt;b&gt;domains.txt&lt;/b&gt;") && html.contains("ABCDE12346.&lt;i&gt;x&lt;/i&gt;"))
        for number in 1...7 where number != 6 {
            #expect(html.contains("alert(\(number))"), "alert(\(number)) should be shown, escaped")
        }
        // The invalid body, escaped, with the JSON error marked where the parser stopped.
        #expect(
            html.contains(
                #"<pre class="file"><mark title="line 1, column 1: json.invalid: Not valid JSON: unexpected &#39;&lt;&#39;, expected a value at line 1, column 1.">&lt;script&gt;alert(3)&lt;/script&gt;</mark></pre>"#
            ),
            "\(html)")
        #expect(html.contains("&lt;img src=x onerror=alert(2)&gt;"))
    }

    @Test func consecutiveRunsGetTheirOwnFoldersAndLatestFollowsTheNewest() async throws {
        let world = try TestWorld()
        let out = world.directory.url.appendingPathComponent("reports")
        let first = try await AuditRun.run(
            targets: [DomainTarget(domain: "good.aasa.test")], inputProblems: [], settings: settings(world, out: out))
        let second = try await AuditRun.run(
            targets: [DomainTarget(domain: "missing.aasa.test")], inputProblems: [], settings: settings(world, out: out)
        )
        #expect(first.runDirectory != second.runDirectory)
        let latest = try JSONReport.makeDecoder().decode(
            AuditReport.self, from: Data(contentsOf: out.appendingPathComponent("latest.json")))
        #expect(latest.domains.map(\.domain) == ["missing.aasa.test"])
        #expect(FileManager.default.fileExists(atPath: first.reportJSON.path))
    }

    @Test func unreachableHostsAreReportedWithoutASecondAttempt() async throws {
        let world = try TestWorld()
        let untrusted = try LoopbackServer(
            identity: try TestPKI(name: "someone else").issueServerIdentity(for: ["*.aasa.test"])
        ) { _, _ in .json(TestWorld.validFile) }
        defer { untrusted.shutdown() }
        let refusedPort = try LoopbackServer.unusedPort()
        var settings = settings(world, out: world.directory.url.appendingPathComponent("reports"))
        settings.fetcher.connectTo = [
            "untrusted.aasa.test:443:127.0.0.1:\(untrusted.port)", "refused.aasa.test:443:127.0.0.1:\(refusedPort)",
            world.connectTo,
        ]
        let targets = ["untrusted.aasa.test", "refused.aasa.test", "good.aasa.test"].map { DomainTarget(domain: $0) }
        let result = try await AuditRun.run(targets: targets, inputProblems: [], settings: settings)
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: result.reportJSON))
        #expect(
            report.domains.map { $0.findings.map(\.code) } == [
                [.transfer(.tlsCertificate)], [.transfer(.netConnect)], [],
            ])
        #expect(report.domains[0].fetches[1].error?.kind == .skipped)
        #expect(untrusted.connectionCount == 1)
    }

    @Test func anUnwritableOutputDirectoryIsAnError() async throws {
        let world = try TestWorld()
        let file = world.directory.url.appendingPathComponent("a-file")
        try Data().write(to: file)
        await #expect(throws: AuditRunError.self) {
            _ = try await AuditRun.run(
                targets: [DomainTarget(domain: "good.aasa.test")], inputProblems: [],
                settings: settings(world, out: file))
        }
    }
}
