import AASAModel
import AASAReport
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
}
