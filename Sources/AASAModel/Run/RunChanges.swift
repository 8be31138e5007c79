import Foundation

/// What changed since the previous complete run in the same output folder (the report's
/// `changes`), or between two reports (`aasa-audit diff`).
public struct RunChanges: Codable, Sendable, Equatable {
    /// When the run compared against started.
    public var previousRunStartedAt: Date
    /// Domains whose verdict or findings changed, in the order of the newer run.
    public var domains: [DomainChange]
    /// Domains audited now but not then, and then but not now.
    public var addedDomains: [String]
    public var removedDomains: [String]

    public init(previousRunStartedAt: Date, domains: [DomainChange], addedDomains: [String], removedDomains: [String]) {
        self.previousRunStartedAt = previousRunStartedAt
        self.domains = domains
        self.addedDomains = addedDomains
        self.removedDomains = removedDomains
    }

    public var isEmpty: Bool { domains.isEmpty && addedDomains.isEmpty && removedDomains.isEmpty }

    /// The changes that are news to the team: without the domains whose every new and resolved
    /// finding an acknowledgement covers (`Acknowledgements`), or that the team only just
    /// acknowledged; with those whose acknowledgement ended (expired or removed).
    public var openChanges: RunChanges {
        var open = self
        open.domains = domains.filter { change in
            change.acknowledgement == .ended || change.changedFiles != nil
                || (change.newFindings + change.resolvedFindings).contains(where: \.isOpen)
                || (change.newFindings.isEmpty && change.resolvedFindings.isEmpty && change.acknowledgement != .given)
        }
        return open
    }

    /// The changes without notes: each domain's new and resolved info findings left out, and a
    /// domain left with nothing (its verdict and acknowledgements unchanged) left out. What a
    /// nightly summary lists and `--quiet` weighs (a note that came or went is not news);
    /// `diff` and the reports keep every change.
    public var withoutNotes: RunChanges {
        var kept = self
        kept.domains = domains.compactMap { change in
            var change = change
            change.newFindings.removeAll { $0.severity == .info }
            change.resolvedFindings.removeAll { $0.severity == .info }
            let onlyNotes =
                change.verdict == nil && change.acknowledgement == nil && change.newFindings.isEmpty
                && change.resolvedFindings.isEmpty && change.changedFiles == nil
            return onlyNotes ? nil : change
        }
        return kept
    }

    /// The domains whose only changes are notes (info findings that came or went).
    public var domainsWithOnlyNoteChanges: [String] {
        let kept = Set(withoutNotes.domains.map(\.domain))
        return domains.map(\.domain).filter { !kept.contains($0) }
    }

    /// Domains that got worse: a verdict that fell (pass to warn or fail, warn to fail), or a new
    /// error finding. What `diff` exits 1 for, and what a nightly summary leads with.
    public var regressions: [DomainChange] {
        domains.filter { change in
            if let verdict = change.verdict, verdict.to.rank > verdict.from.rank { return true }
            return change.newFindings.contains { $0.severity == .error }
        }
    }
}

extension Verdict {
    /// pass 0, warn 1, fail 2.
    var rank: Int {
        switch self {
        case .pass: 0
        case .warn: 1
        case .fail: 2
        }
    }
}

public struct DomainChange: Codable, Sendable, Equatable {
    public var domain: String
    /// Absent when the verdict stayed the same.
    public var verdict: VerdictChange?
    public var newFindings: [Finding]
    public var resolvedFindings: [Finding]
    /// Absent when no finding's acknowledgement changed.
    public var acknowledgement: AcknowledgementChange?
    /// The files served both nights whose bytes changed (`DigestedSection`: an opaque
    /// file); absent when none did.
    public var changedFiles: [ChangedFile]?
    /// Its domains.txt labels in this run (`DomainReport.labels`), for routing the alert of a
    /// domain that no longer fails; absent when it has none.
    public var labels: [String: String]?

    public init(
        domain: String, verdict: VerdictChange?, newFindings: [Finding], resolvedFindings: [Finding],
        acknowledgement: AcknowledgementChange? = nil, labels: [String: String]? = nil,
        changedFiles: [ChangedFile]? = nil
    ) {
        self.domain = domain
        self.verdict = verdict
        self.newFindings = newFindings
        self.resolvedFindings = resolvedFindings
        self.acknowledgement = acknowledgement
        self.labels = labels
        self.changedFiles = changedFiles
    }
}

/// A file served both nights with other bytes: its kind's name and the digests before and now.
public struct ChangedFile: Codable, Sendable, Equatable {
    public var file: String
    public var from: String
    public var to: String

    public init(file: String, from: String, to: String) {
        self.file = file
        self.from = from
        self.to = to
    }

    /// How every output says it.
    public var sentence: String {
        let name = AssociationKinds.all.first { $0.id == file }?.fileName ?? file
        return "\(name) changed: SHA-256 \(from.prefix(12))… is now \(to.prefix(12))…"
    }
}

/// How a domain's acknowledgement (`aasa-audit ack`) changed between two runs, its findings
/// the same.
public enum AcknowledgementChange: String, Codable, Sendable {
    /// Findings acknowledged then are open now (the acknowledgement's date passed, or it was
    /// removed): the failure is heard again, as news.
    case ended
    /// Findings open then are acknowledged now: the team's own doing, not news.
    case given

    /// How every output says it.
    public var sentence: String {
        switch self {
        case .ended: "acknowledgement ended: its failure is heard again"
        case .given: "acknowledged by the team (not news)"
        }
    }
}

public struct VerdictChange: Codable, Sendable, Equatable {
    public var from: Verdict
    public var to: Verdict

    public init(from: Verdict, to: Verdict) {
        self.from = from
        self.to = to
    }
}

/// What a report says of one domain, as far as changes go.
public struct DomainSnapshot: Codable, Sendable, Equatable {
    public var domain: String
    public var verdict: Verdict
    public var findings: [Finding]
    /// When the host's TLS certificate expires (`DomainReport.certificateExpires`).
    public var certificateExpires: Date?
    /// The platforms its verdict speaks for (`LinkPlatform`).
    public var linkPlatforms: [LinkPlatform] = [.ios]
    /// Its domains.txt labels (`DomainReport.labels`), which its change carries to the alert.
    public var labels: [String: String]?
    /// The digests of its opaque files, by kind (`AssociationRecords.contentDigests`).
    public var contentDigests: [String: String]?

    public init(domain: String, verdict: Verdict, findings: [Finding], certificateExpires: Date? = nil) {
        self.domain = domain
        self.verdict = verdict
        self.findings = findings
        self.certificateExpires = certificateExpires
    }

    private enum CodingKeys: String, CodingKey {
        case domain, verdict, findings, certificateExpires, linkPlatforms, labels, contentDigests
    }

    /// From a snapshot's own encoding, or from a report's domain record (its platforms read
    /// from the record's fields).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        domain = try container.decode(String.self, forKey: .domain)
        verdict = try container.decode(Verdict.self, forKey: .verdict)
        findings = try container.decode([Finding].self, forKey: .findings)
        certificateExpires = try container.decodeIfPresent(Date.self, forKey: .certificateExpires)
        labels = try container.decodeIfPresent([String: String].self, forKey: .labels)
        if let names = try container.decodeIfPresent([String].self, forKey: .linkPlatforms) {
            linkPlatforms = names.compactMap(LinkPlatform.init(rawValue:))
            contentDigests = try container.decodeIfPresent([String: String].self, forKey: .contentDigests)
        } else {
            linkPlatforms = try LinkPlatform.of(record: decoder)
            contentDigests = try AssociationRecords.contentDigests(record: decoder)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(domain, forKey: .domain)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(findings, forKey: .findings)
        try container.encodeIfPresent(certificateExpires, forKey: .certificateExpires)
        try container.encode(linkPlatforms.map(\.rawValue), forKey: .linkPlatforms)
        try container.encodeIfPresent(labels, forKey: .labels)
        try container.encodeIfPresent(contentDigests, forKey: .contentDigests)
    }

    /// Whether the run did not check the domain (`FindingCode.notChecked(headlines:)`).
    public var notChecked: Bool { FindingCode.notChecked(headlines: findings.lazy.filter(\.isHeadline).map(\.code)) }

    /// Whether Apple's CDN could not be reached from the machine for this domain (`cdn.unchecked`).
    var checkedNoCDN: Bool { findings.contains { $0.code == .aasa(.cdnUnchecked) } }

    public init(_ report: DomainReport) {
        self.init(
            domain: report.domain, verdict: report.verdict, findings: report.findings,
            certificateExpires: report.certificateExpires)
        linkPlatforms = report.linkPlatforms
        labels = report.labels
        contentDigests = report.associations.contentDigests
    }

    /// The change from `previous` to this, or nil when nothing changed. A finding is the same
    /// finding when its code and location are: messages may carry details (byte counts,
    /// timings) that vary from run to run. The run's own `audit.interrupted` is left out.
    public func change(since previous: DomainSnapshot) -> DomainChange? {
        // A domain not checked on either side has no news: neither a failure nor a recovery.
        guard !notChecked, !previous.notChecked else { return nil }
        func key(_ finding: Finding) -> String { "\(finding.code.rawValue)@\(finding.location.rawValue)" }
        /// The findings of `list` beyond as many of the same key in `other`, in order.
        func surplus(_ list: [Finding], over other: [Finding]) -> [Finding] {
            var available = Dictionary(grouping: other, by: key).mapValues(\.count)
            return list.filter { finding in
                guard finding.code != .run(.auditInterrupted) else { return false }
                let k = key(finding)
                if let count = available[k], count > 0 {
                    available[k] = count - 1
                    return false
                }
                return true
            }
        }
        // Apple's CDN out of this machine's reach on either side: its part is not compared, as
        // if neither run had checked it (`--no-cdn`), so that it is neither news nor recovery.
        let comparesCDN = !checkedNoCDN && !previous.checkedNoCDN
        let (now, before) =
            comparesCDN
            ? (findings, previous.findings)
            : (findings.filter { $0.location != .cdn }, previous.findings.filter { $0.location != .cdn })
        let (verdictNow, verdictBefore) =
            comparesCDN ? (verdict, previous.verdict) : (Verdict(findings: now), Verdict(findings: before))
        let added = surplus(now, over: before)
        let resolved = surplus(before, over: now)
        let verdictChange =
            verdictNow == verdictBefore ? nil : VerdictChange(from: verdictBefore, to: verdictNow)
        // The same findings, acknowledged on one side only.
        func keys(_ list: [Finding], open: Bool) -> Set<String> { Set(list.filter { $0.isOpen == open }.map(key)) }
        let reopened = keys(now, open: true).subtracting(keys(before, open: true)).intersection(
            keys(before, open: false))
        let acknowledgement: AcknowledgementChange? =
            if !reopened.isEmpty {
                .ended
            } else if !keys(now, open: false).subtracting(keys(before, open: false)).isDisjoint(
                with: keys(before, open: true))
            {
                .given
            } else {
                nil
            }
        let changedFiles = changedFiles(since: previous)
        guard
            verdictChange != nil || !added.isEmpty || !resolved.isEmpty || acknowledgement != nil || changedFiles != nil
        else { return nil }
        return DomainChange(
            domain: domain, verdict: verdictChange, newFindings: added, resolvedFindings: resolved,
            acknowledgement: acknowledgement, labels: labels, changedFiles: changedFiles)
    }

    /// The opaque files served both nights whose digests differ, in the registry's order; nil
    /// when none did (a file that was not served on one night is a finding's change instead).
    func changedFiles(since previous: DomainSnapshot) -> [ChangedFile]? {
        guard let now = contentDigests, let before = previous.contentDigests else { return nil }
        let changed = AssociationKinds.all.compactMap { kind -> ChangedFile? in
            guard let to = now[kind.id], let from = before[kind.id], from != to else { return nil }
            return ChangedFile(file: kind.id, from: from, to: to)
        }
        return changed.isEmpty ? nil : changed
    }
}

/// An earlier run's domains as far as changes go, looked up one domain at a time: `audit`
/// keeps a previous run of a million domains on disk (`PreviousRunRecords`), `diff` and the
/// tests in memory (`EarlierRunInMemory`).
public protocol EarlierRunRecords {
    /// What a lookup can fail with (`Never` in memory).
    associatedtype Failure: Error
    /// The earlier run's record of `domain` (its first, when it listed the domain twice).
    func record(of domain: String) throws(Failure) -> DomainSnapshot?
    /// The domains of `current` the earlier run lacks, in `current`'s order, and the earlier
    /// run's domains that `current` lacks, in the earlier run's order.
    func difference(from current: [String]) throws(Failure) -> (added: [String], removed: [String])
}

/// An earlier run's domains in memory.
public struct EarlierRunInMemory: EarlierRunRecords, Sendable {
    public typealias Failure = Never

    private let records: [String: DomainSnapshot]
    private let order: [String]

    /// - Parameter domains: in the earlier run's order.
    public init(_ domains: [DomainSnapshot]) {
        records = Dictionary(domains.map { ($0.domain, $0) }, uniquingKeysWith: { first, _ in first })
        order = domains.map(\.domain)
    }

    public func record(of domain: String) -> DomainSnapshot? { records[domain] }

    public func difference(from current: [String]) -> (added: [String], removed: [String]) {
        let now = Set(current)
        return (current.filter { records[$0] == nil }, order.filter { !now.contains($0) })
    }
}

extension RunChanges {
    /// The changes of a run against an earlier one, gathered as the run's domains complete, in
    /// any order: only the domains that changed are kept.
    public struct Collector<Earlier: EarlierRunRecords> {
        private let previousStartedAt: Date
        private let previous: Earlier
        private var changed: [(index: Int, change: DomainChange)] = []

        public init(previous: Earlier, previousStartedAt: Date) {
            self.previousStartedAt = previousStartedAt
            self.previous = previous
        }

        /// Adds the domain at `index` of the current run.
        public mutating func add(_ snapshot: DomainSnapshot, at index: Int) throws(Earlier.Failure) {
            if let before = try previous.record(of: snapshot.domain), let change = snapshot.change(since: before) {
                changed.append((index, change))
            }
        }

        /// The changes, once every domain is added; `current` is the run's domains in its order.
        public func changes(current: [String]) throws(Earlier.Failure) -> RunChanges {
            let (added, removed) = try previous.difference(from: current)
            return RunChanges(
                previousRunStartedAt: previousStartedAt,
                domains: changed.sorted { $0.index < $1.index }.map(\.change),
                addedDomains: added, removedDomains: removed)
        }
    }

    /// The changes between two whole runs.
    public static func between(previous: [DomainSnapshot], previousStartedAt: Date, current: [DomainSnapshot])
        -> RunChanges
    {
        var collector = Collector(previous: EarlierRunInMemory(previous), previousStartedAt: previousStartedAt)
        for (index, snapshot) in current.enumerated() { collector.add(snapshot, at: index) }
        return collector.changes(current: current.map(\.domain))
    }
}

extension RunChanges.Collector: Sendable where Earlier: Sendable {}
