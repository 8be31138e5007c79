import AASAFetch
import AASAModel

/// The seam's list in the engine: for each association file a domain's line asks for besides
/// the AASA (`AssociationWants`), the type that audits it. A kind lives in its own folder
/// (`Android/AssetLinksAudit.swift`); `DomainAuditor` only speaks to this protocol.
protocol AssociationFileAudit: Sendable {
    /// The requests it adds to the domain's connection, made with the AASA's.
    func requests(domain: String) -> [FetchRequest]
    /// Judges the answers to those requests (in their order), fetching what they lead to
    /// (includes) with `more`, within the domain's one deadline.
    func audit(_ answers: [FetchedLocation], more: DeadlineFetch) async -> AssociationOutcome
}

/// What auditing one association file gives a domain's record.
struct AssociationOutcome: Sendable {
    var findings: [Finding] = []
    /// Its fetches, for the record's `fetches`.
    var fetches: [FetchRecord] = []
    /// Its section of the record.
    var records = AssociationRecords()
}

/// A kind's part in an audit: its want makes the audit of its file.
protocol AuditedWant: AssociationWant {
    var audit: any AssociationFileAudit { get }
}

enum AssociationFiles {
    /// The audits a domain's wants call for, in the registry's order.
    static func audits(for wants: AssociationWants) -> [any AssociationFileAudit] {
        wants.all.compactMap { ($0 as? any AuditedWant)?.audit }
    }
}

/// A fetch within what is left of a domain's `--timeout`: what an association file uses to
/// fetch beyond its first requests.
struct DeadlineFetch: Sendable {
    let plan: OriginFetchPlan
    let deadline: DomainDeadline

    func callAsFunction(_ request: FetchRequest) async -> FetchedLocation {
        await plan.fetchWithinDeadline(request, within: deadline)
    }
}
