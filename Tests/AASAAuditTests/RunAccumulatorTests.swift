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
        let failing = [Finding(.aasa(.httpStatus), .wellKnown, "404")]
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
        #expect(changes.domains.first?.resolvedFindings.map(\.code) == [.aasa(.httpStatus)])
        #expect(changes.addedDomains.isEmpty && changes.removedDomains.isEmpty)
    }
}

/// A previous run slower to read than the audit is to finish domains: at most
/// `RunAccumulator.maximumWaiting` domains wait for it, then the run waits for the reading,
/// and every domain is still compared.
@Suite struct RunAccumulatorWaitingTests {
    func report(_ domain: String, _ findings: [Finding]) -> DomainReport {
        DomainReport(
            domain: domain, inputLine: nil, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(), findings: findings
        )
    }

    @Test func domainsWaitingForASlowPreviousRunAreBounded() throws {
        let count = RunAccumulator.maximumWaiting + 2
        let names = (0..<count).map { "d\($0).example" }
        let failing = [Finding(.aasa(.httpStatus), .wellKnown, "404")]
        // The previous run, written into a pipe only once the audit has gone past the bound.
        let pipe = Pipe()
        var accumulator = RunAccumulator(domainCount: count, previous: PreviousRunReader(pipe.fileHandleForReading))
        let encoder = JSONReport.makeEncoder()
        let info = RunInfo(
            startedAt: Date(timeIntervalSince1970: 1_793_502_000),
            finishedAt: Date(timeIntervalSince1970: 1_793_502_060), complete: true,
            options: AuditSettings(
                inputFiles: ["domains.txt"], outputDirectory: URL(fileURLWithPath: "/nonexistent"), concurrency: 1,
                fetcher: FetcherConfiguration(userAgent: "test"), failOn: .error
            ).runOptions)
        var lines = [#"{"domains":["#]
        // Every domain failed then; the first and the last pass now.
        for name in names {
            lines.append(String(decoding: try encoder.encode(report(name, failing)), as: UTF8.self) + ",")
        }
        lines.append(#"],"run":"# + String(decoding: try encoder.encode(info), as: UTF8.self) + "}")
        let document = Data(lines.joined(separator: "\n").appending("\n").utf8)

        var peak = 0
        for (index, name) in names.enumerated() {
            if index == RunAccumulator.maximumWaiting {
                // The bound is reached: the next domain waits until the previous run is read.
                let writer = pipe.fileHandleForWriting
                Thread.detachNewThread {
                    Thread.sleep(forTimeInterval: 0.2)
                    try? writer.write(contentsOf: document)
                    try? writer.close()
                }
            }
            let passes = index == 0 || index == count - 1
            accumulator.add(AuditedDomain(index: index, report: report(name, passes ? [] : failing), served: []))
            peak = max(peak, accumulator.waitingCount)
        }
        #expect(peak == RunAccumulator.maximumWaiting)
        #expect(accumulator.waitingCount == 0)
        accumulator.finishComparing(interrupted: false)
        let made = accumulator.runChanges(domains: names)
        let changes = try #require(made)
        #expect(changes.domains.map(\.domain) == [names[0], names[count - 1]])
        #expect(changes.domains.allSatisfy { $0.resolvedFindings.map(\.code) == [.aasa(.httpStatus)] })
        #expect(changes.addedDomains.isEmpty && changes.removedDomains.isEmpty)
    }
}
