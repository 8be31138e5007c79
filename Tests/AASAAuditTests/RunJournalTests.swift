import AASAModel
import AASAReport
import AuditTestSupport
import Foundation
import TestSupport
import Testing

@testable import AASAAudit

/// The run's journal without a network: what it keeps, what it refuses to resume, and a row
/// that does not read back (audited again, not a crash).
@Suite struct RunJournalTests {
    func report(_ domain: String) -> DomainReport {
        DomainReport(
            domain: domain, inputLine: 1, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(), findings: [])
    }

    @Test func aJournalKeepsRecordsAndFilesAndRefusesAnotherList() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = directory.url
        let started = Date(timeIntervalSince1970: 1_795_000_000)
        let (journal, startedAt) = try RunJournal.open(
            for: run, domains: ["a.test", "b.test"], startedAt: started, resuming: false)
        #expect(startedAt == started)
        let file = ServedBody(
            location: .wellKnown, sha256: "ab", source: .raw(bytes: Array("{not json".utf8), totalBytes: 9))
        var failing = AuditedDomain(index: 1, report: report("b.test"), served: [file])
        failing.report.verdict = .fail
        try journal.append(
            position: 1, record: JSONReport.encodeRecord(failing.report), served: JournaledFiles.encode(failing))
        try journal.append(position: 0, record: Data("{\"domain\": broken".utf8), served: nil)
        try journal.commit()

        let (resumed, resumedStart) = try RunJournal.open(
            for: run, domains: ["a.test", "b.test"], startedAt: Date(), resuming: true)
        #expect(resumedStart == started)
        var read: [AuditedDomain] = []
        try resumed.forEach { read.append($0) }
        // The broken row is skipped (that domain is audited again); the failing one is whole.
        #expect(read.map(\.index) == [1] && read.first?.report.domain == "b.test")
        #expect(read.first?.served.first?.displayText == "{not json")

        #expect(throws: AuditRunError.self) {
            _ = try RunJournal.open(for: run, domains: ["a.test", "c.test"], startedAt: Date(), resuming: true)
        }
        do {
            _ = try RunJournal.open(for: run, domains: ["a.test"], startedAt: Date(), resuming: true)
        } catch {
            #expect(error.message.contains("its domain list was not this one"), "\(error.message)")
        }
        resumed.remove()
        do {
            _ = try RunJournal.open(for: run, domains: ["a.test", "b.test"], startedAt: Date(), resuming: true)
            Issue.record("a folder without a journal was resumed")
        } catch {
            #expect(error.message.contains("nothing to resume"), "\(error.message)")
        }
    }

    @Test func aListsFingerprintFollowsItsNamesAndOrder() {
        let one = RunJournal.fingerprint(of: ["a.test", "b.test"])
        #expect(one == RunJournal.fingerprint(of: ["a.test", "b.test"]))
        #expect(one != RunJournal.fingerprint(of: ["b.test", "a.test"]))
        #expect(one != RunJournal.fingerprint(of: ["a.testb.test"]))
        #expect(one.hasPrefix("2-"))
    }

    /// A damaged journal is refused or read around, never a crash (issue 46, item 9: `--resume`
    /// ended with a trap, exit 132, on a negative row or a start time of inf): a row of no
    /// position of the list is audited again; a start that is no time is refused, saying so.
    @Test(.live, .tags(.live)) func aDamagedJournalIsReadAroundOrRefused() async throws {
        let world = try TestWorld()
        let dir = world.directory.url
        let domains = ["good.aasa.test", "missing.aasa.test"]
        try domains.joined(separator: "\n").appending("\n").write(
            to: dir.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let run = dir.appendingPathComponent(
            "reports/\(RunFolderName(startedAt: Date(timeIntervalSince1970: 1_795_000_000)))")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: run.appendingPathComponent(RunDirectory.marker).path, contents: Data())
        let (journal, _) = try RunJournal.open(
            for: run, domains: domains, startedAt: Date(timeIntervalSince1970: 1_795_000_000), resuming: false)
        try journal.append(position: -1, record: JSONReport.encodeRecord(report("missing.aasa.test")), served: nil)
        try journal.append(position: 7, record: JSONReport.encodeRecord(report("good.aasa.test")), served: nil)
        try journal.commit()
        let arguments =
            ["audit", "domains.txt", "--resume", "--connect-to", world.connectTo, "--cacert", world.caFile, "--no-cdn"]
            + LoopbackNetworks.allowArguments
        let resumed = try await ProcessRunner.run(CommandLineTests.binary, arguments, in: dir)
        #expect(resumed.status == 1, "\(resumed.status): \(resumed.stderr)")
        #expect(resumed.stdout.contains("2 domains"), "\(resumed.stdout)")

        let again = dir.appendingPathComponent(
            "reports/\(RunFolderName(startedAt: Date(timeIntervalSince1970: 1_895_000_000)))")
        try FileManager.default.createDirectory(at: again, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: again.appendingPathComponent(RunDirectory.marker).path, contents: Data())
        let (damaged, _) = try RunJournal.open(
            for: again, domains: domains, startedAt: Date(timeIntervalSince1970: 1_895_000_000), resuming: false)
        try damaged.commit()
        // Damaged from outside, as an edit or a bad disk would: a second connection to the file.
        let database = try SQLiteDatabase(path: damaged.url.path, create: false)
        try database.execute("UPDATE meta SET value = 'inf' WHERE key = 'startedAt'")
        database.close()
        let refused = try await ProcessRunner.run(CommandLineTests.binary, arguments, in: dir)
        #expect(refused.status == 2 && refused.stderr.contains("damaged"), "\(refused.status): \(refused.stderr)")
    }

    /// A run made while the newest run folder holds an interrupted run's journal says so: that
    /// run stays incomplete, and --resume would finish it (issue 47, item 6: a run after kill -9
    /// said nothing of the folder it left).
    @Test(.live, .tags(.live)) func aNewRunSaysAnInterruptedOneWasLeft() async throws {
        let world = try TestWorld()
        let dir = world.directory.url
        try "good.aasa.test\n".write(to: dir.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let run = dir.appendingPathComponent(
            "reports/\(RunFolderName(startedAt: Date(timeIntervalSince1970: 1_795_000_000)))")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: run.appendingPathComponent(RunDirectory.marker).path, contents: Data())
        _ = try RunJournal.open(
            for: run, domains: ["good.aasa.test"], startedAt: Date(timeIntervalSince1970: 1_795_000_000),
            resuming: false)
        let result = try await ProcessRunner.run(
            CommandLineTests.binary,
            ["audit", "--connect-to", world.connectTo, "--cacert", world.caFile, "--no-cdn"]
                + LoopbackNetworks.allowArguments, in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasPrefix("The run in \(run.path) was interrupted and stays incomplete"), "\(result.stdout)")
    }
}
