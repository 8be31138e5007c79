import AASAChecks
import AASAFetch
import AASAModel

/// `/.well-known/passkey-endpoints` in an audit: one request on the domain's connection (no
/// redirect followed: the file must not redirect), then each advertised endpoint's page, its
/// redirects followed (at most five), within the domain's deadline and address policy.
struct PasskeyEndpointsAudit: AssociationFileAudit {
    static let maximumRedirects = 5

    func requests(domain: String) -> [FetchRequest] {
        [
            FetchRequest(
                url: AASALocation.passkeyEndpoints.url(on: domain), location: .passkeyEndpoints, closeConnection: true)
        ]
    }

    func audit(_ answers: [FetchedLocation], more: DeadlineFetch) async -> AssociationOutcome {
        guard let main = answers.first else { return AssociationOutcome() }
        var fetches = [main.record]
        var pages: [PasskeyEndpointsChecks.EndpointPage] = []
        let content = PasskeyEndpointsChecks.assess(main)
        for (name, url) in content.endpoints?.advertised ?? [] {
            let page = await more.page(url, location: .passkeyEndpoints, maximumHops: Self.maximumRedirects)
            fetches += page.fetches
            pages.append((name, url, page.final.record))
        }
        return AssociationOutcome(
            findings: content.findings + PasskeyEndpointsChecks.pageFindings(pages), fetches: fetches,
            records: AssociationRecords(
                PasskeyEndpointsRecord(passkeyEndpoints: content.endpoints ?? PasskeyEndpoints(served: false))))
    }
}

/// `/.well-known/change-password`: one request (its redirect not followed by the client), then
/// the page it redirects to, followed as a browser would.
struct ChangePasswordAudit: AssociationFileAudit {
    func requests(domain: String) -> [FetchRequest] {
        [
            FetchRequest(
                url: AASALocation.changePassword.url(on: domain), location: .changePassword,
                closeConnection: true)
        ]
    }

    func audit(_ answers: [FetchedLocation], more: DeadlineFetch) async -> AssociationOutcome {
        guard let first = answers.first else { return AssociationOutcome() }
        var fetches = [first.record]
        var final: FetchRecord?
        if let status = first.record.status, (300..<400).contains(status),
            let target = first.record.redirectTarget ?? first.record.headers.location
        {
            let page = await more.page(
                target, location: .changePassword, maximumHops: PasskeyEndpointsAudit.maximumRedirects)
            fetches += page.fetches
            final = page.final.record
        }
        return AssociationOutcome(findings: ChangePasswordChecks.assess(first.record, final: final), fetches: fetches)
    }
}

extension DeadlineFetch {
    /// A page a user is sent to, its redirects followed (at most `maximumHops`).
    func page(_ url: String, location: AASALocation, maximumHops: Int) async -> (
        final: FetchedLocation, fetches: [FetchRecord]
    ) {
        let request = { (url: String) in FetchRequest(url: url, location: location, closeConnection: true) }
        let walk = await following(await self(request(url)), maximumHops: maximumHops, next: request)
        return (walk.final, walk.fetches)
    }
}

/// A domain that declares passkeys: its `passkey-endpoints` and `change-password`, and its
/// `webauthn` when no `origin:` asks for it already (then optional: a 404 is a note).
extension PasskeyEndpointsWant: AuditedWant {
    func audit(within wants: AssociationWants) -> any AssociationFileAudit {
        let webauthn: [any AssociationFileAudit] =
            wants[WebAuthnWant.self] == nil ? [WebAuthnAudit(expected: [], optional: true)] : []
        return AuditGroup(webauthn + [PasskeyEndpointsAudit(), ChangePasswordAudit()])
    }
}
