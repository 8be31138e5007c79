import AASAAudit
import AASAFetch
import AASAModel
import AASAReport
import AuditTestSupport
import DomainList
import Foundation
import TestSupport
import Testing

/// Politeness per resolved address (issue 38, item 2): many domains behind one address take
/// turns, and none of them is reported failing for it.
@Suite(.live, .tags(.live)) struct PolitenessTests {
    /// The defaults the README and docs/robustness.md state are the code's (`PolitenessLimits`).
    @Test func theDocumentedDefaultsAreTheCodes() throws {
        let root = ArchitectureMapTests.root
        let limits = PolitenessLimits()
        let expected = [
            "--per-address N": "\(limits.connectionsPerAddress)",
            "--dns-rate R": (limits.lookupsPerSecond ?? 0).formatted(.number.grouping(.never)),
            "--per-address-rate R": limits.newConnectionsPerSecond == nil ? "no limit" : "",
        ]
        for file in ["README.md", "docs/robustness.md"] {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (option, value) in expected {
                let row = text.split(separator: "\n").first { $0.hasPrefix("| `\(option)` |") }
                let stated = row.map { $0.split(separator: "|")[1].trimmingCharacters(in: .whitespaces) }
                #expect(stated == value, "\(file): \(option) says \(stated ?? "nothing")")
            }
        }
    }

    /// 2,000 domains on one address at `--concurrency 500`: the server's own count of open
    /// connections, sampled every millisecond, never passes `--per-address`, and every domain
    /// passes. With the default one curl loop, and with two sharing the gate (`--fetch-threads 2`).
    @Test(arguments: [1, 2]) func domainsBehindOneAddressTakeTurns(loops: Int) async throws {
        let world = try TestWorld()
        world.server.sampleEstablishedConnections()
        let cap = 12
        var fetcher = world.fetcherConfiguration(timeout: 120, concurrency: 500)
        fetcher.politeness = PolitenessLimits(connectionsPerAddress: cap)
        fetcher.loopThreads = loops
        let settings = AuditSettings(
            inputFiles: ["domains.txt"], outputDirectory: world.directory.url.appendingPathComponent("reports"),
            concurrency: 500, fetcher: fetcher, failOn: .error)
        let targets = (1...2000).map { (index: Int) in
            DomainTarget(domain: "good\(index).aasa.test", expectedAppIDs: [TestWorld.appID], inputLine: index)
        }
        let result = try await AuditRun.run(targets: targets, inputProblems: [], settings: settings)
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: result.reportJSON))
        #expect(report.domains.count == 2000)
        let notPassing = report.domains.filter { $0.verdict != .pass }
        #expect(
            notPassing.isEmpty, "\(notPassing.count): \(notPassing.first.map { "\($0.domain): \($0.findings)" } ?? "")")
        let (peak, samples) = world.server.peakEstablishedConnections
        #expect(samples > 10)
        #expect(peak <= cap, "the server had \(peak) connections open at once")
        // The limit was reached (500 domains in flight wanted more), so the bound above is held
        // by the gate and not by a slow start.
        #expect(peak >= cap / 2, "peak \(peak)")
        #expect(world.server.connectionCount >= 2000)
    }
}
