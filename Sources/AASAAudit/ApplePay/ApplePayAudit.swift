import AASAChecks
import AASAFetch
import AASAModel

/// Apple Pay's merchant file in an audit (issue 58, work in progress): one request on the
/// domain's connection, no redirect followed; the `.txt` copy asked for only when the
/// extensionless path did not answer 200 (so that the finding can say "rename it").
struct ApplePayAudit: AssociationFileAudit {
    let want: ApplePayWant

    func requests(domain: String) -> [FetchRequest] {
        var request = FetchRequest(
            url: AASALocation.applePay.url(on: domain), location: .applePay, closeConnection: true)
        request.maximumStoredBodyBytes = ApplePayLimits.maximumFileBytes + 1
        request.offeredTLS = Self.applesOffers
        return [request]
    }

    /// What Apple's verifier offers: a server that takes none of it fails the handshake.
    static let applesOffers = OfferedTLS(
        tls12Suites: ApplePayLimits.tls12Suites, tls13Suites: ApplePayLimits.tls13Suites)

    func audit(_ answers: [FetchedLocation], more: DeadlineFetch) async -> AssociationOutcome {
        guard let main = answers.first else { return AssociationOutcome() }
        var fetches = [main.record]
        var textCopy: FetchedLocation?
        if main.record.error == nil, let status = main.record.status, status != 200, !(300..<400).contains(status) {
            var request = FetchRequest(url: main.record.url + ".txt", location: .applePay, closeConnection: true)
            request.maximumStoredBodyBytes = ApplePayLimits.maximumFileBytes + 1
            request.offeredTLS = Self.applesOffers
            let text = await more(request)
            fetches.append(text.record)
            textCopy = text
        }
        let result = ApplePayChecks.assess(main, textCopy: textCopy, want: want)
        var outcome = AssociationOutcome(
            findings: result.findings, fetches: fetches,
            records: AssociationRecords(
                ApplePayRecord(expectedApplePaySHA256: want.sha256.map { [$0] } ?? [], applePay: result.file)))
        outcome.certificateWatches = [ApplePayChecks.certificateWatch]
        return outcome
    }
}

extension ApplePayWant: AuditedWant {
    func audit(within wants: AssociationWants) -> any AssociationFileAudit { ApplePayAudit(want: self) }
}
