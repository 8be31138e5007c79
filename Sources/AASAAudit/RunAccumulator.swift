import AASAModel
import AASAReport

/// What a run gathers as its domains complete, in any order: the summary, the domains that
/// did not pass (for the closing summary), which domains were audited, and the changes since
/// the previous run.
struct RunAccumulator {
    private(set) var summary = ReportSummary()
    private var flagged: [FlaggedDomain?]
    private var audited: [Bool]
    /// Each domain's verdict and codes, for the history.
    private var history: [HistoryDomain?]
    private var changes: RunChanges.Collector?

    init(domainCount: Int, previous: ReportSnapshot?) {
        flagged = Array(repeating: nil, count: domainCount)
        audited = Array(repeating: false, count: domainCount)
        history = Array(repeating: nil, count: domainCount)
        changes = previous.map { RunChanges.Collector(previous: $0.domains, previousStartedAt: $0.startedAt) }
    }

    mutating func add(_ domain: AuditedDomain) {
        summary.add(domain.report)
        flagged[domain.index] = FlaggedDomain(domain.report)
        audited[domain.index] = true
        history[domain.index] = HistoryDomain(domain.report)
        changes?.add(DomainSnapshot(domain.report), at: domain.index)
    }

    /// The positions of the domains never audited (the run was interrupted).
    var notAudited: [Int] { audited.indices.filter { !audited[$0] } }

    var complete: Bool { !audited.contains(false) }

    /// The domains that did not pass, in input order.
    var flaggedDomains: [FlaggedDomain] { flagged.compactMap { $0 } }

    /// The run's domains as the history keeps them, in input order.
    var historyDomains: [HistoryDomain] { history.compactMap { $0 } }

    /// The changes since the previous run; `domains` are the run's domains in input order.
    func runChanges(domains: [String]) -> RunChanges? {
        changes?.changes(current: domains)
    }
}
