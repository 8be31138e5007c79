import AASAChecks
import AASAFetch
import AASAModel

/// One request for a path no site serves, made only when an association file came back 200 as
/// a web page (`CatchAllChecks`): a domain whose files are right makes none.
enum CatchAllProbe {
    /// The probe and its finding, or nothing when no file looked caught.
    static func probe(
        _ domain: String, origin: AASAAnswers?, files: AssociationOutcome, more: DeadlineFetch
    ) async -> AssociationOutcome {
        // The AASA as it is judged: a browser's copy when Apple's bot was answered otherwise.
        let aasa = origin.map { [($0.browser ?? $0.wellKnown).record, $0.root.record] } ?? []
        let answered = aasa + files.fetches
        let suspects = CatchAllChecks.suspects(answered, domain: domain)
        guard !suspects.isEmpty else { return AssociationOutcome() }
        let probe = await more(
            FetchRequest(
                url: AASALocation.catchAllProbe.url(on: domain), location: .catchAllProbe, closeConnection: true))
        return AssociationOutcome(
            findings: CatchAllChecks.findings(probe: probe.record, suspects: suspects), fetches: [probe.record])
    }
}
