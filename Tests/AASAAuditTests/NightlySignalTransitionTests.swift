import AASAReport
import Foundation
import Testing

@testable import AASAAudit
@testable import AASAModel

/// Every change of one domain between two nights, for every kind of record it can have, is
/// heard where a team reads it: the closing summary, the report's changes, `diff`, the alert and
/// the history's streaks; a night on which the domain was not checked is heard nowhere, and
/// neither is a break or recovery across it lost.
@Suite struct NightlySignalTransitionTests {
    /// The kinds of record one domain can have on a night.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case clean, info, warning, error, unchecked
        var testDescription: String { rawValue }

        /// A site that serves no root copy (as Apple advises) has a note when healthy.
        var findings: [Finding] {
            let note = Finding(
                code: .aasa(.locationRootAbsent), severity: .info, location: .root,
                message: "No file at the root (404).")
            switch self {
            case .clean: return []
            case .info: return [note]
            case .warning:
                return [
                    Finding(
                        code: .aasa(.httpContentType), severity: .warning, location: .wellKnown,
                        message: "Content-Type is text/plain"), note,
                ]
            case .error:
                return [
                    Finding(code: .aasa(.httpStatus), severity: .error, location: .wellKnown, message: "HTTP 404"),
                    note,
                ]
            case .unchecked:
                return [
                    Finding(
                        code: .run(.auditUnchecked), severity: .error, location: .wellKnown,
                        message: "Problem with the local SSL certificate")
                ]
            }
        }

        func report(_ domain: String) -> DomainReport {
            DomainReport(
                domain: domain, inputLine: 1, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
                findings: findings)
        }

        var verdict: Verdict { Verdict(findings: findings) }
    }

    static let domain = "rootless.example"
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    /// What one night's run gives, built from the records as the run builds them.
    struct Night {
        var reports: [DomainReport]
        var startedAt: Date

        var history: HistoryRun {
            HistoryRun(
                run: "night-\(Int(startedAt.timeIntervalSince1970))", startedAt: startedAt,
                finishedAt: startedAt.addingTimeInterval(60), domains: reports.map(HistoryDomain.init),
                auditorProblems: nil)
        }
        var summary: ReportSummary {
            var summary = ReportSummary()
            for report in reports { summary.add(report) }
            return summary
        }
        var flagged: [FlaggedDomain] { reports.compactMap(FlaggedDomain.init) }
    }

    /// The signal of the last of `kinds` (one a night), compared with the nights before.
    struct Signal {
        var changes: RunChanges
        var diff: RunChanges
        var alert: RunAlert
        var summary: String
        var since: RunHistory.Streak?
        var exit: AASAAudit.ExitStatus
        var quiet: Bool
    }

    static func signal(_ kinds: [Kind]) throws -> Signal {
        let nights = kinds.enumerated().map { index, kind in
            Night(reports: [kind.report(domain)], startedAt: start.addingTimeInterval(Double(index) * 86400))
        }
        let (previous, current) = (nights[nights.count - 2], nights[nights.count - 1])
        let changes = RunChanges.between(
            previous: previous.reports.map(DomainSnapshot.init), previousStartedAt: previous.startedAt,
            current: current.reports.map(DomainSnapshot.init))
        // diff reads the two reports as JSON, as a team's CI step does.
        let diff = RunChanges.between(
            previous: try roundTrip(previous.reports).map(DomainSnapshot.init), previousStartedAt: previous.startedAt,
            current: try roundTrip(current.reports).map(DomainSnapshot.init))
        let history = RunHistory(runs: nights.map(\.history))
        let standing = history.standings().first { $0.domain == domain }
        let since = standing?.notPassingSince
        // The alert as the run builds it: from the changes and the history's standings.
        let alert = RunAlert(
            run: RunAlert.Run(startedAt: current.startedAt, folder: "f", report: "r", previousRunStartedAt: nil),
            verdicts: current.summary.verdicts, changes: changes, flagged: current.flagged,
            policy: RunAlert.PolicyInput(
                policy: AlertPolicy(), standings: standing.map { [domain: $0] } ?? [:], now: current.startedAt,
                previousRun: previous.startedAt))
        let summary =
            TerminalReport(colour: false).sinceLastRun(changes)
            + TerminalReport(colour: false).runSummary(
                summary: current.summary, flagged: current.flagged, problems: [], seconds: 1, complete: true,
                since: since.map { [domain: $0] } ?? [:])
        let result = AuditRunResult(
            runDirectory: URL(fileURLWithPath: "/tmp/run"), reportJSON: URL(fileURLWithPath: "/tmp/run/report.json"),
            reportHTML: URL(fileURLWithPath: "/tmp/run/report.html"), summary: current.summary,
            flaggedDomains: current.flagged, complete: true, durationSeconds: 1, changes: changes, notification: nil,
            historyProblem: nil, notPassingSince: [:])
        return Signal(
            changes: changes, diff: diff, alert: alert, summary: summary, since: since,
            exit: ExitPolicy.audit(result, problems: [], failOn: .error, interruptedBy: nil),
            quiet: AuditJob.isQuietNight(result, input: AuditInput(files: [], targets: [], problems: [])))
    }

    static func roundTrip(_ reports: [DomainReport]) throws -> [DomainReport] {
        try JSONReport.makeDecoder().decode(
            [DomainReport].self, from: JSONReport.makeEncoder().encode(reports))
    }

    static var transitions: [(Kind, Kind)] {
        Kind.allCases.flatMap { from in Kind.allCases.map { (from, $0) } }
    }

    @Test(arguments: transitions)
    func aChangeBetweenTwoNightsIsHeardEverywhere(from: Kind, to: Kind) throws {
        let signal = try Self.signal([from, to])
        let checked = from != .unchecked && to != .unchecked
        let changed = checked && from != to
        // A note that came or went is a change the reports and diff keep, not news for the
        // nightly mail (issue 47, item 6): it is named in one line, not listed.
        let notesOnly = changed && [Kind.clean, .info].contains(from) && [Kind.clean, .info].contains(to)
        let news = changed && !notesOnly

        // The report's changes, the summary's "Since the last run", and diff.
        #expect((signal.changes.domains.map(\.domain) == [Self.domain]) == changed)
        #expect(signal.diff == signal.changes)
        #expect(signal.summary.hasPrefix("No changes since the last run") == !news, "\(signal.summary)")
        #expect(
            signal.summary.hasPrefix(
                "No changes since the last run (notes (info) changed on 1 domain: \(Self.domain)).")
                == notesOnly, "\(signal.summary)")
        let rank: [Kind: Int] = [.clean: 0, .info: 0, .warning: 1, .error: 2]
        let worse = checked && rank[to]! > rank[from]!
        #expect(!signal.diff.regressions.isEmpty == worse)

        // The alert: a new failure, a new warning, a recovery; nothing for notes or not checked.
        #expect(signal.alert.failures.map(\.domain) == (checked && to == .error && from != .error ? [Self.domain] : []))
        #expect(
            signal.alert.warnings.map(\.domain) == (worse && to == .warning ? [Self.domain] : []))
        // (A failure that falls to a warning is a recovery.)
        let better = checked && rank[to]! < rank[from]!
        #expect(signal.alert.recoveries.map(\.domain) == (better ? [Self.domain] : []))
        // The default trigger: a new failure, or a failure's recovery.
        #expect(
            signal.alert.isSent(on: .failures)
                == (checked && (to == .error && from != .error || from == .error && better)))

        // The history's streaks: a failure or warning counts the nights it has lasted.
        switch to {
        case .clean, .info, .unchecked: #expect(signal.since == nil)
        case .warning, .error: #expect(signal.since?.runs == (from == to ? 2 : 1))
        }
        // The exit status and --quiet: a failing site fails the job; a site not checked is this
        // machine's (3); a night of notes only is quiet when nothing changed.
        let exit: AASAAudit.ExitStatus = to == .error ? .failed : to == .unchecked ? .auditorProblems : .success
        #expect(signal.exit == exit)
        #expect(signal.quiet == ((to == .clean || to == .info) && !news))
    }

    /// A night on which the domain was not checked breaks no streak and starts none: the history
    /// carries a failure through it (three nights failing), and starts one the night it is seen;
    /// a break or a recovery across it is heard (the changes compare with the night that did
    /// not check it, and say nothing; the history's streaks do).
    @Test(arguments: [Kind.clean, .info, .warning, .error])
    func aNightNotCheckedBetweenTwoKeepsTheStreaksAndHidesNoChange(before: Kind) throws {
        let broke = try Self.signal([before, .unchecked, .error])
        #expect(broke.since?.runs == (before == .error ? 3 : 1))
        #expect(broke.alert.failures.map(\.domain) == (before == .error ? [] : [Self.domain]))
        let mended = try Self.signal([before, .unchecked, .clean])
        let worse: Set<Kind> = [.warning, .error]
        #expect(mended.alert.recoveries.map(\.domain) == (worse.contains(before) ? [Self.domain] : []))
        #expect(mended.alert.failures.isEmpty && mended.alert.warnings.isEmpty)
    }
}
