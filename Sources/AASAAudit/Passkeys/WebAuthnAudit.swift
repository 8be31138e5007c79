import AASAChecks
import AASAFetch
import AASAModel

/// `/.well-known/webauthn` in an audit: one request on the domain's connection, then the https
/// redirects a browser follows (at most `WebAuthnLimits.maximumRedirects`, each within the
/// domain's deadline and address policy), the file at the end judged as browsers read it.
struct WebAuthnAudit: AssociationFileAudit {
    let expected: [String]
    /// Read because the domain declares passkeys, no origin named: a 404 is a note.
    var optional = false

    static func request(_ url: String) -> FetchRequest {
        var request = FetchRequest(url: url, location: .webauthn, closeConnection: true)
        request.maximumStoredBodyBytes = WebAuthnLimits.maximumBodyBytes + 1
        return request
    }

    func requests(domain: String) -> [FetchRequest] { [Self.request(AASALocation.webauthn.url(on: domain))] }

    func audit(_ answers: [FetchedLocation], more: DeadlineFetch) async -> AssociationOutcome {
        guard let first = answers.first else { return AssociationOutcome() }
        // Browsers follow https hops only; an http one ends the walk (and fails the file).
        let walk = await more.following(first, maximumHops: WebAuthnLimits.maximumRedirects) { target in
            target.lowercased().hasPrefix("https://") ? Self.request(target) : nil
        }
        let result = WebAuthnChecks.assess(walk.final, hops: walk.hops, expected: expected, optional: optional)
        let section = WebAuthnRecord(expectedOrigins: optional ? nil : expected, webauthn: result.declarations)
        return AssociationOutcome(
            findings: result.findings, fetches: walk.fetches,
            records: section.expectedOrigins == nil && section.webauthn == nil
                ? AssociationRecords() : AssociationRecords(section))
    }
}

extension WebAuthnWant: AuditedWant {
    func audit(within wants: AssociationWants) -> any AssociationFileAudit { WebAuthnAudit(expected: origins) }
}
