import AASAFetch
import AASAReport
import AuditTestSupport
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import AASAAudit
@testable import AASAModel

/// Apple Pay's merchant file audited on loopback as Apple's domain verification fetches it: one
/// loopback host for each way teams serve it wrong (issue 58, "checked from outside").
@Suite(.live, .tags(.live)) struct ApplePayAuditTests {
    static let path = AASALocation.applePay.path
    /// What Apple and the providers issue: a long run of hex text.
    static let merchantFile = Array(String(repeating: "7B2270737049643A", count: 400).utf8)

    /// The hosts, each the mistake it is named after (`applepay-redirect.aasa.test`).
    static func answer(host: String, path: String) -> RawResponse {
        let file = Self.merchantFile
        let text = ["Content-Type: text/plain"]
        switch (host.split(separator: ".").first.map(String.init) ?? "", path) {
        case ("applepay-good", Self.path), ("applepay-expiring", Self.path):
            return .http(headers: text, body: file)
        case ("applepay-redirect", Self.path):
            return .http(
                status: "301 Moved Permanently", headers: ["Location: https://\(host)\(Self.path).txt"], body: [])
        case ("applepay-txt", Self.path + ".txt"):
            return .http(headers: text, body: file)
        case ("applepay-waf", _):
            return .http(
                status: "403 Forbidden", headers: ["Content-Type: text/html", "Server: cloudflare"],
                body: Array("<html><title>Attention Required!</title></html>".utf8))
        case ("applepay-spa", _):
            return .http(
                headers: ["Content-Type: text/html"],
                body: Array("<!doctype html><html><div id=root></div></html>".utf8))
        case ("applepay-empty", Self.path):
            return .http(headers: text, body: [])
        default:
            return .http(status: "404 Not Found", headers: text, body: Array("not found".utf8))
        }
    }

    /// Each host audited as a shop with no app (`ios:none applepay`).
    static func audit(_ hosts: [String], want: ApplePayWant = ApplePayWant(), expiring: Bool = false) async throws
        -> [String: DomainReport]
    {
        try await TestWorld().auditAlone(
            hosts, want: want, validUntil: Date().addingTimeInterval(expiring ? 20 * 86_400 : 90 * 86_400),
            answer: { host, path in Self.answer(host: host, path: path) })
    }

    static func codes(_ report: DomainReport?) -> [String] { report?.findings.map(\.code.rawValue) ?? ["no report"] }

    @Test func eachWayAShopServesItWrongIsFoundAsAppleWouldFindIt() async throws {
        let hosts = [
            "applepay-good", "applepay-redirect", "applepay-txt", "applepay-waf", "applepay-spa", "applepay-empty",
        ].map { $0 + ".aasa.test" }
        let reports = try await Self.audit(hosts)
        let good = try #require(reports["applepay-good.aasa.test"])
        #expect(good.verdict == .pass && good.ios == "none", "\(good.findings.map(\.message))")
        let served = try #require(good.associations[ApplePayRecord.self]?.applePay)
        #expect(
            served
                == ApplePayFile(
                    bytes: Self.merchantFile.count, sha256: served.sha256, contentType: "text/plain", tls: served.tls))
        #expect(served.sha256 == good.fetches.first { $0.location == .applePay }?.bodySHA256)
        // Negotiated with what Apple offers: TLS 1.3 and one of its two suites here.
        let tls = try #require(served.tls)
        #expect(tls.version == "TLSv1.3" && ApplePayLimits.tls13Suites.contains(tls.suite), "\(tls)")
        // One request for a file that is served: no .txt asked, no AASA, no CDN.
        #expect(good.fetches.map(\.url) == ["https://applepay-good.aasa.test\(Self.path)"])

        #expect(Self.codes(reports["applepay-redirect.aasa.test"]) == ["applepay.redirect"])
        #expect(reports["applepay-redirect.aasa.test"]?.fetches.count == 1, "the redirect is not followed")
        #expect(Self.codes(reports["applepay-txt.aasa.test"]) == ["applepay.txt-only"])
        #expect(Self.codes(reports["applepay-waf.aasa.test"]) == ["applepay.status"])
        #expect(reports["applepay-waf.aasa.test"]?.findings.first?.message.contains("WAF") == true)
        // The one probe for a path no site serves says every path answers with the app.
        #expect(Self.codes(reports["applepay-spa.aasa.test"]) == ["applepay.page", "location.catch-all"])
        #expect(Self.codes(reports["applepay-empty.aasa.test"]) == ["applepay.empty"])
        for host in hosts.dropFirst() { #expect(reports[host]?.verdict == .fail, "\(host)") }
    }

    /// The provider's file, pinned by its hash: the same bytes pass, a changed file fails.
    @Test func aPinnedHashHoldsTheServedBytes() async throws {
        let hex = try await Self.audit(["applepay-good.aasa.test"])["applepay-good.aasa.test"]?
            .associations[ApplePayRecord.self]?.applePay?.sha256
        let sha256 = try #require(hex)
        let same = try await Self.audit(["applepay-good.aasa.test"], want: ApplePayWant(sha256: sha256))
        #expect(Self.codes(same["applepay-good.aasa.test"]).isEmpty)
        #expect(same["applepay-good.aasa.test"]?.associations[ApplePayRecord.self]?.expectedApplePaySHA256 == [sha256])
        let other = try await Self.audit(
            ["applepay-good.aasa.test"], want: ApplePayWant(sha256: String(repeating: "0", count: 64)))
        #expect(Self.codes(other["applepay-good.aasa.test"]) == ["applepay.hash-mismatch"])
    }

    /// A certificate 20 days from its end: Apple's re-check (30 days ahead) is warned about,
    /// which the house's 21-day window would also say, each at its own location.
    @Test func aCertificateTwentyDaysFromItsEndIsWarnedAboutForApplePay() async throws {
        let reports = try await Self.audit(["applepay-expiring.aasa.test"], expiring: true)
        let report = try #require(reports["applepay-expiring.aasa.test"])
        let expiring = report.findings.filter { $0.code == .applePay(.certificateExpiring) }
        #expect(expiring.count == 1 && expiring.first?.location == .applePay, "\(report.findings.map(\.message))")
        #expect(report.verdict == .warn)
    }

    /// `check --applepay FILE`: the local copy of the provider's file is what the site must serve
    /// (its SHA-256 is taken); `--ios none` audits the shop without an AASA.
    @Test func checkComparesTheServedFileWithALocalCopy() async throws {
        let world = try TestWorld()
        let server = try FaultServer(
            identity: try world.pki.issueServerIdentity(for: ["*.aasa.test"]),
            fault: .respond { host, path in Self.answer(host: host, path: path) })
        defer { server.shutdown() }
        let copy = world.directory.url.appendingPathComponent("apple-developer-merchantid-domain-association")
        try Data(Self.merchantFile).write(to: copy)
        let stale = world.directory.url.appendingPathComponent("old-merchant-file")
        try Data(Self.merchantFile.dropLast(2)).write(to: stale)
        func check(_ file: URL) async throws -> ProcessRunner.Result {
            try await ProcessRunner.run(
                CommandLineTests.binary,
                [
                    "check", "applepay-good.aasa.test", "--ios", "none", "--applepay", file.path, "--connect-to",
                    server.connectTo("applepay-good.aasa.test"), "--cacert", world.caFile, "--no-cdn",
                ] + LoopbackNetworks.allowArguments)
        }
        let same = try await check(copy)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("Apple Pay"), "\(same.stdout)")
        let changed = try await check(stale)
        #expect(changed.status == 1 && changed.stdout.contains("applepay.hash-mismatch"), "\(changed.stdout)")
        let absent = try await check(world.directory.url.appendingPathComponent("no-such-file"))
        #expect(absent.status == 2 && absent.stderr.contains("no such file"), "\(absent.stderr)")
    }

    /// A server of TLS 1.2 with CHACHA20 only: a browser connects, Apple's verifier cannot. The
    /// same server with one of Apple's suites passes.
    @Test func aServerWithoutApplesSuitesFailsTheHandshakeAppleWouldMake() async throws {
        let world = try TestWorld()
        let identity = try world.pki.issueServerIdentity(for: ["*.aasa.test"])
        func served(suites: String) async throws -> DomainReport {
            let server = try FaultServer(
                identity: identity,
                tls: FaultServer.tls12(suites: suites),
                fault: .respond { host, path in Self.answer(host: host, path: path) })
            defer { server.shutdown() }
            var configuration = world.fetcherConfiguration(timeout: 30)
            configuration.connectTo = [server.connectTo("applepay-good.aasa.test")]
            let fetcher = try Fetcher(configuration: configuration)
            defer { fetcher.shutdown() }
            var wants = AssociationWants()
            wants.insert(ApplePayWant())
            var shop = DomainTarget(domain: "applepay-good.aasa.test", wants: wants)
            shop.aasa = nil
            // A browser's offers reach the same server.
            let browser = await fetcher.fetch(
                FetchRequest(url: "https://applepay-good.aasa.test\(Self.path)", location: .applePay))
            #expect(browser.record.status == 200, "\(browser.record.error?.message ?? "")")
            return await DomainAuditor(fetcher: fetcher).audit(shop).report
        }
        let chacha = try await served(suites: "ECDHE-ECDSA-CHACHA20-POLY1305")
        #expect(Self.codes(chacha) == ["applepay.tls"], "\(chacha.findings.map(\.message))")
        #expect(chacha.verdict == .fail)
        let gcm = try await served(suites: "ECDHE-ECDSA-AES128-GCM-SHA256")
        #expect(Self.codes(gcm).isEmpty, "\(gcm.findings.map(\.message))")
        let tls = gcm.associations[ApplePayRecord.self]?.applePay?.tls
        #expect(
            tls == NegotiatedTLS(version: "TLSv1.2", suite: "ECDHE-ECDSA-AES128-GCM-SHA256"),
            "\(String(describing: tls))")
    }

    /// A domain whose line does not say `applepay` makes no request for the merchant file.
    @Test func aDomainThatDeclaresNoApplePayIsNotAskedForIt() async throws {
        let world = try TestWorld()
        let fetcher = try Fetcher(configuration: world.fetcherConfiguration(timeout: 30))
        defer { fetcher.shutdown() }
        let report = await DomainAuditor(fetcher: fetcher).audit(
            DomainTarget(domain: "good.aasa.test", expectedAppIDs: [TestWorld.appID])
        ).report
        #expect(report.verdict == .pass, "\(report.findings.map(\.message))")
        #expect(!report.fetches.isEmpty && !report.fetches.contains { $0.location == .applePay }, "\(report.fetches)")
        #expect(report.associations[ApplePayRecord.self] == nil)
    }

    /// Two nights: the merchant file served both with other bytes (a deploy overwrote the
    /// provider's file) is news in the second night's changes, terminal and HTML, though both
    /// nights pass; a third night with the same bytes is not.
    @Test func aChangedMerchantFileIsTheNextNightsNews() async throws {
        let world = try TestWorld()
        let night = Mutex(0)
        let server = try FaultServer(
            identity: try world.pki.issueServerIdentity(for: ["*.aasa.test"]),
            fault: .respond { host, path in
                guard path == Self.path else { return Self.answer(host: host, path: path) }
                let body = night.withLock { $0 } == 0 ? Self.merchantFile : Array(Self.merchantFile.dropLast(4))
                return .http(headers: ["Content-Type: text/plain"], body: body)
            })
        defer { server.shutdown() }
        try "applepay-good.aasa.test ios:none applepay\n".write(
            to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let arguments =
            [
                "audit", "--connect-to", server.connectTo("applepay-good.aasa.test"), "--cacert", world.caFile,
                "--no-cdn",
            ] + LoopbackNetworks.allowArguments
        func audit() async throws -> (ProcessRunner.Result, AuditReport) {
            let run = try await ProcessRunner.run(CommandLineTests.binary, arguments, in: world.directory.url)
            let latest = world.directory.url.appendingPathComponent("reports/latest.json")
            return (run, try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: latest)))
        }
        let (first, _) = try await audit()
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        night.withLock { $0 = 1 }
        let (second, report) = try await audit()
        #expect(second.status == 0, "both nights pass: \(second.stdout)")
        let change = try #require(report.changes?.domains.first)
        #expect(change.changedFiles?.map(\.file) == ["applepay"] && change.verdict == nil, "\(change)")
        #expect(second.stdout.contains("apple-developer-merchantid-domain-association changed"), "\(second.stdout)")
        let html = try String(
            contentsOf: world.directory.url.appendingPathComponent("reports/latest.html"), encoding: .utf8)
        #expect(html.contains("apple-developer-merchantid-domain-association changed"))
        let (_, third) = try await audit()
        #expect(third.changes?.domains.isEmpty == true, "\(String(describing: third.changes))")
    }
}
