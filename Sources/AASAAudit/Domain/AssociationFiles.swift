import AASAChecks
import AASAFetch
import AASAModel
import Foundation

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
    /// Each file's own first answer, by kind (`ServedFile.id`): what its platform fixes read.
    var answers: [String: ServedAnswer] = [:]
    /// The hosting platform its answers' marks show, when the AASA's show none (or it has none).
    var platform: HostingPlatform?
    /// The certificate expiry its client acts on sooner than the house's window: the judge
    /// warns with its clock.
    var certificateWatches: [CertificateWatch] = []

    mutating func add(_ other: AssociationOutcome) {
        findings += other.findings
        fetches += other.fetches
        records.merge(other.records)
        answers.merge(other.answers) { mine, _ in mine }
        platform = platform ?? other.platform
        certificateWatches += other.certificateWatches
    }

    /// Notes the first answer a kind's file got: its status, whether a page answered in its
    /// place, and the platform its marks show.
    mutating func note(_ first: FetchedLocation, host: String) {
        guard let kind = first.record.location.kind, answers[kind.served.id] == nil else { return }
        answers[kind.served.id] = ServedAnswer(status: first.record.status, servedAPage: CatchAllChecks.isPage(first))
        platform = platform ?? HostingPlatform.detect(first.record.headers, host: host, body: first.body)
    }
}

/// A kind's part in an audit: its want makes the audit of its file, seeing the domain's other
/// wants (a domain that declares passkeys asks more of its `assetlinks.json`).
protocol AuditedWant: AssociationWant {
    func audit(within wants: AssociationWants) -> any AssociationFileAudit
}

/// Several audits on one connection: the AASA's part first (its want, in a slot of its own:
/// its plan's requests lead the connection, `OriginFetchPlan`), then each kind's, each getting
/// the answers to its own requests, in order.
struct AuditGroup: AssociationFileAudit {
    /// What the domain asks of its AASA; nil for one that serves none (`ios:none`).
    let aasa: AASAWant?
    let parts: [any AssociationFileAudit]

    /// The audits a domain's line calls for: its AASA's, then its other files' in the
    /// registry's order (for a domain without an AASA that names no other file, the kinds
    /// audited alone, `AssociationWants.withoutAASA`).
    init(for target: DomainTarget) {
        aasa = target.aasa
        let wants = aasa == nil ? target.wants.withoutAASA : target.wants
        parts = wants.all.compactMap { ($0 as? any AuditedWant)?.audit(within: wants) }
    }

    /// A group of kinds' audits alone (a kind's own parts).
    init(_ parts: [any AssociationFileAudit]) {
        aasa = nil
        self.parts = parts
    }

    func requests(domain: String) -> [FetchRequest] { parts.flatMap { $0.requests(domain: domain) } }

    func audit(_ answers: [FetchedLocation], more: DeadlineFetch) async -> AssociationOutcome {
        var outcome = AssociationOutcome()
        var rest = answers[...]
        for part in parts {
            // How many requests a part makes does not depend on the domain's name.
            let asked = part.requests(domain: "").count
            let mine = Array(rest.prefix(asked))
            if let first = mine.first { outcome.note(first, host: more.plan.domain) }
            outcome.add(await part.audit(mine, more: more))
            rest = rest.dropFirst(asked)
        }
        return outcome
    }
}

/// A fetch within what is left of a domain's `--timeout`: what an association file uses to
/// fetch beyond its first requests.
struct DeadlineFetch: Sendable {
    let plan: OriginFetchPlan
    let deadline: DomainDeadline
    /// The run's files fetched once (`once`); nil: each asks for itself.
    var shared: SharedFetches?
    /// The clock `shared`'s answers age by.
    var now: @Sendable () -> Date = { Date() }

    func callAsFunction(_ request: FetchRequest) async -> FetchedLocation {
        await plan.fetchWithinDeadline(request, within: deadline)
    }

    /// Where `first` ends once its redirects are followed (at most `maximumHops`, each a new
    /// request made by `next`, stopping at one `next` refuses): the last answer, and every fetch.
    func following(
        _ first: FetchedLocation, maximumHops: Int, next: (String) -> FetchRequest? = { _ in nil }
    ) async -> (final: FetchedLocation, hops: [FetchRecord], fetches: [FetchRecord]) {
        var current = first
        var hops: [FetchRecord] = []
        var fetches = [first.record]
        while let status = current.record.status, (300..<400).contains(status),
            let target = current.record.redirectTarget ?? current.record.headers.location
        {
            hops.append(current.record)
            guard hops.count <= maximumHops, let request = next(target) else { break }
            current = await self(request)
            fetches.append(current.record)
        }
        return (current, hops, fetches)
    }
}
