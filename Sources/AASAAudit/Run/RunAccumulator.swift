import AASAFetch
import AASAModel
import AASAReport
import Foundation

/// What a run gathers as its domains complete, in any order: the summary, the domains that
/// did not pass (for the closing summary), which domains were audited, and the changes since
/// the previous run.
struct RunAccumulator {
    private(set) var summary = ReportSummary()
    /// Some fetch of the run got an address for its host from the DNS resolver (not from a pin:
    /// `--resolve`, `/etc/hosts`): this machine's resolver sees the internet. A resolver that
    /// answers "no such name" is no such evidence: one cut off from the internet says it of all.
    private(set) var nameResolved = false
    /// What the resolver answered for Apple's CDN host when it gave no address (NXDOMAIN, no
    /// address): a name that exists for everyone, so this machine's DNS cannot see the internet.
    private(set) var cdnHostAnswer: AuditorProblems.ResolverEvidence.NoAddress?
    /// The names resolved without the resolver.
    private let pins: ResolverPins
    /// Domains whose origin resolved to an address no public site uses, by that address: many
    /// sites on one such address is this machine's resolver (a sinkhole). Bounded: a new address
    /// is counted only while fewer than `maximumBlockedAddresses` are.
    private(set) var blockedAddresses: [String: Int] = [:]
    static let maximumBlockedAddresses = 64
    /// The domains that did not pass, in completion order with their input positions: room
    /// for them only, not for every domain of the list.
    private var flagged: [FlaggedDomain] = []
    private var sharedParts = FlaggedDomain.SharedParts()
    /// Each domain's verdict and codes, for the history, by input position; which are added.
    private var history: HistoryColumns
    private var changes: RunChanges.Collector<PreviousRunRecords>?
    /// The previous run while it is being read, and the domains completed meanwhile: at most
    /// `maximumWaiting` of them, then the run waits for the reading (memory stays bounded).
    private var previous: PreviousRunReader?
    private var waiting: [(index: Int, snapshot: DomainSnapshot)] = []
    var waitingCount: Int { waiting.count }
    static let maximumWaiting = 4096
    /// Why the changes since the previous run could not be gathered (its store failed).
    private(set) var comparisonProblem: String?

    init(domainCount: Int, previous: PreviousRunReader, pins: ResolverPins = .none) {
        history = HistoryColumns(count: domainCount)
        self.previous = previous
        self.pins = pins
    }

    /// - Parameter reached: false for a domain an interrupted run never reached: it is in the
    ///   summary, but nothing is known of how it changed.
    mutating func add(_ domain: AuditedDomain, reached: Bool = true) {
        summary.add(domain.report)
        if !nameResolved {
            nameResolved = domain.report.fetches.contains {
                $0.resolvedItsHost && !pins.pinsHost(of: $0.url) || $0.error?.dnsAnswer?.gaveAnAddress == true
            }
        }
        if cdnHostAnswer == nil,
            let cdn = domain.report.fetches.first(where: { $0.location == .cdn && $0.error?.kind == .dns }),
            let answer = cdn.error?.dnsAnswer, answer == .noSuchName || answer == .noAddress,
            !pins.pinsHost(of: cdn.url)
        {
            cdnHostAnswer = .init(host: URLComponents(string: cdn.url)?.host ?? cdn.url, answer: answer)
        }
        if let origin = domain.report.fetches.first, origin.error?.kind == .blockedAddress,
            let address = origin.remoteIP,
            blockedAddresses[address] != nil || blockedAddresses.count < Self.maximumBlockedAddresses
        {
            blockedAddresses[address, default: 0] += 1
        }
        if var brief = FlaggedDomain(domain.report) {
            brief.share(&sharedParts)
            brief.position = domain.index
            flagged.append(brief)
        }
        history.set(HistoryDomain(domain.report), at: domain.index)
        guard reached else { return }
        if let reader = previous, let run = reader.takeIfRead() { compare(with: run) }
        if let reader = previous, waiting.count >= Self.maximumWaiting { compare(with: reader.take()) }
        if previous != nil {
            waiting.append((domain.index, DomainSnapshot(domain.report)))
        } else {
            compare(DomainSnapshot(domain.report), at: domain.index)
        }
    }

    private mutating func compare(_ snapshot: DomainSnapshot, at index: Int) {
        do {
            try changes?.add(snapshot, at: index)
        } catch {
            giveUpComparing(error)
        }
    }

    /// The changes cannot be gathered: the run has none, and says why.
    private mutating func giveUpComparing(_ error: SQLiteError) {
        changes = nil
        comparisonProblem = "cannot compare with the previous run (its records could not be read back: \(error))"
    }

    /// The previous run is read: the changes are gathered from now on, the waiting domains first.
    private mutating func compare(with run: PreviousRunReader.Run?) {
        previous = nil
        changes = run.map { RunChanges.Collector(previous: $0.records, previousStartedAt: $0.startedAt) }
        for (index, domain) in waiting { compare(domain, at: index) }
        waiting = []
    }

    /// Once every domain is added: waits for the previous run to be read, unless the run was
    /// interrupted, which stops the reading and has no changes when it had not finished.
    mutating func finishComparing(interrupted: Bool) {
        guard let reader = previous else { return }
        if let run = reader.takeIfRead() { return compare(with: run) }
        guard !interrupted else {
            reader.cancel()
            previous = nil
            waiting = []
            return
        }
        compare(with: reader.take())
    }

    /// The positions of the domains never audited (the run was interrupted).
    var notAudited: [Int] { history.missing }

    var complete: Bool { history.complete }

    /// The domains that did not pass, in input order. Handed over once, when every domain is
    /// added (the accumulator's copy is let go).
    mutating func takeFlaggedDomains() -> [FlaggedDomain] {
        // Sorted in place and handed over: a million flagged domains are never two lists.
        flagged.sort { $0.position < $1.position }
        defer { flagged = [] }
        return flagged
    }

    /// The run's domains as the history keeps them, in input order, made one at a time from
    /// the targets' names and the accumulator's columns (a complete run's). Handed over once.
    mutating func takeHistoryDomains(targets: [DomainTarget]) -> HistoryDomainList {
        defer { history = HistoryColumns(count: 0) }
        return history.list(names: targets)
    }

    /// The changes since the previous run; `domains` are the run's domains in input order.
    /// Asked once: the previous run's domains are let go, before the history is read.
    mutating func runChanges(domains: [String]) -> RunChanges? {
        defer { changes = nil }
        do {
            return try changes?.changes(current: domains)
        } catch {
            giveUpComparing(error)
            return nil
        }
    }
}
