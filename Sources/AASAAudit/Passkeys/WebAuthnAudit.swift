import AASAChecks
import AASAFetch
import AASAModel

/// `/.well-known/webauthn` in an audit: one request on the domain's connection, then the https
/// redirects a browser follows (at most `WebAuthnLimits.maximumRedirects`, each within the
/// domain's deadline and address policy), the file at the end judged as browsers read it.
struct WebAuthnAudit: AssociationFileAudit {
    let expected: [String]

    static func request(_ url: String) -> FetchRequest {
        var request = FetchRequest(url: url, location: .webauthn, closeConnection: true)
        request.maximumStoredBodyBytes = WebAuthnLimits.maximumBodyBytes + 1
        return request
    }

    func requests(domain: String) -> [FetchRequest] { [Self.request(DomainAuditor.url(domain, .webauthn))] }

    func audit(_ answers: [FetchedLocation], more: DeadlineFetch) async -> AssociationOutcome {
        guard var current = answers.first else { return AssociationOutcome() }
        var hops: [FetchRecord] = []
        var fetches = [current.record]
        while let status = current.record.status, (300..<400).contains(status),
            let target = current.record.redirectTarget ?? current.record.headers.location
        {
            hops.append(current.record)
            guard target.lowercased().hasPrefix("https://"), hops.count <= WebAuthnLimits.maximumRedirects else {
                break
            }
            current = await more(Self.request(target))
            fetches.append(current.record)
        }
        let result = WebAuthnChecks.assess(current, hops: hops, expected: expected)
        return AssociationOutcome(
            findings: result.findings, fetches: fetches,
            records: AssociationRecords(WebAuthnRecord(expectedOrigins: expected, webauthn: result.declarations)))
    }
}

extension WebAuthnWant: AuditedWant {
    var audit: any AssociationFileAudit { WebAuthnAudit(expected: origins) }
}
