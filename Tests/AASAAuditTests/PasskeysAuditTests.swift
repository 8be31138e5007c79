import AASAAudit
import AASAFetch
import AASAModel
import Foundation
import TestSupport
import Testing

/// `/.well-known/webauthn` audited on a loopback world as a team declares it
/// (`HOST APPID origin:https://shop.example`): fetched beside the AASA on the domain's connection,
/// https redirects followed as browsers follow them, an http hop refused; a domain without
/// `origin:` asks for no webauthn file.
@Suite struct PasskeysAuditTests {
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
}
