import AASAAudit
import AASAFetch
import AASAModel
import AASAReport
import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// `/.well-known/webauthn` audited on a loopback world as a team declares it
/// (`HOST APPID origin:https://shop.example`): fetched beside the AASA on the domain's connection,
/// https redirects followed as browsers follow them, an http hop refused; a domain without
/// `origin:` asks for no webauthn file.
@Suite(.live, .tags(.live)) struct PasskeysAuditTests {
    @Test func theWebAuthnFileIsAuditedForTheOriginsTheLineNames() async throws {
        let world = try TestWorld()
        let fetcher = try Fetcher(configuration: world.fetcherConfiguration(timeout: 60))
        defer { fetcher.shutdown() }
        let auditor = DomainAuditor(fetcher: fetcher)
        func audit(_ host: String, origins: [String]) async throws -> DomainReport {
            var wants = AssociationWants()
            wants.insert(try WebAuthnWant.parsing(origins))
            return await auditor.audit(DomainTarget(domain: host, expectedAppIDs: [TestWorld.appID], wants: wants))
                .report
        }
        func codes(_ report: DomainReport) -> [String] {
            report.findings.filter { $0.location == .webauthn }.map(\.code.rawValue)
        }

        let good = try await audit("passkeys.aasa.test", origins: ["https://shop.example", "https://example.co.uk"])
        #expect(codes(good).isEmpty, "\(good.findings.map(\.message))")
        #expect(good.verdict == .pass)
        #expect(good.associations.webauthn?.origins == ["https://shop.example", "https://example.co.uk"])
        #expect(good.fetches.map(\.location) == [.wellKnown, .root, .webauthn])

        let missing = try await audit("passkeys.aasa.test", origins: ["https://checkout.example"])
        #expect(codes(missing) == ["webauthn.origin-missing"])
        #expect(missing.findings.first { $0.location == .webauthn }?.message.contains("NO_JSON_MATCH") == true)
        #expect(missing.verdict == .fail)

        let moved = try await audit("passkeysmoved.aasa.test", origins: ["https://shop.example"])
        #expect(codes(moved) == ["webauthn.redirect"], "\(moved.findings.map(\.message))")
        #expect(
            moved.fetches.filter { $0.location == .webauthn }.map(\.url) == [
                "https://passkeysmoved.aasa.test/.well-known/webauthn",
                "https://passkeys.aasa.test/.well-known/webauthn",
            ])

        let plain = try await audit("passkeysplain.aasa.test", origins: ["https://shop.example"])
        #expect(codes(plain) == ["webauthn.redirect-insecure", "webauthn.origin-missing"])
        #expect(plain.fetches.filter { $0.location == .webauthn }.count == 1, "the http hop is not fetched")

        // The AASA's own site serves the AASA at every path: as a webauthn file it has no origins.
        let aasaOnly = try await audit("good.aasa.test", origins: ["https://shop.example"])
        #expect(codes(aasaOnly).contains("webauthn.shape"))

        // No origin: no webauthn request at all.
        func webauthnRequests() -> Int { world.server.requests.filter { $0.path == AASALocation.webauthn.path }.count }
        let before = webauthnRequests()
        let plainDomain = await auditor.audit(
            DomainTarget(domain: "passkeys.aasa.test", expectedAppIDs: [TestWorld.appID])
        ).report
        #expect(!plainDomain.fetches.contains { $0.location == .webauthn })
        #expect(webauthnRequests() == before, "a domain without origin: asked for its webauthn file")
        #expect(before == 6, "good, missing, moved and its target, plain, the AASA site")
    }

    /// `passkeys` on a line: the endpoints file is fetched without following a redirect, each
    /// endpoint's page with its redirects, a page that does not answer named; a site without the
    /// file gets a note, not a failure.
    @Test func passkeyEndpointsAndTheirPagesAreAudited() async throws {
        let world = try TestWorld()
        let fetcher = try Fetcher(configuration: world.fetcherConfiguration(timeout: 60))
        defer { fetcher.shutdown() }
        let auditor = DomainAuditor(fetcher: fetcher)
        func audit(_ host: String) async -> DomainReport {
            var wants = AssociationWants()
            wants.insert(PasskeyEndpointsWant())
            return await auditor.audit(DomainTarget(domain: host, expectedAppIDs: [TestWorld.appID], wants: wants))
                .report
        }
        func findings(_ report: DomainReport) -> [Finding] {
            report.findings.filter { $0.location == .passkeyEndpoints }
        }

        let site = await audit("passkeys.aasa.test")
        #expect(findings(site).map(\.code) == [.passkeyEndpoints(.unreachable)], "\(site.findings.map(\.message))")
        #expect(findings(site).first?.message.contains("prfUsageDetails") == true)
        #expect(site.verdict == .warn)
        let endpoints = try #require(site.associations[PasskeyEndpointsRecord.self]?.passkeyEndpoints)
        #expect(endpoints.served && endpoints.manage == "https://passkeys.aasa.test/account")
        #expect(
            site.fetches.filter { $0.location == .passkeyEndpoints }.map(\.url) == [
                "https://passkeys.aasa.test/.well-known/passkey-endpoints", "https://passkeys.aasa.test/passkeys/new",
                "https://passkeys.aasa.test/account", "https://passkeys.aasa.test/account/passkeys",
                "https://passkeys.aasa.test/gone",
            ])
        // change-password at its own location (its findings were placed "(passkey-endpoints)", issue 56).
        #expect(
            site.fetches.filter { $0.location == .changePassword }.map(\.url) == [
                "https://passkeys.aasa.test/.well-known/change-password", "https://passkeys.aasa.test/account/password",
            ])
        // Declared passkeys read webauthn too, when no origin: asks for it.
        #expect(site.fetches.filter { $0.location == .webauthn }.count == 1)

        let moved = await audit("passkeysmoved.aasa.test")
        #expect(findings(moved).map(\.code) == [.passkeyEndpoints(.redirect)])
        #expect(
            moved.fetches.filter { $0.location == .passkeyEndpoints && $0.url.hasSuffix("passkey-endpoints") }.count
                == 1, "the redirect is not followed")

        let none = await audit("missing.aasa.test")
        #expect(findings(none).map(\.code) == [.passkeyEndpoints(.absent)])
        #expect(
            none.findings.filter { $0.location == .changePassword }.map(\.code) == [
                .passkeyEndpoints(.changePasswordAbsent)
            ])
        #expect(none.findings.filter { $0.location.rawValue.contains("p") }.allSatisfy { $0.severity == .info })
        #expect(TerminalReport(colour: false).domain(none).contains("(change-password)"))
        #expect(none.findings.filter { $0.location == .webauthn }.map(\.code) == [.webAuthn(.absent)])
    }

    /// A line as a team declares passkeys (`APPID android:PACKAGE passkeys`): the AASA's
    /// webcredentials must name the app, assetlinks.json must give the Android app
    /// get_login_creds, change-password must redirect to a page that answers; webauthn and
    /// passkey-endpoints are read when served (a missing webauthn is a note). Without
    /// `passkeys`, the same domain is asked for nothing more than its AASA and assetlinks.json.
    @Test func aDomainThatDeclaresPasskeysIsCheckedAcrossItsFiles() async throws {
        let world = try TestWorld()
        let fetcher = try Fetcher(configuration: world.fetcherConfiguration(timeout: 60))
        defer { fetcher.shutdown() }
        let auditor = DomainAuditor(fetcher: fetcher)
        func audit(_ host: String, passkeys: Bool = true) async throws -> DomainReport {
            var wants = AssociationWants()
            wants.insert(try AndroidWant.parsing([TestWorld.androidPackage]))
            if passkeys { wants.insert(PasskeyEndpointsWant()) }
            return await auditor.audit(DomainTarget(domain: host, expectedAppIDs: [TestWorld.appID], wants: wants))
                .report
        }
        func codes(_ report: DomainReport) -> [String] {
            report.findings.filter { $0.severity != .info }.map(\.code.rawValue)
        }

        let right = try await audit("passkeysapp.aasa.test")
        #expect(codes(right).isEmpty, "\(right.findings.map(\.message))")
        #expect(right.verdict == .pass)
        #expect(right.findings.map(\.code).contains(.webAuthn(.absent)))

        let wrong = try await audit("passkeysweb.aasa.test")
        #expect(
            Set(codes(wrong)) == [
                "service.missing", "assetlinks.login-creds", "change-password.redirect", "change-password.target",
            ],
            "\(wrong.findings.map(\.message))")
        let service = try #require(wrong.findings.first { $0.code == .aasa(.serviceMissing) })
        #expect(service.message.contains("webcredentials") && service.message.contains("passkeys"))
        #expect(
            wrong.findings.first { $0.code == .assetLinks(.loginCreds) }?.message.contains(TestWorld.androidPackage)
                == true)
        #expect(wrong.verdict == .fail)

        // Performance: a domain that does not declare passkeys makes no extra request.
        let host = "passkeysapp1.aasa.test"
        _ = try await audit(host, passkeys: false)
        #expect(
            world.server.requests.filter { $0.host == host }.map(\.path).sorted()
                == [
                    AASALocation.root.path, AASALocation.assetlinks.path, AASALocation.wellKnown.path,
                ].sorted())
    }

    /// A server that answers every path with its web app: the AASA comes back as a page, one
    /// probe of a path that cannot exist comes back the same, and the finding says why. A
    /// domain whose files are right is never probed.
    @Test func aServerThatAnswersEveryPathIsFoundWithOneProbe() async throws {
        let world = try TestWorld()
        let fetcher = try Fetcher(configuration: world.fetcherConfiguration(timeout: 60))
        defer { fetcher.shutdown() }
        let auditor = DomainAuditor(fetcher: fetcher)
        var wants = AssociationWants()
        wants.insert(try AndroidWant.parsing([TestWorld.androidPackage]))
        let spa = await auditor.audit(DomainTarget(domain: "spa.aasa.test", wants: wants)).report
        let catchAll = try #require(
            spa.findings.first { $0.code == .aasa(.locationCatchAll) }, "\(spa.findings.map(\.code))")
        #expect(catchAll.message.contains(AASALocation.assetlinks.path))
        #expect(catchAll.message.contains(AASALocation.wellKnown.path))
        #expect(spa.fetches.filter { $0.location == .catchAllProbe }.count == 1)
        #expect(
            world.server.requests.filter { $0.path == AASALocation.catchAllProbe.path }.map(\.host) == [
                "spa.aasa.test"
            ])

        // A domain whose files are right is not probed.
        let good = await auditor.audit(DomainTarget(domain: "good.aasa.test", wants: wants)).report
        #expect(!good.findings.contains { $0.code == .aasa(.locationCatchAll) })
        #expect(world.server.requests.filter { $0.path == AASALocation.catchAllProbe.path }.count == 1)
    }
}
