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
                url: DomainAuditor.url(domain, .passkeyEndpoints), location: .passkeyEndpoints, closeConnection: true)
        ]
    }

    func audit(_ answers: [FetchedLocation], more: DeadlineFetch) async -> AssociationOutcome {
        guard let main = answers.first else { return AssociationOutcome() }
        var fetches = [main.record]
        var pages: [PasskeyEndpointsChecks.EndpointPage] = []
        let content = PasskeyEndpointsChecks.assess(main)
        for (name, url) in content.endpoints?.advertised ?? [] {
            var current = await more(FetchRequest(url: url, location: .passkeyEndpoints, closeConnection: true))
            fetches.append(current.record)
            var hops = 0
            while let status = current.record.status, (300..<400).contains(status), hops < Self.maximumRedirects,
                let target = current.record.redirectTarget ?? current.record.headers.location
            {
                hops += 1
                current = await more(FetchRequest(url: target, location: .passkeyEndpoints, closeConnection: true))
                fetches.append(current.record)
            }
            pages.append((name, url, current.record))
        }
        return AssociationOutcome(
            findings: content.findings + PasskeyEndpointsChecks.pageFindings(pages), fetches: fetches,
            records: AssociationRecords(
                PasskeyEndpointsRecord(passkeyEndpoints: content.endpoints ?? PasskeyEndpoints(served: false))))
    }
}

extension PasskeyEndpointsWant: AuditedWant {
    var audit: any AssociationFileAudit { PasskeyEndpointsAudit() }
}
