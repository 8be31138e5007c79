import AASAFetch
import AuditTestSupport
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import AASAAudit
@testable import AASAModel

/// web-app-origin-association audited on loopback as Chromium fetches and reads it: one host for
/// each rule (issue 58, "checked from outside").
@Suite(.live, .tags(.live)) struct WebAppAuditTests {
    static let path = AASALocation.webApp.path
    static let id = "https://app.example.com/app"
    /// The app whose manifest webapp-app.aasa.test serves.
    static let appID = "https://webapp-app.aasa.test/app"

    static func answer(host: String, path: String) -> RawResponse {
        let json = ["Content-Type: application/json"]
        if host.hasPrefix("webapp-app."), path == "/manifest.json" {
            let manifest =
                #"{"id": "/app", "start_url": "/", "scope_extensions": [{"type": "origin", "origin": "https://webapp-good.aasa.test"}]}"#
            return .http(headers: ["Content-Type: application/manifest+json"], body: Array(manifest.utf8))
        }
        guard path == Self.path else { return .http(status: "404 Not Found", headers: json, body: []) }
        switch host.split(separator: ".").first.map(String.init) ?? "" {
        case "webapp-good", "webapp-unlisted":
            // Any type: Chromium checks none.
            return .http(
                headers: ["Content-Type: text/plain"],
                body: Array(#"{"\#(id)": {"scope": "/shop"}, "\#(appID)": {}}"#.utf8))
        case "webapp-legacy":
            return .http(
                headers: json,
                body: Array(
                    #"{"web_apps": [{"manifest": "https://app.example.com/manifest.json", "details": {}}]}"#.utf8))
        case "webapp-offorigin":
            return .http(headers: json, body: Array(#"{"\#(id)": {"scope": "https://elsewhere.example/"}}"#.utf8))
        case "webapp-redirect":
            return .http(status: "302 Found", headers: ["Location: https://www.aasa.test\(Self.path)"], body: [])
        case "webapp-huge":
            // 1,000,001 bytes: valid JSON, one byte over what Chromium downloads.
            let file = Array(#"{"\#(id)": {}}"#.utf8)
            let padding = [UInt8](repeating: UInt8(ascii: " "), count: WebAppLimits.maximumFileBytes + 1 - file.count)
            return .http(headers: json, body: padding + file)
        default:
            return .http(status: "404 Not Found", headers: json, body: [])
        }
    }

    @Test func eachRuleOfChromiumsReaderIsFoundOnItsHost() async throws {
        let hosts = ["webapp-good", "webapp-legacy", "webapp-offorigin", "webapp-redirect", "webapp-huge"].map {
            $0 + ".aasa.test"
        }
        let reports = try await TestWorld().auditAlone(
            hosts, want: WebAppWant(manifestIDs: [Self.id]),
            answer: { host, path in Self.answer(host: host, path: path) })
        func codes(_ host: String) -> [String] {
            reports[host + ".aasa.test"]?.findings.map(\.code.rawValue) ?? ["none"]
        }
        let good = try #require(reports["webapp-good.aasa.test"])
        #expect(good.verdict == .pass, "\(good.findings.map(\.message))")
        #expect(
            good.associations[WebAppRecord.self]?.webApp?.apps == [
                .init(manifestID: Self.id, scope: "https://webapp-good.aasa.test/shop"),
                .init(manifestID: Self.appID, scope: "https://webapp-good.aasa.test/"),
            ])
        #expect(good.fetches.map(\.location) == [.webApp], "one request, no AASA")
        #expect(codes("webapp-legacy") == ["webapp.legacy-shape", "webapp.app-missing"])
        #expect(codes("webapp-offorigin") == ["webapp.scope-invalid", "webapp.app-missing"])
        #expect(codes("webapp-redirect") == ["webapp.redirect"])
        #expect(reports["webapp-redirect.aasa.test"]?.fetches.count == 1, "the redirect is not followed")
        #expect(codes("webapp-huge") == ["webapp.too-large"])
        #expect(reports["webapp-huge.aasa.test"]?.fetches.first?.bodyBytes == WebAppLimits.maximumFileBytes + 1)
        for host in hosts.dropFirst() { #expect(reports[host]?.verdict == .fail, "\(host)") }
    }

    /// `check --webapp ID` on one domain, and a domain that declares no web app asks for no file.
    @Test func checkAuditsItAndADomainThatDeclaresNoneIsNotAsked() async throws {
        let world = try TestWorld()
        let server = try FaultServer(
            identity: try world.pki.issueServerIdentity(for: ["*.aasa.test"]),
            fault: .respond { host, path in Self.answer(host: host, path: path) })
        defer { server.shutdown() }
        let run = try await ProcessRunner.run(
            CommandLineTests.binary,
            [
                "check", "webapp-legacy.aasa.test", "--ios", "none", "--webapp", Self.id, "--connect-to",
                server.connectTo("webapp-legacy.aasa.test"), "--cacert", world.caFile, "--no-cdn",
            ] + LoopbackNetworks.allowArguments)
        #expect(run.status == 1 && run.stdout.contains("webapp.legacy-shape"), "\(run.stdout)\(run.stderr)")
        let fetcher = try Fetcher(configuration: world.fetcherConfiguration(timeout: 30))
        defer { fetcher.shutdown() }
        let plain = await DomainAuditor(fetcher: fetcher).audit(
            DomainTarget(domain: "good.aasa.test", expectedAppIDs: [TestWorld.appID])
        ).report
        #expect(!plain.fetches.isEmpty && !plain.fetches.contains { $0.location == .webApp })
    }

    /// `webapp:ID@MANIFEST_URL`: the app's manifest lists the origin in scope_extensions and has
    /// the associated id; an origin it does not list fails though its own file is right. The
    /// manifest is fetched once for both.
    @Test func theManifestIsCrossCheckedWhenNamed() async throws {
        let world = try TestWorld()
        let manifestRequests = Atomic(0)
        let server = try FaultServer(
            identity: try world.pki.issueServerIdentity(for: ["*.aasa.test"]),
            fault: .respond { host, path in
                if path == "/manifest.json" { manifestRequests.add(1, ordering: .relaxed) }
                return Self.answer(host: host, path: path)
            })
        defer { server.shutdown() }
        var configuration = world.fetcherConfiguration(timeout: 30)
        configuration.connectTo = ["webapp-good.aasa.test", "webapp-unlisted.aasa.test", "webapp-app.aasa.test"].map {
            server.connectTo($0)
        }
        let fetcher = try Fetcher(configuration: configuration)
        defer { fetcher.shutdown() }
        let auditor = DomainAuditor(fetcher: fetcher)
        func audit(_ host: String) async throws -> DomainReport {
            var wants = AssociationWants()
            wants.insert(try WebAppWant.parsing(["\(Self.appID)@https://webapp-app.aasa.test/manifest.json"]))
            var target = DomainTarget(domain: host, wants: wants)
            target.aasa = nil
            return await auditor.audit(target).report
        }
        let listed = try await audit("webapp-good.aasa.test")
        #expect(listed.verdict == .pass, "\(listed.findings.map(\.message))")
        #expect(listed.fetches.map(\.url).last == "https://webapp-app.aasa.test/manifest.json")
        let unlisted = try await audit("webapp-unlisted.aasa.test")
        #expect(
            unlisted.findings.map(\.code.rawValue) == ["webapp.manifest-scope"], "\(unlisted.findings.map(\.message))")
        #expect(unlisted.fetches.map(\.url).last == "https://webapp-app.aasa.test/manifest.json")
        #expect(manifestRequests.load(ordering: .relaxed) == 1, "fetched once for both origins")
    }
}
