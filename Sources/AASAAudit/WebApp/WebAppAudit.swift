import AASAChecks
import AASAFetch
import AASAModel
import Foundation

/// `web-app-origin-association` in an audit: one request on the domain's connection, no
/// redirect followed, 1,000,000 bytes read as Chromium reads them.
struct WebAppAudit: AssociationFileAudit {
    let expected: [String]
    /// The manifests to cross-check, by manifest id.
    var manifests: [String: String] = [:]

    func requests(domain: String) -> [FetchRequest] {
        var request = FetchRequest(url: AASALocation.webApp.url(on: domain), location: .webApp, closeConnection: true)
        request.maximumStoredBodyBytes = WebAppLimits.maximumFileBytes + 1
        return [request]
    }

    func audit(_ answers: [FetchedLocation], more: DeadlineFetch) async -> AssociationOutcome {
        guard let main = answers.first else { return AssociationOutcome() }
        let domain = URLComponents(string: main.record.url)?.host ?? ""
        let result = WebAppChecks.assess(main, domain: domain, expected: expected)
        var findings = result.findings
        var fetches = [main.record]
        // Each named manifest, when the file was read: its scope_extensions and its id.
        for id in expected where result.associations != nil {
            guard let url = manifests[id] else { continue }
            var request = FetchRequest(url: url, location: .webApp, closeConnection: true)
            request.maximumStoredBodyBytes = WebAppLimits.maximumManifestBytes + 1
            let manifest = await more.once(request)
            fetches.append(manifest.record)
            findings += WebAppManifestChecks.assess(manifest, domain: domain, expectedID: id)
        }
        return AssociationOutcome(
            findings: findings, fetches: fetches,
            records: AssociationRecords(WebAppRecord(expectedWebApps: expected, webApp: result.associations)))
    }
}

extension WebAppWant: AuditedWant {
    func audit(within wants: AssociationWants) -> any AssociationFileAudit {
        WebAppAudit(expected: manifestIDs, manifests: manifests)
    }
}
