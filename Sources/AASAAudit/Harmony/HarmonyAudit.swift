import AASAChecks
import AASAFetch
import AASAModel

/// `applinking.json` in an audit: one request on the domain's connection, no redirect followed.
struct HarmonyAudit: AssociationFileAudit {
    let expected: [String]

    func requests(domain: String) -> [FetchRequest] {
        var request = FetchRequest(url: AASALocation.harmony.url(on: domain), location: .harmony, closeConnection: true)
        request.maximumStoredBodyBytes = HarmonyLimits.maximumFileBytes + 1
        return [request]
    }

    func audit(_ answers: [FetchedLocation], more: DeadlineFetch) async -> AssociationOutcome {
        guard let main = answers.first else { return AssociationOutcome() }
        let result = HarmonyChecks.assess(main, expected: expected)
        return AssociationOutcome(
            findings: result.findings, fetches: [main.record],
            records: AssociationRecords(HarmonyRecord(expectedHarmonyApps: expected, harmony: result.declarations)))
    }
}

extension HarmonyWant: AuditedWant {
    func audit(within wants: AssociationWants) -> any AssociationFileAudit { HarmonyAudit(expected: appIdentifiers) }
}
