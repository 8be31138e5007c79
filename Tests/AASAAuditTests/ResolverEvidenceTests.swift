import AASAAudit
import AASAFetch
import AASAModel
import AASAReport
import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// This machine's resolver judged by evidence it really gave (issue 46, item 8): a name pinned
/// (`--resolve`, `--connect-to` an address, `/etc/hosts`) is no evidence that the resolver
/// answers, and many sites answered with one address no public site uses is a sinkhole here.
@Suite(.live, .tags(.live)) struct ResolverEvidenceTests {
    func audit(_ hosts: [String], _ settings: AuditSettings) async throws -> AuditRunResult {
        try await AuditRun.run(targets: hosts.map { DomainTarget(domain: $0) }, inputProblems: [], settings: settings)
    }

    func settings(_ world: TestWorld) -> AuditSettings {
        AuditSettings(
            inputFiles: ["domains.txt"], outputDirectory: world.directory.url.appendingPathComponent("reports"),
            concurrency: 4, fetcher: world.fetcherConfiguration(timeout: 30), failOn: .error)
    }

    /// The resolver down (every name sent to one that does not resolve, the canary's too) and
    /// one name pinned to an address: its answer says nothing of the resolver, so the night is
    /// this machine's (exit 3), not five sites' net.dns failures.
    @Test func aPinnedNameIsNoEvidenceThatTheResolverAnswers() async throws {
        let world = try TestWorld()
        var down = settings(world)
        let port = world.server.port
        down.fetcher.connectTo = ["good1.aasa.test:443:127.0.0.1:\(port)", "::dns-is-down.invalid:443"]
        down.fetcher.diagnosisNameServer = LoopbackDNSServer.nobody
        let hosts = (1...6).map { "good\($0).aasa.test" }
        let result = try await audit(hosts, down)
        #expect(result.summary.verdicts.pass == 1, "\(result.summary.findingsByCode)")
        let notice = try #require(result.summary.auditorProblems?.first, "the pinned name was taken for the resolver")
        #expect(notice.contains("DNS is not working"), "\(notice)")
        #expect(ExitPolicy.audit(result, problems: [], failOn: .error, interruptedBy: nil) == .auditorProblems)

        let pins = ResolverPins(configuration: down.fetcher)
        #expect(pins.pins("good1.aasa.test") && !pins.pins("good2.aasa.test"))
        // The first --connect-to entry that matches is the one curl uses.
        #expect(pins.nameLookedUp(for: "good2.aasa.test") == "dns-is-down.invalid")
        let plain = ResolverPins(configuration: FetcherConfiguration(userAgent: "t"), hostsFile: "/nonexistent")
        #expect(plain.pins("192.0.2.1") && plain.pins("[2001:db8::1]") && !plain.pins("a.example"))
        #expect(pins.pinsHost(of: "https://GOOD1.aasa.test/.well-known/x") && !pins.pinsHost(of: "https://a.example/"))
        var everything = down.fetcher
        everything.resolve = ["*:443:127.0.0.1"]
        #expect(ResolverPins(configuration: everything).pins("anything.example"))
    }

    /// Why a name did not resolve, from the resolver asked directly: NXDOMAIN, no address,
    /// SERVFAIL, REFUSED and no answer each said apart, with the answer in the record. The
    /// canary got an address from the resolver: the names that did not are the sites' failures.
    @Test func whyANameDidNotResolveIsSaid() async throws {
        let world = try TestWorld()
        let codes = ["nx": 3, "nodata": 0, "servfail": 2, "refused": 5, "canary": LoopbackDNSServer.withAnAddress]
        let resolver = try LoopbackDNSServer { name in codes[String(name.prefix { $0 != "." })] }
        defer { resolver.shutdown() }
        var settings = settings(world)
        settings.fetcher.connectTo = []
        settings.fetcher.diagnosisNameServer = resolver.address
        settings.canaries = ["canary.aasa.invalid"]
        let hosts = ["nx", "nodata", "servfail", "refused", "silent"].map { "\($0).aasa.invalid" }
        let result = try await audit(hosts, settings)
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: result.reportJSON))
        let answers = report.domains.map { $0.fetches.first?.error?.dnsAnswer }
        #expect(answers == [.noSuchName, .noAddress, .serverFailure, .refused, .noAnswer], "\(answers)")
        let messages = report.domains.compactMap { $0.findings.first { $0.code == .transfer(.netDNS) }?.message }
        #expect(messages.count == 5)
        for (message, expected) in zip(
            messages, ["NXDOMAIN", "NOERROR, no A record", "SERVFAIL", "REFUSED", "did not answer"])
        {
            #expect(message.contains(expected), "\(message)")
        }
        #expect(result.summary.auditorProblems == nil, "the resolver gave the canary an address: the sites' failures")
    }

    /// A resolver that cannot see the internet answers NXDOMAIN for every name, the canary's
    /// (a name that exists) too: that is no resolver answering, but this machine's DNS, so the
    /// night is unsound (exit 3), no site fails in the history and nothing is alerted (issue 54).
    @Test func aResolverThatSaysNoSuchNameForEveryNameIsThisMachines() async throws {
        let world = try TestWorld()
        let resolver = try LoopbackDNSServer { _ in 3 }
        defer { resolver.shutdown() }
        var settings = settings(world)
        settings.fetcher.connectTo = []
        settings.fetcher.diagnosisNameServer = resolver.address
        settings.canaries = ["app-site-association-canary.aasa.invalid"]
        let hosts = ["apple-app-site-association.aasa.invalid", "a-much-longer-shop-name.aasa.invalid"]
        let result = try await audit(hosts, settings)
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: result.reportJSON))
        #expect(report.domains.map { $0.fetches.first?.error?.dnsAnswer } == [.noSuchName, .noSuchName])
        let notice = try #require(
            result.summary.auditorProblems?.first, "NXDOMAIN for the canary was taken as a resolver that answers")
        #expect(notice.contains("DNS is not working"), "\(notice)")
        #expect(ExitPolicy.audit(result, problems: [], failOn: .error, interruptedBy: nil) == .auditorProblems)
    }

    /// Apple's CDN host, which exists for everyone, said not to exist while the sites' names
    /// resolve (a resolver that knows only some names): the run is this machine's, exit 3.
    @Test func theCDNHostSaidNotToExistIsThisMachinesDNS() throws {
        var summary = ReportSummary()
        summary.domains = 3
        var resolver = AuditorProblems.ResolverEvidence(nameResolved: true)
        #expect(AuditorProblems.notices(summary, resolver: resolver).unsound.isEmpty)
        // Named as --cdn-url names it, not as the default says.
        resolver.cdnHostAnswer = .init(host: "cdn-mirror.an-ordinary-shop-name.com", answer: .noSuchName)
        let notices = AuditorProblems.notices(summary, resolver: resolver).unsound
        #expect(notices.count == 1)
        #expect(
            notices.first?.contains("cdn-mirror.an-ordinary-shop-name.com does not resolve on this machine (NXDOMAIN)")
                == true)
        #expect(!resolver.resolverAnswers)
    }

    /// Every name answered with one address no public site uses (a sinkhole, here --resolve to
    /// a private address the audit never connects to): this machine's resolver, exit 3, no
    /// site failing. Two sites on such an address are their own failures.
    @Test func aSinkholeIsThisMachinesNotTheSites() async throws {
        let world = try TestWorld()
        var sinkhole = settings(world)
        sinkhole.fetcher.connectTo = []
        sinkhole.fetcher.resolve = ["*:443:10.255.255.1"]
        let many = try await audit((1...5).map { "shop\($0).example" }, sinkhole)
        #expect(many.summary.findingsByCode[FindingCode.transfer(.netBlockedAddress).rawValue] == 5)
        let notice = try #require(many.summary.auditorProblems?.first)
        #expect(notice.contains("5 of 5 domains resolved to 10.255.255.1") && notice.contains("sinkhole"), "\(notice)")
        #expect(ExitPolicy.audit(many, problems: [], failOn: .error, interruptedBy: nil) == .auditorProblems)
        let report = try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: many.reportJSON))
        #expect(report.domains[0].fetches[0].remoteIP == "10.255.255.1", "where the name pointed is recorded")

        let two = try await audit(["a.example", "b.example"], sinkhole)
        #expect(two.summary.auditorProblems == nil)
        #expect(ExitPolicy.audit(two, problems: [], failOn: .error, interruptedBy: nil) == .failed)
    }
}
