import AuditTestSupport
import Foundation
import TestSupport
import Testing

@testable import AASAAudit
@testable import AASAModel

/// The commands' use cases, in-process: what the CLI calls, without the CLI.
@Suite struct UseCaseTests {
    func write(_ text: String, to name: String, in directory: TemporaryDirectory) throws -> String {
        let url = directory.url.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func theDomainsFileIsReadWithEveryLineAccountedFor() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try write(
            "a.example ABCDE12346.com.example.app\nb.example:443\nA.example\n", to: "d.txt", in: directory)
        let input = try AuditInput.load(domainsFile: path, entitlements: [], appIDs: [])
        #expect(input.files == [path])
        #expect(input.targets.map(\.domain) == ["a.example"])
        #expect(input.problems.map(\.line) == [2, 3])
    }

    @Test func inputErrorsSayWhatAndWhere() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.url.appendingPathComponent("none.txt").path
        #expect(throws: FileReadError(path: missing, reason: "no such file", role: "the domains file")) {
            try AuditInput.load(domainsFile: missing, entitlements: [], appIDs: [])
        }
        let empty = try write("# only a comment\nx.example:8443\n", to: "e.txt", in: directory)
        do {
            _ = try AuditInput.load(domainsFile: empty, entitlements: [], appIDs: [])
            Issue.record("an input with no domain must be refused")
        } catch let error as InputError {
            #expect(error.message == "\(empty) lists no domain to audit.")
            #expect(error.exitStatus == .usage)
            #expect(
                error.context.count == 1 && error.context[0].hasPrefix("\(empty):2: \"x.example:8443\" names a port"))
        }
        #expect(throws: InputError.self) { try AuditInput.validateAppIDs(["TEAM_ID.com.example.app"]) }
        #expect(try AuditInput.host("Example.COM.") == "example.com")
    }

    @Test func theBoundedReaderReadsAPrefixAndTheWholeSize() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try write(String(repeating: "x", count: 100), to: "f", in: directory)
        let contents = try BoundedFileReader.read(path, prefix: 10)
        #expect(contents.bytes.count == 10 && contents.size == 100 && contents.truncated)
        #expect(throws: FileReadError(path: path, reason: "it is larger than 0 MiB")) {
            try BoundedFileReader.readWhole(path, limit: 10)
        }
        #expect(throws: FileReadError(path: directory.path, reason: "it is a directory, not a regular file")) {
            try BoundedFileReader.read(directory.path, prefix: 10)
        }
    }

    @Test func lintAndMatchWorkOnLocalFiles() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try write(TestWorld.validFile, to: "aasa.json", in: directory)
        let records = LocalLint.run([file, directory.url.appendingPathComponent("missing").path], options: .init())
        #expect(records.map(\.verdict) == [.pass, .fail])
        #expect(records[1].error?.contains("no such file") == true)

        let matches = try await URLMatching.run(
            ["https://example.com/buy/1", "https://example.com/help"], against: .file(path: file, host: "example.com"))
        #expect(matches.map(\.result) == [.app, .none])
        let invalid = try write("{,}", to: "invalid.json", in: directory)
        await #expect(throws: URLMatching.UnusableFile.self) {
            try await URLMatching.run(["https://example.com/"], against: .file(path: invalid, host: nil))
        }
        await #expect(throws: FileReadError.self) {
            try await URLMatching.run(["https://example.com/"], against: .file(path: records[1].file, host: nil))
        }
    }

    @Test(.live, .tags(.live)) func checkAndMatchFetchFromALoopbackServer() async throws {
        let world = try TestWorld()
        let report = try await DomainCheck.run(
            domain: "Good.AASA.test.", aasa: AASAWant(appIDs: [TestWorld.appID]), validation: .init(),
            deviceView: .originOnly,
            fetcher: world.fetcherConfiguration())
        #expect(report.domain == "good.aasa.test")
        #expect(report.verdict == .pass)
        let matches = try await URLMatching.run(
            ["https://good.aasa.test/buy/7"], against: .domain("good.aasa.test", world.fetcherConfiguration()))
        #expect(matches.first?.appIDs == [TestWorld.appID])
        do {
            _ = try await URLMatching.run(
                ["https://missing.aasa.test/"], against: .domain("missing.aasa.test", world.fetcherConfiguration()))
            Issue.record("a host serving no file must be refused")
        } catch let error as URLMatching.UnusableFile {
            #expect(error.exitStatus == .failed)
            #expect(error.message.contains("HTTP 404"))
        }
    }

    @Test func theExitPolicyNamesEachOutcome() {
        func result(_ verdicts: [Verdict], complete: Bool = true) -> AuditRunResult {
            let flagged = verdicts.enumerated().compactMap { index, verdict in
                FlaggedDomain(
                    DomainReport(
                        domain: "d\(index).example", inputLine: nil, expectedAppIDs: [], fetches: [],
                        appIDs: ServiceAppIDs(),
                        findings: verdict == .pass
                            ? [] : [Finding(verdict == .fail ? .aasa(.httpStatus) : .aasa(.cdnStale), .wellKnown, "x")])
                )
            }
            let url = URL(fileURLWithPath: "/nonexistent")
            return AuditRunResult(
                runDirectory: url, reportJSON: url, reportHTML: url, summary: ReportSummary(), flaggedDomains: flagged,
                complete: complete, durationSeconds: 0)
        }
        let problem = InputProblem(file: "d.txt", line: 1, text: "x", severity: .error, message: "bad")
        #expect(ExitPolicy.audit(result([.pass, .warn]), problems: [], failOn: .error, interruptedBy: nil) == .success)
        #expect(
            ExitPolicy.audit(result([.pass, .warn]), problems: [], failOn: .warning, interruptedBy: nil) == .failed)
        #expect(ExitPolicy.audit(result([.fail]), problems: [], failOn: .error, interruptedBy: nil) == .failed)
        #expect(ExitPolicy.audit(result([.pass]), problems: [problem], failOn: .error, interruptedBy: nil) == .failed)
        #expect(
            ExitPolicy.audit(result([.pass], complete: false), problems: [], failOn: .error, interruptedBy: nil)
                == .failed)
        #expect(
            ExitPolicy.audit(result([.pass], complete: false), problems: [], failOn: .error, interruptedBy: SIGTERM)
                == ExitStatus(143))
        #expect(ExitPolicy.verdicts([.pass, .warn], failOn: .error) == .success)
        #expect(ExitPolicy.verdicts([.pass, .warn], failOn: .warning) == .failed)
    }
}

/// A console that keeps what was written to standard error.
final class RecordingConsole: Console, @unchecked Sendable {
    private let lock = NSLock()
    private var written = ""
    var errorText: String { lock.withLock { written } }
    func print(_ text: String) {}
    func printError(_ text: String) { lock.withLock { written += text } }
    var colour: Bool { false }
    var errorIsTerminal: Bool { true }
}

@Suite struct ProgressLineTests {
    /// A slow domain shows as what the run waits on, with the time it has taken so far.
    @Test func theLineNamesTheDomainTheRunWaitsOn() {
        let console = RecordingConsole()
        let line = ProgressLine(console: console)
        let since = ContinuousClock.now - .seconds(5)
        line.update(
            AuditProgress(done: 3, total: 10, failing: 1, elapsedSeconds: 6, oldestInFlight: ("slow.example", since)))
        #expect(console.errorText.contains("3/10 domains"))
        #expect(console.errorText.contains("1 failing"))
        #expect(console.errorText.contains("waiting on slow.example (5 s)"), "\(console.errorText)")
        line.clear()
        #expect(ProgressLine.duration(75) == "1 min 15 s")
    }
}
