import AASAChecks
import AASAFetch
import AASAModel
import AASAReport
import Foundation
import Testing

@testable import AASAAudit

/// What an interrupted run says changed: only the domains it reached are compared with the
/// previous run (read alongside the audit); an unreached one did not "resolve" its findings.
@Suite struct RunAccumulatorTests {
    func report(_ domain: String, _ findings: [Finding]) -> DomainReport {
        DomainReport(
            domain: domain, inputLine: nil, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(), findings: findings
        )
    }

    @Test func unreachedDomainsAreNotComparedWithThePreviousRun() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("previous-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let failing = [Finding(.httpStatus, .wellKnown, "404")]
        let encoder = JSONReport.makeEncoder()
        let settings = AuditSettings(
            inputFiles: ["domains.txt"], outputDirectory: directory, concurrency: 1,
            fetcher: FetcherConfiguration(userAgent: "test"), failOn: .error)
        let info = RunInfo(
            startedAt: Date(timeIntervalSince1970: 1_793_502_000),
            finishedAt: Date(timeIntervalSince1970: 1_793_502_060), complete: true, options: settings.runOptions)
        var lines = [#"{"domains":["#]
        for domain in ["a.example", "b.example"] {
            lines.append(String(decoding: try encoder.encode(report(domain, failing)), as: UTF8.self) + ",")
        }
        lines.append(#"],"run":"# + String(decoding: try encoder.encode(info), as: UTF8.self) + "}")
        let latest = directory.appendingPathComponent("latest.json")
        try lines.joined(separator: "\n").appending("\n").write(to: latest, atomically: true, encoding: .utf8)

        var accumulator = RunAccumulator(
            domainCount: 2, previous: PreviousRunReader(try FileHandle(forReadingFrom: latest)))
        accumulator.add(AuditedDomain(index: 0, report: report("a.example", []), served: []))
        accumulator.add(
            AuditedDomain(index: 1, report: DomainChecks.notAudited(DomainTarget(domain: "b.example")), served: []),
            reached: false)
        accumulator.finishComparing(interrupted: false)
        let made = accumulator.runChanges(domains: ["a.example", "b.example"])
        let changes = try #require(made)
        #expect(changes.domains.map(\.domain) == ["a.example"])
        #expect(changes.domains.first?.resolvedFindings.map(\.code) == [.httpStatus])
        #expect(changes.addedDomains.isEmpty && changes.removedDomains.isEmpty)
    }
}
