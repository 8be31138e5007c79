import AASAModel
import AASAReport
import AuditTestSupport
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import AASAAudit

/// `audit --resume` after `kill -9` (issue 38, item 3): the run's journal keeps the domains it
/// finished; the resumed run audits only the rest, and its report, history line and alert are
/// an uninterrupted run's.
@Suite(.live, .tags(.live)) struct ResumeTests {
    static let count = 1000

    /// Night 1: every host serves the file the list expects (one in ten serves nothing). Night 2:
    /// one in ten expects another app, a new failure each: an alert to send.
    static func host(_ position: Int) -> String {
        let index = position + 1
        return index % 10 == 0 ? "missing\(index).aasa.test" : "good\(index).aasa.test"
    }

    static func domains(night: Int) -> String {
        (1...count).map { index in
            let host = host(index - 1)
            let app = night == 2 && index % 10 == 5 ? "ABCDE12346.com.example.other" : TestWorld.appID
            return "\(host) \(app)"
        }.joined(separator: "\n") + "\n"
    }

    /// The world's answers, for the first `answered` domains of the list only: the others' requests
    /// are held unanswered (within the run's long timeout), so that a run cannot finish before
    /// the test kills it, whatever the machine's load.
    final class GatedServer: Sendable {
        final class Limit: Sendable {
            let value = Mutex(Int.max)
        }
        let server: LoopbackServer
        let limit = Limit()

        init(_ world: TestWorld) throws {
            let limit = limit
            server = try LoopbackServer(identity: try world.pki.issueServerIdentity(for: ["*.aasa.test"])) {
                host, path, agent in
                let number = Int(host.prefix { $0 != "." }.filter(\.isNumber)) ?? 0
                guard number <= limit.value.withLock({ $0 }) else { return .hang }
                return TestWorld.answer(host: host, path: path, userAgent: agent)
            }
        }

        /// Answers the first `count` domains only (nil: all).
        func answer(first count: Int?) { limit.value.withLock { $0 = count ?? Int.max } }

        deinit { server.shutdown() }
    }

    func arguments(_ world: TestWorld, _ gated: GatedServer, out: String, receiver: HistoryAndAlertTests.Receiver)
        -> [String]
    {
        [
            "audit", "--out", out, "--concurrency", "16", "--timeout", "120", "--connect-to", gated.server.connectTo,
            "--cacert", world.caFile, "--no-cdn", "--no-ua-check", "--notify",
            "http://127.0.0.1:\(receiver.server.port)/hook",
        ] + LoopbackNetworks.allowArguments
    }

    /// What must not differ between an uninterrupted night and a resumed one: each domain's
    /// verdict and findings, the summary, the changes, the history line's domains and the alert
    /// (times, folders and fetch timings aside).
    struct Outcome: Equatable {
        var domains: [String]
        var summary: ReportSummary
        var changes: RunChanges?
        var history: [HistoryDomain]
        var alert: [String]
        /// report.html's served files, shown or pointed to: the journal keeps failing domains' files.
        var htmlFiles: Int

        init(out: URL, receiver: HistoryAndAlertTests.Receiver) throws {
            let run = try #require(RunFolders.names(in: out).max())
            let report = try JSONReport.makeDecoder().decode(
                AuditReport.self, from: Data(contentsOf: out.appendingPathComponent("\(run)/report.json")))
            #expect(report.run.complete)
            let html = try String(contentsOf: out.appendingPathComponent("\(run)/report.html"), encoding: .utf8)
            htmlFiles =
                html.components(separatedBy: "<pre class=\"file\">").count
                + html.components(separatedBy: "Identical to the file").count - 2
            domains = report.domains.map { domain in
                "\(domain.domain) \(domain.verdict) "
                    + domain.findings.map { "\($0.code.rawValue)/\($0.severity)/\($0.location)/\($0.message)" }
                    .joined(separator: ";")
            }
            summary = report.summary
            changes = report.changes
            if var changes { changes.previousRunStartedAt = Date(timeIntervalSince1970: 0) }
            let line = try #require(RunHistoryStore.lastLine(of: out.appendingPathComponent("history.json")))
            let entry = try JSONReport.makeDecoder().decode(HistoryRun.self, from: line)
            #expect(entry.run == run)
            history = entry.domains
            let alert = try receiver.alert(receiver.posts.count - 1)
            self.alert =
                [
                    // (Without the lines that name the run's own folders.)
                    alert.text.split(separator: "\n").dropFirst().filter {
                        !$0.hasPrefix("Report: ") && !$0.hasPrefix("Fleet: ")
                    }
                    .joined(separator: "\n"), "\(alert.verdicts)",
                ]
                + (alert.failures + alert.warnings + alert.recoveries).map { "\($0.domain) \($0.verdict)" }
        }
    }

    @Test func aRunKilledAtAnyPointResumesToTheSameNight() async throws {
        let world = try TestWorld()
        let gated = try GatedServer(world)
        let dir = world.directory.url
        let list = dir.appendingPathComponent("domains.txt")
        let reference = try HistoryAndAlertTests.Receiver(statuses: [200])
        try Self.domains(night: 1).write(to: list, atomically: true, encoding: .utf8)
        let first = try await CommandLineTests().run(arguments(world, gated, out: "a", receiver: reference), in: dir)
        #expect(first.status == 1, "\(first.stderr)")
        let points = [0, RunJournal.batchDomains, 3 * RunJournal.batchDomains]
        for point in points {
            try FileManager.default.copyItem(
                at: dir.appendingPathComponent("a"), to: dir.appendingPathComponent("b\(point)"))
        }
        try Self.domains(night: 2).write(to: list, atomically: true, encoding: .utf8)
        let uninterrupted = try await CommandLineTests().run(
            arguments(world, gated, out: "a", receiver: reference), in: dir)
        #expect(uninterrupted.status == 1, "\(uninterrupted.stderr)")
        let expected = try Outcome(out: dir.appendingPathComponent("a"), receiver: reference)
        #expect(expected.changes?.regressions.count == Self.count / 10)
        #expect(expected.htmlFiles >= 2 * Self.count / 10, "\(expected.htmlFiles)")

        for point in points {
            let out = dir.appendingPathComponent("b\(point)")
            let receiver = try HistoryAndAlertTests.Receiver(statuses: [200])
            // The first `point` domains and a few more are answered; the rest wait until the kill.
            gated.answer(first: point == 0 ? 0 : point + 20)
            let killed = try await killed(
                arguments(world, gated, out: out.lastPathComponent, receiver: receiver), in: dir, out: out,
                journaled: point)
            gated.answer(first: nil)
            #expect(killed < Self.count, "the run was killed with \(killed) domains journaled")
            #expect(receiver.posts.isEmpty)
            let folder = out.appendingPathComponent(try #require(RunFolders.names(in: out).last))
            let kept = Self.journaledPositions(in: folder)
            let requestsBefore = gated.server.requests.count
            let resumed = try await CommandLineTests().run(
                arguments(world, gated, out: out.lastPathComponent, receiver: receiver) + ["--resume"], in: dir)
            #expect(resumed.status == 1, "\(resumed.stderr)")
            // Only what the journal did not hold was fetched again.
            let fetched = Set(gated.server.requests.dropFirst(requestsBefore).map(\.host))
            #expect(fetched.count == Self.count - kept.count && kept.count >= point, "\(kept.count) kept")
            #expect(kept.allSatisfy { !fetched.contains(Self.host($0)) })
            let outcome = try Outcome(out: out, receiver: receiver)
            #expect(outcome == expected, "killed at \(killed)")
            #expect(RunFolders.names(in: out).count == 2)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(RunJournal.fileName).path))
            // A complete run has nothing to resume: a cron line that always passes --resume gets
            // a new run, and the summary says so (issue 47, item 6).
            let again = try await CommandLineTests().run(
                arguments(world, gated, out: out.lastPathComponent, receiver: receiver) + ["--resume"], in: dir)
            #expect(again.status == 1 && again.stdout.hasPrefix("Nothing to resume"), "\(again.stdout)\(again.stderr)")
            #expect(RunFolders.names(in: out).count == 3)
        }
    }

    /// Starts a run and kills it (SIGKILL) once its journal holds at least `journaled` domains
    /// (0: as soon as the journal exists); returns how many it held.
    func killed(_ arguments: [String], in directory: URL, out: URL, journaled: Int) async throws -> Int {
        let before = Set(RunFolders.names(in: out))
        let process = try ProcessRunner.start(CommandLineTests.binary, arguments, in: directory)
        var held = 0
        let deadline = ContinuousClock.now + .seconds(600)  // a failure's bound only: one core can be away a minute
        while ContinuousClock.now < deadline {
            if let run = RunFolders.names(in: out).first(where: { !before.contains($0) }),
                let count = Self.journaled(in: out.appendingPathComponent(run)), count >= journaled
            {
                held = count
                break
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        process.send(SIGKILL)
        _ = await process.finished()
        return held
    }

    /// The input positions of the domains a run folder's journal holds.
    static func journaledPositions(in run: URL) -> [Int] {
        guard
            let database = try? SQLiteDatabase(
                path: run.appendingPathComponent(RunJournal.fileName).path, create: false),
            let select = try? database.prepare("SELECT position FROM domains")
        else { return [] }
        var positions: [Int] = []
        while (try? select.step()) == true { positions.append(select.int(0)) }
        return positions
    }

    /// Domains committed to a run folder's journal; nil while it has none.
    static func journaled(in run: URL) -> Int? {
        let path = run.appendingPathComponent(RunJournal.fileName).path
        guard FileManager.default.fileExists(atPath: path),
            let database = try? SQLiteDatabase(path: path, create: false),
            let count = try? database.prepare("SELECT count(*) FROM domains"), (try? count.step()) == true
        else { return nil }
        return count.int(0)
    }
}
