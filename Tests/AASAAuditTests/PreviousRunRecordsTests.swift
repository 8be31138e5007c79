import Foundation
import Testing

@testable import AASAAudit
@testable import AASAModel

/// The previous run's records on disk give the same changes as the same records in memory
/// (`EarlierRunInMemory`, what `diff` uses): lookups, a domain listed twice, the added and
/// removed domains in their runs' orders.
@Suite struct PreviousRunRecordsTests {
    static let expiry = Date(timeIntervalSince1970: 1_800_000_123.25)

    func snapshot(_ domain: String, _ findings: [Finding], expires: Date? = nil) -> DomainSnapshot {
        DomainSnapshot(
            domain: domain, verdict: Verdict(findings: findings), findings: findings, certificateExpires: expires)
    }

    var earlier: [DomainSnapshot] {
        let redirect = Finding(
            code: .aasa(.httpRedirect), severity: .error, location: .wellKnown,
            message: "HTTP 301 to https://www.a.example/")
        let slow = Finding(
            code: .transfer(.netTimeout), severity: .error, location: .root, message: "timed out after 10000 ms")
        return [
            snapshot("a.example", [redirect], expires: Self.expiry), snapshot("gone.example", []),
            snapshot("b.example", [slow]), snapshot("a.example", []), snapshot("z-gone.example", [slow]),
            snapshot("c.example", []),
        ]
    }

    var current: [DomainSnapshot] {
        let contentType = Finding(
            code: .aasa(.httpContentType), severity: .warning, location: .wellKnown,
            message: "Content-Type is text/plain")
        let slow = Finding(
            code: .transfer(.netTimeout), severity: .error, location: .root, message: "timed out after 10001 ms")
        return [
            snapshot("new.example", []), snapshot("c.example", [contentType]), snapshot("b.example", [slow]),
            snapshot("a.example", []), snapshot("new.example", []),
        ]
    }

    @Test(arguments: [false, true]) func theStoreGivesTheChangesMemoryGives(inMemory: Bool) throws {
        let records = try PreviousRunRecords(inMemory: inMemory)
        for domain in earlier { try records.add(domain) }
        try records.finishLoading()
        #expect(records.count == 6)
        // The first of a name listed twice, its certificate's date to the fraction.
        #expect(try records.record(of: "a.example") == earlier[0])
        #expect(try records.record(of: "nowhere.example") == nil)

        let started = Date(timeIntervalSince1970: 1_790_000_000)
        var collector = RunChanges.Collector(previous: records, previousStartedAt: started)
        for (index, domain) in current.enumerated().reversed() { try collector.add(domain, at: index) }
        let changes = try collector.changes(current: current.map(\.domain))
        let expected = RunChanges.between(previous: earlier, previousStartedAt: started, current: current)
        #expect(changes == expected)
        // What the comparison above rests on: the cases are there.
        #expect(changes.domains.map(\.domain) == ["c.example", "a.example"])
        #expect(changes.addedDomains == ["new.example", "new.example"])
        #expect(changes.removedDomains == ["gone.example", "z-gone.example"])
        // Asked twice (a run's changes are asked once, but nothing in the store forbids it).
        #expect(try records.difference(from: ["c.example"]).removed.count == 5)
    }
}
