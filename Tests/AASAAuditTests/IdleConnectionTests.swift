import AASAAudit
import AASAFetch
import AASAModel
import AASAReport
import AuditTestSupport
import DomainList
import Foundation
import TestSupport
import Testing

/// A finished domain's connection never holds one of its address's places (issue 46, item 1).
/// curl keeps a connection in its cache unless the transfer that ends last on it says to close
/// it; counted in the per-address gate, such connections once filled every place, and every
/// later domain on the address waited out its deadline (`audit.unchecked`), or was given a
/// place with milliseconds left (`net.timeout`, a false failure of the site). Each test here
/// makes more such domains than `--per-address` (the default, 32) allows, then good ones.
@Suite(.live, .tags(.live)) struct IdleConnectionTests {
    /// What a run of `targets` against the world's server (or `connectTo`) reported, with the
    /// default politeness and `--concurrency 64`.
    func run(_ world: TestWorld, _ targets: [DomainTarget], connectTo: String? = nil) async throws -> AuditReport {
        // A long deadline: on a loaded machine a domain may wait for its place a while; a leaked
        // place makes every later domain wait out all of it.
        var fetcher = world.fetcherConfiguration(timeout: 30, concurrency: 64)
        if let connectTo { fetcher.connectTo = [connectTo] }
        #expect(fetcher.politeness == PolitenessLimits())
        let settings = AuditSettings(
            inputFiles: ["domains.txt"], outputDirectory: world.directory.url.appendingPathComponent("reports"),
            concurrency: 64, fetcher: fetcher, failOn: .error)
        let result = try await AuditRun.run(targets: targets, inputProblems: [], settings: settings)
        return try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: result.reportJSON))
    }

    /// Each domain left unchecked, with why (the finding's message).
    static func unchecked(_ report: AuditReport) -> [String] {
        report.domains.compactMap { domain in
            domain.findings.first { $0.code == .run(.auditUnchecked) }.map { "\(domain.domain): \($0.message)" }
        }
    }

    /// HTTP/1.1: a site whose `.well-known` is 404 and whose root is 200 (the root could not
    /// know that no `.json` request would follow it, so it left the connection open).
    @Test func http11SitesWithOnlyARootFileHoldNoPlaceOnceDone() async throws {
        let world = try TestWorld()
        let rootOnly = (1...40).map { (index: Int) in
            DomainTarget(domain: "rootonly\(index).aasa.test", inputLine: index)
        }
        let good = (1...100).map { (index: Int) in DomainTarget(domain: "good\(index).aasa.test", inputLine: 40 + index)
        }
        let report = try await run(world, rootOnly + good)
        #expect(Self.unchecked(report).count == 0, "unchecked: \(Self.unchecked(report).prefix(5))")
        let goodVerdicts = report.domains.filter { $0.domain.hasPrefix("good") }.map(\.verdict)
        #expect(goodVerdicts.count == 100 && goodVerdicts.allSatisfy { $0 == .pass })
        #expect(report.domains.filter { $0.domain.hasPrefix("rootonly") }.allSatisfy { $0.verdict == .fail })
    }

    /// HTTP/2: a server that answers the root before `.well-known`, so that `.well-known` (not
    /// marked to close the connection) is the last stream to end on it.
    @Test func http2SitesThatAnswerWellKnownLastHoldNoPlaceOnceDone() async throws {
        let world = try TestWorld()
        let server = try HTTP2LoopbackServer(
            identity: try world.pki.issueServerIdentity(for: ["*.aasa.test"]), body: TestWorld.validFile,
            // Held until the root arrives: a loaded machine may start a domain's root seconds late.
            hold: .seconds(5), wellKnownLast: true)
        defer { server.shutdown() }
        let targets = (1...160).map { (index: Int) in DomainTarget(domain: "good\(index).aasa.test", inputLine: index) }
        let report = try await run(world, targets, connectTo: server.connectTo)
        #expect(Self.unchecked(report).count == 0, "unchecked: \(Self.unchecked(report).prefix(5))")
        let notPassing = report.domains.filter { $0.verdict != .pass }
        #expect(
            notPassing.count == 0, "\(notPassing.first.map { "\($0.domain): \($0.findings.map(\.message))" } ?? "")")
        #expect(report.domains.allSatisfy { $0.fetches.map(\.httpVersion) == ["2", "2"] })
        // At least as many connections ended with .well-known after the root (what left them
        // open) as the address has places (enough to hold every place), or the test proves
        // nothing. On a loaded machine curl may send a root on a connection of its own: of 100
        // domains, 36 and then only 32 were multiplexed on CI's one-core pass, so 160 are run.
        let places = PolitenessLimits().connectionsPerAddress
        #expect(server.multiplexedConnections.count >= places, "\(server.multiplexedConnections.count)")
    }
}
