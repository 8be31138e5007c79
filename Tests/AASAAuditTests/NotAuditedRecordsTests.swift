import AASAChecks
import AASAFetch
import AASAModel
import AASAReport
import Foundation
import Testing

@testable import AASAAudit

/// The records of domains an interrupted run did not reach, made from placeholders, are byte
/// for byte what every output renders for them.
@Suite struct NotAuditedRecordsTests {
    @Test func placeholderRecordsAreWhatTheOutputsRender() throws {
        var settings = AuditSettings(
            inputFiles: ["domains.txt"], outputDirectory: URL(fileURLWithPath: "/nonexistent"), concurrency: 1,
            fetcher: FetcherConfiguration(userAgent: "test"), failOn: .error)
        settings.junitFile = URL(fileURLWithPath: "/nonexistent/junit.xml")
        settings.metricsFile = URL(fileURLWithPath: "/nonexistent/metrics.prom")
        var records = NotAuditedRecords(outputs: Outputs(settings: settings).all)
        let targets = [
            DomainTarget(domain: "example.com", inputLine: 3),
            DomainTarget(domain: "987654321.example.org", inputLine: 876_543_219),
            DomainTarget(
                domain: "shop-2.example.net",
                expectedAppIDs: ["ABCDE12345.com.example.app", "FGHIJ67890.com.example.other"], inputLine: 12),
            DomainTarget(domain: "entitled.example", expectedAppIDs: ["ABCDE12345.com.example.app"]),
            DomainTarget(domain: "xn--bcher-kva.example", inputLine: 9),
        ]
        var fastOnes = 0
        for (number, target) in targets.enumerated() {
            for index in [0, 7, 123_456 + number] {
                let fast = records.render(target, index: index)
                let slow = records.slowRender(target, index: index)
                #expect(fast.count == 4 && fast.compactMap { $0 }.count >= 3)
                for (made, rendered) in zip(fast, slow) {
                    #expect(
                        made == rendered,
                        "\(target.domain) at \(index): \(String(decoding: made ?? Data(), as: UTF8.self))")
                }
                if NotAuditedRecords.isPlain(target.domain) { fastOnes += 1 }
            }
        }
        #expect(fastOnes == 12)
        #expect(
            !NotAuditedRecords.isPlain("xn--bcher-kva.example") && !NotAuditedRecords.isPlain("a.xn--p1ai")
                && !NotAuditedRecords.isPlain("Example.com"))
    }
}

/// The spool behind the reports: pieces appended in completion order come back in input order,
/// whether they are buffered, read together or larger than a read.
@Suite struct OrderedSpoolTests {
    @Test func piecesComeBackInInputOrder() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = 3_000
        let spool = try OrderedSpool(url: directory.appendingPathComponent("pieces"), capacity: count)
        defer { spool.remove() }
        func piece(_ index: Int) -> Data {
            // Mostly small; a few larger than a buffer or a read; index 11 never appended.
            let size = index % 997 == 5 ? (3 << 20) + index : index % 13 + 1
            return Data(repeating: UInt8(index % 251), count: size)
        }
        // Completion order: mostly in order, with some pieces late.
        let order = (0..<count).filter { $0 % 50 != 0 && $0 != 11 } + (0..<count).filter { $0 % 50 == 0 }.reversed()
        for index in order { try spool.append(piece(index), at: index) }
        var read: [Data] = []
        try spool.forEachInOrder { read.append($0) }
        let expected = (0..<count).filter { $0 != 11 }.map(piece)
        #expect(read.count == expected.count)
        #expect(read == expected)
    }
}

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
