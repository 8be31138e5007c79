import AASAChecks
import AASAFetch
import AASAModel

/// `windows-app-web-link` in an audit: both places Windows reads it, `/.well-known/` and the web
/// root, on the domain's connection (no redirect followed), judged together.
struct WindowsAudit: AssociationFileAudit {
    let expected: [String]

    func requests(domain: String) -> [FetchRequest] {
        [AASALocation.windows.path, WindowsLimits.rootPath].map { path in
            var request = FetchRequest(
                url: AASALocation.url(on: domain, path: path), location: .windows, closeConnection: true)
            request.maximumStoredBodyBytes = WindowsLimits.maximumFileBytes + 1
            return request
        }
    }

    func audit(_ answers: [FetchedLocation], more: DeadlineFetch) async -> AssociationOutcome {
        guard let wellKnown = answers.first else { return AssociationOutcome() }
        let result = WindowsChecks.assess(wellKnown: wellKnown, root: answers.dropFirst().first, expected: expected)
        return AssociationOutcome(
            findings: result.findings, fetches: answers.map(\.record),
            records: AssociationRecords(WindowsRecord(expectedWindowsApps: expected, windows: result.declarations)))
    }
}

extension WindowsWant: AuditedWant {
    func audit(within wants: AssociationWants) -> any AssociationFileAudit {
        WindowsAudit(expected: packageFamilyNames)
    }
}
