import Foundation
import Testing

@testable import AASAModel

/// A file whose bytes are kept from night to night (Apple Pay's merchant file): served both
/// nights with other bytes is news, though both nights pass (issue 58: a deploy that overwrote
/// the provider's file fails Apple's next check).
@Suite struct ChangedFileTests {
    static let before = String(repeating: "ab", count: 32)
    static let after = String(repeating: "cd", count: 32)

    static func report(_ domain: String, sha256: String?) -> DomainReport {
        var report = DomainReport(
            domain: domain, inputLine: 1, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(), findings: [])
        report.ios = AASAWant.iosNone
        report.associations = AssociationRecords(
            ApplePayRecord(expectedApplePaySHA256: [], applePay: sha256.map { ApplePayFile(bytes: 4000, sha256: $0) }))
        return report
    }

    @Test func aChangedFileIsNewsAndTheSameOrAMissingOneIsNot() throws {
        let now = DomainSnapshot(Self.report("shop.example", sha256: Self.after))
        #expect(now.contentDigests == ["applepay": Self.after])
        let change = try #require(now.change(since: DomainSnapshot(Self.report("shop.example", sha256: Self.before))))
        #expect(change.changedFiles == [ChangedFile(file: "applepay", from: Self.before, to: Self.after)])
        #expect(change.verdict == nil && change.newFindings.isEmpty && change.resolvedFindings.isEmpty)
        #expect(
            change.changedFiles?.first?.sentence.hasPrefix("apple-developer-merchantid-domain-association changed")
                == true)
        #expect(now.change(since: DomainSnapshot(Self.report("shop.example", sha256: Self.after))) == nil)
        // Not served one night: the findings say so, not a digest.
        #expect(now.change(since: DomainSnapshot(Self.report("shop.example", sha256: nil))) == nil)

        let changes = RunChanges(
            previousRunStartedAt: Date(timeIntervalSince1970: 0), domains: [change], addedDomains: [],
            removedDomains: [])
        #expect(changes.openChanges.domains == [change] && changes.withoutNotes.domains == [change])
        #expect(changes.regressions.isEmpty, "news, not a failure")
    }

    /// The previous run is read back from its report's records (only the digested sections
    /// decoded), and from a snapshot's own encoding, to the same digests.
    @Test func theDigestsReadBackFromAReportRecordAndASnapshot() throws {
        let report = Self.report("shop.example", sha256: Self.before)
        let encoder = JSONEncoder()
        let fromRecord = try JSONDecoder().decode(DomainSnapshot.self, from: try encoder.encode(report))
        #expect(fromRecord.contentDigests == ["applepay": Self.before])
        let snapshot = DomainSnapshot(report)
        #expect(try JSONDecoder().decode(DomainSnapshot.self, from: try encoder.encode(snapshot)) == snapshot)
        var plain = report
        plain.associations = AssociationRecords()
        #expect(try JSONDecoder().decode(DomainSnapshot.self, from: try encoder.encode(plain)).contentDigests == nil)
    }

    /// The alert lists it for `--notify-on changes`, not for failures, and its text says so.
    @Test func theAlertListsAChangedFile() throws {
        let change = try #require(
            DomainSnapshot(Self.report("shop.example", sha256: Self.after)).change(
                since: DomainSnapshot(Self.report("shop.example", sha256: Self.before))))
        let alert = RunAlert(
            run: RunAlert.Run(
                startedAt: Date(timeIntervalSince1970: 86_400), folder: "/r/x", report: "/r/x/report.html",
                previousRunStartedAt: Date(timeIntervalSince1970: 0)),
            verdicts: VerdictCounts(),
            changes: RunChanges(
                previousRunStartedAt: Date(timeIntervalSince1970: 0), domains: [change], addedDomains: [],
                removedDomains: []),
            flagged: [])
        #expect(alert.counts.changedFiles == 1 && alert.changedFiles?.first?.changedFiles == change.changedFiles)
        #expect(alert.isSent(on: .changes) && !alert.isSent(on: .failures))
        #expect(
            alert.text.contains("1 changed file") && alert.text.contains("Changed files: shop.example ("),
            "\(alert.text)")
        #expect(alert.failures.isEmpty && alert.warnings.isEmpty && alert.recoveries.isEmpty)
    }
}
