import AASAModel
import AASAReport
import Foundation
import Testing
import TestSupport

/// The built `aasa-audit` binary, run as a user runs it.
@Suite struct CommandLineTests {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("aasa-audit")

    func run(_ arguments: [String], in directory: URL) throws -> ProcessRunner.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        return try ProcessRunner.run(Self.binary, arguments, in: directory, environment: environment)
    }

    func fetchArguments(_ world: TestWorld) -> [String] {
        ["--connect-to", world.connectTo, "--cacert", world.caFile, "--timeout", "5"]
    }

    @Test func theBinaryWasBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path), "expected the aasa-audit binary at \(Self.binary.path)")
    }

    @Test func auditExitsOneWhenADomainFailsAndWritesTheRunFolder() throws {
        let world = try TestWorld()
        let input = """
            # test domains
            good.aasa.test \(TestWorld.appID)
            missing.aasa.test
            https://bad.example/x
            """
        try input.write(to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let result = try run(["audit"] + fetchArguments(world), in: world.directory.url)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("Audited 2 domains"))
        #expect(result.stdout.contains("1 pass, 0 warn, 1 fail"))
        #expect(result.stdout.contains("FAIL missing.aasa.test  http.status, location.none"))
        #expect(result.stdout.contains("domains.txt:4: \"https://bad.example/x\" is a URL"))
        #expect(!result.stderr.contains("\r"), "no progress line when stderr is not a terminal")
        let latest = world.directory.url.appendingPathComponent("reports/latest.json")
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: latest))
        #expect(report.domains.map(\.domain) == ["good.aasa.test", "missing.aasa.test"])
        #expect(report.input.problems.map(\.line) == [4])
        #expect(report.run.options.inputFiles == ["domains.txt"])
    }

    @Test func auditExitsZeroWhenEveryDomainPassesAndFailOnWarningCountsWarnings() throws {
        let world = try TestWorld()
        let file = world.directory.url.appendingPathComponent("list.txt")
        try "good.aasa.test\ntextplain.aasa.test\n".write(to: file, atomically: true, encoding: .utf8)
        let out = world.directory.url.appendingPathComponent("out").path
        let lenient = try run(["audit", "list.txt", "--out", out] + fetchArguments(world), in: world.directory.url)
        #expect(lenient.status == 0, "\(lenient.stdout)\(lenient.stderr)")
        #expect(lenient.stdout.contains("1 pass, 1 warn, 0 fail"))
        let strict = try run(["audit", "list.txt", "--out", out, "--fail-on", "warning"] + fetchArguments(world), in: world.directory.url)
        #expect(strict.status == 1)
    }

    @Test(arguments: [
        (["audit", "no-such-file.txt"], "cannot read the domains file no-such-file.txt"),
        (["audit", "empty.txt"], "lists no domain"),
        (["audit", "ok.txt", "--out", "a-file/reports"], "cannot create the output directory"),
        (["audit", "--concurrency", "0"], "--concurrency"),
        (["audit", "--bogus"], "Unknown option"),
        (["check", "https://example.com"], "is a URL"),
        (["check", "example.com", "--app-id", "TEAM_ID.x.y"], "placeholder"),
        (["check", "example.com", "--resolve", "nonsense"], "--resolve"),
        (["explain", "no.such-code"], "unknown finding code"),
    ])
    func usageAndInputErrorsExitTwo(arguments: [String], message: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try "# nothing here\n\n".write(to: directory.url.appendingPathComponent("empty.txt"), atomically: true, encoding: .utf8)
        try "example.invalid\n".write(to: directory.url.appendingPathComponent("ok.txt"), atomically: true, encoding: .utf8)
        try Data().write(to: directory.url.appendingPathComponent("a-file"))
        let result = try run(arguments, in: directory.url)
        #expect(result.status == 2, "\(arguments): \(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func checkPrintsAReadableVerdict() throws {
        let world = try TestWorld()
        let failing = try run(["check", "Redirect.AASA.test.", "--app-id", TestWorld.appID] + fetchArguments(world), in: world.directory.url)
        #expect(failing.status == 1)
        #expect(failing.stdout.hasPrefix("redirect.aasa.test  FAIL"))
        #expect(failing.stdout.contains("301  → https://www.redirect.aasa.test/.well-known/apple-app-site-association"))
        #expect(failing.stdout.contains("Fix: "))
        #expect(!failing.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")

        let passing = try run(["check", "good.aasa.test", "--app-id", TestWorld.appID] + fetchArguments(world), in: world.directory.url)
        #expect(passing.status == 0)
        #expect(passing.stdout.contains("applinks: \(TestWorld.appID)"))
        #expect(passing.stdout.contains("No findings"))
    }

    @Test func checkJSONIsTheReportRecord() throws {
        let world = try TestWorld()
        let result = try run(["check", "otherapp.aasa.test", "--json", "--app-id", TestWorld.appID] + fetchArguments(world), in: world.directory.url)
        #expect(result.status == 1)
        let record = try JSONReport.makeDecoder().decode(DomainReport.self, from: Data(result.stdout.utf8))
        #expect(record.domain == "otherapp.aasa.test")
        #expect(record.findings.map(\.code) == [.appIDMissing])
        #expect(record.fetches.count == 2)
    }
}
