import Foundation

/// What `--notify-on` sends an alert for.
public enum AlertTrigger: String, Sendable, CaseIterable, Codable {
    /// A domain started failing, a failing one has a new error, or a failure recovered (the
    /// default: a team told of a failure is told when it ends).
    case failures
    /// Any of: new failures, new warnings, recoveries.
    case changes
    /// After every complete run, even when nothing changed (a heartbeat for the nightly job).
    case always
}

/// When the webhook hears a failure, in the words monitoring tools use: alert after N failing
/// runs (Gatus' `failure-threshold`, Alertmanager's `for`), remind while it lasts (Alertmanager's
/// `repeat_interval`).
public struct AlertPolicy: Sendable, Equatable {
    /// `--alert-after N`: the runs a new failure or warning must last before it is sent (1: at
    /// once); a recovery is sent only for one that was.
    public var alertAfter = 1
    /// `--remind-every DAYS`: a failure still standing is sent again each time this many days of
    /// it have passed.
    public var remindEvery: TimeInterval?

    public init(alertAfter: Int = 1, remindEvery: TimeInterval? = nil) {
        self.alertAfter = alertAfter
        self.remindEvery = remindEvery
    }

    public static let maximumAlertAfter = 30
    public static let maximumRemindDays = 90
}

/// The document `--notify URL` POSTs after a complete run (`docs/report-format.md`,
/// "Notifications"): what changed since the previous complete run, with a `text` that chat
/// webhooks (Slack, Mattermost, Rocket.Chat) display as it is. Pure: built from the run's
/// changes and its flagged domains.
public struct RunAlert: Codable, Sendable, Equatable {
    public static let schemaVersion = 1
    /// Domains listed per kind at most; `counts` has the whole numbers.
    public static let listLimit = 100
    /// Domains named per kind in `text`.
    public static let textLimit = 10
    /// Codes a chat line names per domain, before "and N more".
    static let codesNamed = 3

    public var schemaVersion = RunAlert.schemaVersion
    public var event = "aasa-audit.run"
    /// A short message, Markdown-free, a line per kind of change.
    public var text: String
    public var run: Run
    /// pass, warn and fail counts of the run.
    public var verdicts: VerdictCounts
    /// How many domains are in each list, before `listLimit`.
    public var counts: Counts
    /// Domains that started failing, or failing ones with a new error (`codes`: the new errors,
    /// or every error of a domain that was not failing before).
    public var failures: [Domain]
    /// Domains that started warning, or warning ones with a new warning.
    public var warnings: [Domain]
    /// Domains whose verdict got better.
    public var recoveries: [Domain]
    /// Domains still failing that `--remind-every` sends again (`since`: when they started).
    public var reminders: [Domain]?
    /// Failing or warning domains whose findings the team acknowledged (`aasa-audit ack`): in
    /// the counts of `verdicts`, never news, listed so the counts add up (`acknowledgement`:
    /// until when, by whom, why); absent when there are none.
    public var acknowledged: [Domain]?
    /// Domains whose opaque file (`DigestedSection`) was served both nights with other bytes
    /// (`changedFiles`): a deploy may have overwritten the file its issuer gave, which the
    /// platform's next check then rejects; absent when there are none.
    public var changedFiles: [Domain]?
    /// What kept this machine from checking the run properly (`AuditorProblems`); absent for a
    /// sound run. Then the lists are empty: no domain's change can be trusted, and the alert
    /// is about the audit, not the sites.
    public var auditorProblems: [String]?

    public struct Run: Codable, Sendable, Equatable {
        public var startedAt: Date
        /// The run's folder and its HTML report, as paths on the machine that ran it.
        public var folder: String
        public var report: String
        /// The run compared against; absent for the first run of an output folder.
        public var previousRunStartedAt: Date?
        /// The report's address where `--out` is served (`--report-url`), when given.
        public var reportURL: String?
        /// The fleet: the `--out` folder the run belongs to (Alertmanager's `output` label), so
        /// that a team with several audits knows which one speaks.
        public var output: String?

        public init(
            startedAt: Date, folder: String, report: String, previousRunStartedAt: Date?, reportURL: String? = nil,
            output: String? = nil
        ) {
            self.startedAt = startedAt
            self.folder = folder
            self.report = report
            self.previousRunStartedAt = previousRunStartedAt
            self.reportURL = reportURL
            self.output = output
        }

        /// The domain's row in the served report, when the report is served.
        func link(to domain: String) -> String? { reportURL.map { "\($0)#\(domain)" } }
    }

    public struct Counts: Codable, Sendable, Equatable {
        public var failures: Int
        public var warnings: Int
        public var recoveries: Int
        public var reminders: Int?
        public var acknowledged: Int?
        public var changedFiles: Int?
    }

    /// What `AlertPolicy` needs to decide: the history's standings of the flagged and changed
    /// domains, this run's start and the previous run's.
    public struct PolicyInput: Sendable {
        public var policy: AlertPolicy
        public var standings: [String: RunHistory.Standing]
        public var now: Date
        public var previousRun: Date?

        public init(policy: AlertPolicy, standings: [String: RunHistory.Standing], now: Date, previousRun: Date?) {
            self.policy = policy
            self.standings = standings
            self.now = now
            self.previousRun = previousRun
        }
    }

    public struct Domain: Codable, Sendable, Equatable {
        public var domain: String
        public var verdict: Verdict
        /// Absent for a domain the previous run did not audit.
        public var previousVerdict: Verdict?
        public var codes: [String]
        /// True when it is heard again because its acknowledgement's date passed since the last run.
        public var acknowledgementExpired: Bool?
        /// How its acknowledgement ended since the last run, when that is why it is heard again:
        /// `expired` (its date passed), `removed` (`ack --remove`) or `changed` (replaced by one
        /// that no longer covers its findings).
        public var acknowledgementEnded: AcknowledgementEnd?
        /// Its domains.txt labels (`label:team=payments`), for routing; absent when it has none.
        public var labels: [String: String]?
        /// Since when it has failed, for a reminder or a failure sent after `--alert-after` runs.
        public var since: Date?
        /// Its row in the served report (`--report-url`), when the report is served.
        public var report: String?
        /// For an acknowledged domain: "until 2026-12-31 by ana: waiting on the CDN vendor".
        public var acknowledgement: String?
        /// For a domain whose file changed: which, and its digests before and now.
        public var changedFiles: [ChangedFile]?
    }

    /// Whether the trigger asks for this alert to be sent.
    public func isSent(on trigger: AlertTrigger) -> Bool {
        // A team hears that its audit cannot check, whatever it asked to hear about.
        if auditorProblems != nil { return true }
        return switch trigger {
        case .failures:
            counts.failures + (counts.reminders ?? 0) + recoveries.filter { $0.previousVerdict == .fail }.count > 0
        case .changes:
            counts.failures + counts.warnings + counts.recoveries + (counts.reminders ?? 0)
                + (counts.changedFiles ?? 0) > 0
        case .always: true
        }
    }

    /// - Parameters:
    ///   - changes: against the previous complete run; nil for the first run (then every failing
    ///     and warning domain is new).
    ///   - flagged: the run's domains that did not pass, in input order.
    /// A domain whose acknowledgement ended since the previous run (`DomainChange.acknowledgement`:
    /// its date passed, or it was removed) and that still fails or warns is heard again; how it
    /// ended is read from `acknowledgements`, the run's (`ended` without them).
    /// Acknowledged findings are never news (`Finding.isOpen`).
    public init(
        run: Run, verdicts: VerdictCounts, changes: RunChanges?, flagged: [FlaggedDomain],
        auditorProblems: [String]? = nil, policy: PolicyInput? = nil, acknowledgements: Acknowledgements? = nil
    ) {
        // Nothing this run says of a domain is compared: its failures may be this machine's.
        let flagged = auditorProblems == nil ? flagged : []
        let ends = { (domain: String) in acknowledgements?.end(for: domain, at: run.startedAt) ?? .ended }
        var lists = Self.news(changes: auditorProblems == nil ? changes : nil, flagged: flagged, ends: ends)
        if let policy, auditorProblems == nil {
            Self.apply(
                policy, flagged: flagged, failures: &lists.failures, warnings: &lists.warnings,
                recoveries: &lists.recoveries, reminders: &lists.reminders)
        }
        lists.acknowledged = Self.acknowledged(flagged)
        lists.label(flagged: flagged, changes: changes, run: run)
        self.run = run
        self.verdicts = verdicts
        let reminded = policy?.policy.remindEvery != nil
        counts = Counts(
            failures: lists.failures.count, warnings: lists.warnings.count, recoveries: lists.recoveries.count,
            reminders: reminded ? lists.reminders.count : nil,
            acknowledged: lists.acknowledged.isEmpty ? nil : lists.acknowledged.count,
            changedFiles: lists.changed.isEmpty ? nil : lists.changed.count)
        acknowledged = lists.acknowledged.isEmpty ? nil : Array(lists.acknowledged.prefix(Self.listLimit))
        changedFiles = lists.changed.isEmpty ? nil : Array(lists.changed.prefix(Self.listLimit))
        reminders = reminded ? Array(lists.reminders.prefix(Self.listLimit)) : nil
        failures = Array(lists.failures.prefix(Self.listLimit))
        warnings = Array(lists.warnings.prefix(Self.listLimit))
        recoveries = Array(lists.recoveries.prefix(Self.listLimit))
        self.auditorProblems = auditorProblems
        text = ""
        text = composedText
    }

    /// The alert's lists while they are built.
    struct Lists {
        var failures: [Domain] = []
        var warnings: [Domain] = []
        var recoveries: [Domain] = []
        var reminders: [Domain] = []
        var acknowledged: [Domain] = []
        var changed: [Domain] = []

        /// A flagged domain as news: its open verdict decides its list.
        mutating func add(_ domain: FlaggedDomain, previous: Verdict? = nil, ended: AcknowledgementEnd? = nil) {
            let entry = Domain(
                domain: domain.domain, verdict: domain.openVerdict, previousVerdict: previous,
                codes: domain.openCodes.map(\.rawValue),
                acknowledgementExpired: ended == .expired ? true : nil, acknowledgementEnded: ended)
            if domain.openVerdict == .fail {
                failures.append(entry)
            } else if domain.openVerdict == .warn {
                warnings.append(entry)
            }
        }

        static let all = [\Lists.reminders, \.failures, \.warnings, \.recoveries, \.acknowledged, \.changed]

        /// Each entry the alert lists labelled (domains.txt's labels, from what the run says of
        /// its domain: `RunAlert.labels`) and linked to its report.
        mutating func label(flagged: [FlaggedDomain], changes: RunChanges?, run: Run) {
            let listed = Set(Self.all.flatMap { self[keyPath: $0].prefix(RunAlert.listLimit).map(\.domain) })
            let labels = RunAlert.labels(of: listed, flagged: flagged, changes: changes)
            for path in Self.all {
                for index in self[keyPath: path].indices.prefix(RunAlert.listLimit) {
                    let name = self[keyPath: path][index].domain
                    self[keyPath: path][index].labels = labels[name]
                    self[keyPath: path][index].report = run.link(to: name)
                }
            }
        }
    }

    /// The labels of the `listed` domains, from what the run says of them: a flagged domain's
    /// record, and a changed one's (a recovery is not flagged). The standings name no other
    /// domain (`AuditRun.updateHistory` asks for the flagged and changed ones').
    static func labels(of listed: Set<String>, flagged: [FlaggedDomain], changes: RunChanges?)
        -> [String: [String: String]]
    {
        var labels: [String: [String: String]] = [:]
        for change in changes?.domains ?? [] where listed.contains(change.domain) {
            if let own = change.labels { labels[change.domain] = own }
        }
        for domain in flagged where listed.contains(domain.domain) {
            if let own = domain.labels { labels[domain.domain] = own }
        }
        return labels
    }

    /// What is new since the previous run: new domains and changed ones, in the run's order
    /// (changed and new interleaved as the input lists them); every flagged domain on a first run.
    /// `ends`: how a domain's acknowledgement ended (`Acknowledgements.end`).
    static func news(changes: RunChanges?, flagged: [FlaggedDomain], ends: (String) -> AcknowledgementEnd) -> Lists {
        var lists = Lists()
        guard let changes else {
            flagged.forEach { lists.add($0) }
            return lists
        }
        let flaggedByName = Dictionary(flagged.map { ($0.domain, $0) }, uniquingKeysWith: { first, _ in first })
        let added = Set(changes.addedDomains)
        let changed = Dictionary(changes.domains.map { ($0.domain, $0) }, uniquingKeysWith: { first, _ in first })
        for name in flagged.map(\.domain).filter({ added.contains($0) }) + changes.domains.map(\.domain) {
            if added.contains(name), let domain = flaggedByName[name] {
                lists.add(domain)
            } else if let change = changed[name] {
                heard(change, now: flaggedByName[name], ends: ends, into: &lists)
            }
        }
        return lists
    }

    /// A changed domain: heard again when its acknowledgement ended and it still fails or warns;
    /// a recovery when the site's verdict got better (an acknowledgement is not one); a failure
    /// or warning by the verdict of its open findings, with the causes that are new.
    static func heard(
        _ change: DomainChange, now domain: FlaggedDomain?, ends: (String) -> AcknowledgementEnd,
        into lists: inout Lists
    ) {
        let name = change.domain
        if let files = change.changedFiles {
            lists.changed.append(
                Domain(
                    domain: name, verdict: domain?.verdict ?? change.verdict?.to ?? .pass, previousVerdict: nil,
                    codes: [], changedFiles: files))
        }
        if change.acknowledgement == .ended, let domain, domain.openVerdict != .pass {
            lists.add(domain, previous: change.verdict?.from ?? domain.verdict, ended: ends(name))
            return
        }
        let verdictNow = change.verdict?.to ?? domain?.verdict ?? .pass
        let before = change.verdict?.from ?? verdictNow
        let now = domain?.openVerdict ?? .pass
        // Causes only: a consequence that shows up later (Apple's CDN dropping its copy a day
        // after the origin broke) is not news.
        func codes(_ severity: Severity) -> [String] {
            var seen = Set<String>()
            return change.newFindings.filter {
                $0.causedBy == nil && $0.isOpen && $0.severity == severity && seen.insert($0.code.rawValue).inserted
            }.map(\.code.rawValue)
        }
        if verdictNow.rank < before.rank {
            let resolved = change.resolvedFindings.filter { $0.causedBy == nil }.map(\.code.rawValue).uniqued()
            lists.recoveries.append(Domain(domain: name, verdict: verdictNow, previousVerdict: before, codes: resolved))
            return
        }
        guard now == .fail || now == .warn else { return }
        let new = codes(now == .fail ? .error : .warning)
        // A domain that turned this bad is heard with all its open causes; one that was already
        // this bad, only with the causes that are new.
        let entryCodes = before != now ? domain?.openCodes.map(\.rawValue) ?? new : new
        guard before != now || !new.isEmpty else { return }
        let entry = Domain(domain: name, verdict: now, previousVerdict: before, codes: entryCodes)
        if now == .fail { lists.failures.append(entry) } else { lists.warnings.append(entry) }
    }

    /// The domains failing or warning only through what the team acknowledged.
    static func acknowledged(_ flagged: [FlaggedDomain]) -> [Domain] {
        flagged.compactMap { domain in
            guard let mark = domain.acknowledged, domain.openVerdict.rank < domain.verdict.rank else { return nil }
            return Domain(
                domain: domain.domain, verdict: domain.verdict, previousVerdict: nil,
                codes: domain.codes.map(\.rawValue), acknowledgement: mark.summary)
        }
    }

    /// `--alert-after` and `--remind-every` over the lists built from the changes: a new failure
    /// or warning waits until it has lasted `alertAfter` runs (then it is sent, once); a recovery
    /// is sent only for one that had; a failure still standing is reminded of (`reminders`).
    static func apply(
        _ input: PolicyInput, flagged: [FlaggedDomain], failures: inout [Domain], warnings: inout [Domain],
        recoveries: inout [Domain], reminders: inout [Domain]
    ) {
        let after = input.policy.alertAfter
        // What the history says changed in this run, across a run that did not check a domain
        // too (its changes compare with that run, and say nothing): a verdict whose streak began
        // now is news the changes may have missed.
        var listed = Set((failures + warnings + recoveries).map(\.domain))
        for domain in flagged where !listed.contains(domain.domain) {
            guard let standing = input.standings[domain.domain], standing.verdictRuns == 1,
                let before = standing.previousVerdict, before.rank < domain.openVerdict.rank
            else { continue }
            let entry = Domain(
                domain: domain.domain, verdict: domain.openVerdict, previousVerdict: before,
                codes: domain.openCodes.map(\.rawValue))
            if domain.openVerdict == .fail { failures.append(entry) }
            if domain.openVerdict == .warn { warnings.append(entry) }
            listed.insert(domain.domain)
        }
        for (name, standing) in input.standings.sorted(by: { $0.key < $1.key })
        where !listed.contains(name) && standing.verdictRuns == 1 {
            guard let before = standing.previousVerdict, standing.verdict.rank < before.rank else { continue }
            recoveries.append(Domain(domain: name, verdict: standing.verdict, previousVerdict: before, codes: []))
        }
        // What a team has heard is what some run sent, under that run's own `--alert-after`
        // (the history keeps each run's): a failure or warning is news once its stretch has been
        // heard, its first time in the run that heard it, and its end only when it had been.
        func streak(_ name: String) -> RunHistory.Streak? { input.standings[name]?.notPassingSince }
        func heard(_ entry: Domain) -> Bool { streak(entry.domain).map { $0.heardAt != nil } ?? (after <= 1) }
        failures = failures.filter(heard)
        warnings = warnings.filter(heard)
        recoveries = recoveries.filter { entry in
            guard let standing = input.standings[entry.domain] else { return true }
            return standing.previousHeard ?? ((standing.previousVerdictRuns ?? after) >= after)
        }
        // Heard first tonight, though its stretch began before (it lasted `--alert-after` runs,
        // or the setting came down to what it has lasted): news the changes do not carry. A
        // stretch that began tonight is the changes' to tell (a failure that fell to a warning
        // is a recovery, not a new warning).
        let heardNow = Set((failures + warnings).map(\.domain))
        for domain in flagged where !heardNow.contains(domain.domain) {
            guard let streak = streak(domain.domain), streak.runs > 1, streak.heardAt != nil, !streak.heardBefore
            else { continue }
            let entry = Domain(
                domain: domain.domain, verdict: domain.openVerdict, previousVerdict: nil,
                codes: domain.openCodes.map(\.rawValue), since: streak.sinceDate)
            if domain.openVerdict == .fail { failures.append(entry) }
            if domain.openVerdict == .warn { warnings.append(entry) }
        }
        reminders = Self.reminders(input, flagged: flagged, notFailingNow: Set(failures.map(\.domain)))
    }

    /// `--remind-every`: each failure still standing that was sent in an earlier run, again
    /// each time another period has passed since it was sent: never "still failing" before
    /// "failing".
    static func reminders(_ input: PolicyInput, flagged: [FlaggedDomain], notFailingNow failing: Set<String>)
        -> [Domain]
    {
        guard let every = input.policy.remindEvery, every > 0, let previous = input.previousRun else { return [] }
        var reminders: [Domain] = []
        for domain in flagged where domain.openVerdict == .fail && !failing.contains(domain.domain) {
            guard let streak = input.standings[domain.domain]?.notPassingSince else { continue }
            guard streak.heardBefore, let heard = streak.heardAt else { continue }
            let since = streak.sinceDate
            let now = input.now.timeIntervalSince(heard)
            let before = previous.timeIntervalSince(heard)
            guard now >= every, (now / every).rounded(.down) > (max(0, before) / every).rounded(.down) else { continue }
            reminders.append(
                Domain(
                    domain: domain.domain, verdict: .fail, previousVerdict: .fail,
                    codes: domain.openCodes.map(\.rawValue), since: since))
        }
        return reminders
    }

    private var composedText: String {
        var lines: [String] = []
        let total = verdicts.pass + verdicts.warn + verdicts.fail
        if let auditorProblems {
            lines.append(
                "aasa-audit: this machine could not check the \(total) domains properly, so this alert says nothing about the sites; the next sound run is compared with the last sound one."
            )
            lines += auditorProblems
            lines.append("Report: \(run.reportURL ?? run.report)")
            return lines.joined(separator: "\n")
        }
        var parts: [String] = []
        if counts.failures > 0 { parts.append("\(counts.failures) new failure\(counts.failures == 1 ? "" : "s")") }
        if counts.warnings > 0 { parts.append("\(counts.warnings) new warning\(counts.warnings == 1 ? "" : "s")") }
        if counts.recoveries > 0 { parts.append("\(counts.recoveries) recovered") }
        if let reminders = counts.reminders, reminders > 0 { parts.append("\(reminders) still failing") }
        if let changed = counts.changedFiles {
            parts.append("\(changed) changed file\(changed == 1 ? "" : "s")")
        }
        let headline = parts.isEmpty ? "no changes" : parts.joined(separator: ", ")
        let acknowledgedCount = counts.acknowledged.map { " (\($0) acknowledged)" } ?? ""
        lines.append(
            "aasa-audit: \(headline). \(total) domains: \(verdicts.pass) pass, \(verdicts.warn) warn, \(verdicts.fail) fail\(acknowledgedCount)."
        )
        if let output = run.output { lines.append("Fleet: \(output)") }
        func list(_ title: String, _ domains: [Domain], count: Int) {
            guard count > 0 else { return }
            let named = domains.prefix(Self.textLimit).map { domain in
                // Three codes at most, and how many more (issue 56: a Recovered line named 3 of 6).
                let codes =
                    Array(domain.codes.prefix(Self.codesNamed))
                    + (domain.codes.count > Self.codesNamed
                        ? ["and \(domain.codes.count - Self.codesNamed) more"] : [])
                let notes =
                    codes
                    + (domain.acknowledgementEnded.map { [$0.phrase] } ?? [])
                    + (domain.acknowledgement.map { [$0] } ?? []) + (domain.changedFiles ?? []).map(\.sentence)
                let named = notes.isEmpty ? domain.domain : "\(domain.domain) (\(notes.joined(separator: ", ")))"
                return domain.report.map { "\(named) \($0)" } ?? named
            }
            let more = count > named.count ? " and \(count - named.count) more" : ""
            lines.append("\(title): \(named.joined(separator: "; "))\(more)")
        }
        list("Failing", failures, count: counts.failures)
        list("Warning", warnings, count: counts.warnings)
        list("Recovered", recoveries, count: counts.recoveries)
        list("Still failing", reminders ?? [], count: counts.reminders ?? 0)
        list("Acknowledged, not alerted", acknowledged ?? [], count: counts.acknowledged ?? 0)
        list("Changed files", changedFiles ?? [], count: counts.changedFiles ?? 0)
        lines.append("Report: \(run.reportURL ?? run.report)")
        return lines.joined(separator: "\n")
    }
}

extension Array where Element: Hashable {
    /// The elements without repeats, in order.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
