import AASAModel
import Foundation
import Mustache

/// `index.html` in `--out`: the fleet over the kept runs. A stacked bar per run (pass, warn,
/// fail; inline SVG, each bar a link to its run's report), every domain of the newest run with
/// its verdict, since when, verdict changes (flapping), how long Apple's CDN copy has been
/// stale and when it last passed; the run report's filters. Rendered as a head, a row per
/// domain and a tail, so that it can be written as a stream.
public struct HistoryIndexPage: Sendable {
    /// The page's size and the time to write it do not grow with the number of kept runs
    /// (`--keep` may be large, or absent): the chart draws the newest `chartedRuns`, the table
    /// of runs lists the newest `listedRuns`, and the older ones are counted. Its rows are the
    /// newest run's domains.
    public static let chartedRuns = 120
    public static let listedRuns = 100
    /// Nor with the number of domains: beyond this many, the rows are the domains worth a look
    /// (not passing, flapping, or with a stale CDN copy), up to this many; the run's report
    /// lists every domain.
    public static let maximumRows = 10_000

    private let headTemplate: MustacheTemplate
    private let rowTemplate: MustacheTemplate
    private let tailTemplate: MustacheTemplate

    public init() {
        HTMLEscaping.register()
        headTemplate = try! MustacheTemplate(string: HistoryIndexTemplates.head)
        rowTemplate = try! MustacheTemplate(string: HistoryIndexTemplates.row)
        tailTemplate = try! MustacheTemplate(string: HistoryIndexTemplates.tail)
    }

    /// Writes the page for a history of at least one run: `write` gets it in pieces. The
    /// domains are gone through twice (the head's counts, then the rows), one at a time.
    /// - Parameter acknowledged: the team's acknowledgements of `--out` in force at `now`: a
    ///   domain whose every code one covers is marked so, not shown as a plain failure.
    public func render(
        _ history: RunHistory, tool: ToolInfo, acknowledged: Acknowledgements = Acknowledgements(), now: Date = .now,
        to write: (String) throws -> Void
    ) rethrows {
        // The rows are the last sound run's domains (`RunHistory`): they link its report and
        // count durations to it; a newer run this machine could not check is only listed.
        guard let latest = history.latestSound ?? history.latest else { return }
        let rule = history.flapping
        let toolName = "\(tool.name) \(tool.versionLine)"
        let capped = history.latestDomainCount > Self.maximumRows
        var counts = IndexHeadView.Counts()
        history.forEachStanding { standing in
            counts.flapping += standing.flapping ? 1 : 0
            counts.stale += standing.cdnStaleSince != nil ? 1 : 0
            counts.rows += Self.isRow(standing, capped: capped) ? 1 : 0
        }
        counts.rows = min(counts.rows, Self.maximumRows)
        try write(headTemplate.render(IndexHeadView(history: history, counts: counts, tool: toolName, rule: rule)))
        let report = Self.reportLink(latest.run)
        var written = 0
        try history.forEachStanding { standing in
            guard written < counts.rows, Self.isRow(standing, capped: capped) else { return }
            written += 1
            let acknowledgement = standing.verdict == .pass ? nil : acknowledged.active(for: standing.domain, at: now)

            let covering = acknowledgement.flatMap { ack in
                ack.codes.map { Set(standing.codes).isSubset(of: $0) } ?? true ? AcknowledgementMark(ack) : nil
            }
            try write(
                rowTemplate.render(
                    IndexRowView(standing, latest: latest.startedAt, report: report, acknowledged: covering)))
        }
        try write(
            tailTemplate.render([
                "tool": toolName, "latest": Self.format(latest.startedAt), "flapChanges": "\(rule.changes)",
                "flapWindow": "\(rule.window)",
            ]))
    }

    /// Whether a domain has a row: every domain, or beyond `maximumRows` the ones worth a look.
    static func isRow(_ standing: RunHistory.Standing, capped: Bool) -> Bool {
        !capped || standing.verdict != .pass || standing.flapping || standing.cdnStaleSince != nil
    }

    /// The page as one string (tests, small histories).
    public func render(
        _ history: RunHistory, tool: ToolInfo, acknowledged: Acknowledgements = Acknowledgements(), now: Date = .now
    ) -> String {
        var page = ""
        render(history, tool: tool, acknowledged: acknowledged, now: now) { page += $0 }
        return page
    }

    /// A run's report, relative to `index.html`.
    static func reportLink(_ run: String) -> String { "\(run)/\(OutputFolderLayout.runHTML)" }

    static func format(_ date: Date) -> String {
        HeadView.format(date)
    }

    /// "3 d 4 h", "5 h 10 min", "40 min", "under a minute".
    public static func duration(_ seconds: Double) -> String {
        let minutes = Int(seconds / 60)
        let (days, hours) = (minutes / 1440, minutes % 1440 / 60)
        if days > 0 { return hours > 0 ? "\(days) d \(hours) h" : "\(days) d" }
        if hours > 0 { return minutes % 60 > 0 ? "\(hours) h \(minutes % 60) min" : "\(hours) h" }
        return minutes > 0 ? "\(minutes) min" : "under a minute"
    }

    /// "2026-11-20 03:15 (3 runs)", "≥ 2026-09-01 03:15 (90 runs)".
    public static func since(_ streak: RunHistory.Streak) -> String {
        "\(streak.reachesOldest ? "≥ " : "")\(format(streak.sinceDate)) (\(streak.runs) run\(streak.runs == 1 ? "" : "s"))"
    }

    /// How long a streak has lasted up to `latest`: "≥ 12 d", or "first seen now" for one run.
    public static func lasted(_ streak: RunHistory.Streak, until latest: Date) -> String {
        guard streak.runs > 1 else { return "first seen in this run" }
        return
            "\(streak.reachesOldest ? "≥ " : "")\(duration(latest.timeIntervalSince(streak.sinceDate))) (\(streak.runs) runs)"
    }
}

struct IndexHeadView {
    let title: String
    let tool: String
    let schemaVersion = HistorySchema.version
    let runCount: Int
    let oneRun: Bool
    let first: String
    let latest: String
    let latestReport: String
    let domains: Int
    let pass: Int
    let warn: Int
    let fail: Int
    let flapping: Int
    let stale: Int
    let flapRule: String
    let flapWindow: Int
    let hasFailures: Bool
    let warnFirst: Bool
    let hasProblems: Bool
    /// The newest run could not check properly: when it ran, and why (the rows are the last
    /// sound run's).
    let newestNotChecked: String?
    /// Rows on the page, when fewer than the domains.
    let rowsCapped: Bool
    let rows: Int
    let maximumRows = HistoryIndexPage.maximumRows
    let chart: ChartView
    /// Runs kept but not drawn in the chart (older than the newest `chartedRuns`).
    let someUncharted: Bool
    let chartedRuns: Int
    /// Newest first: the newest `listedRuns`.
    let runs: [RunView]
    let listedRuns: Int
    /// Runs kept but not in the table.
    let unlistedRuns: Int
    let someUnlisted: Bool

    struct RunView {
        let started: String
        let pass: Int
        let warn: Int
        let fail: Int
        let report: String
        /// Why this machine could not check it: the run counts for nothing in the history.
        let notChecked: String?
    }

    /// What the head counts of the newest run's domains.
    struct Counts {
        var flapping = 0
        var stale = 0
        var rows = 0
    }

    init(history: RunHistory, counts: Counts, tool: String, rule: RunHistory.FlappingRule) {
        rows = counts.rows
        rowsCapped = counts.rows < history.latestDomainCount
        let newest = history.runs[history.runs.count - 1]
        let latestRun = history.latestSound ?? newest
        newestNotChecked =
            newest.isSound
            ? nil
            : "The newest run (\(HistoryIndexPage.format(newest.startedAt)) UTC) could not check properly: \((newest.auditorProblems ?? []).joined(separator: " ")) The domains below are the last sound run's."
        title = "\(AssociationKinds.auditedTitle): history to \(HistoryIndexPage.format(newest.startedAt))"
        self.tool = tool
        runCount = history.runs.count
        oneRun = runCount == 1
        first = HistoryIndexPage.format(history.runs[0].startedAt)
        latest = HistoryIndexPage.format(newest.startedAt)
        latestReport = HistoryIndexPage.reportLink(latestRun.run)
        domains = latestRun.domainCount
        (pass, warn, fail) = (latestRun.verdicts.pass, latestRun.verdicts.warn, latestRun.verdicts.fail)
        flapping = counts.flapping
        stale = counts.stale
        flapRule = "\(rule.changes)+ changes in \(rule.window) runs"
        flapWindow = rule.window
        hasFailures = fail > 0
        warnFirst = fail == 0 && warn > 0
        hasProblems = fail + warn > 0
        let charted = history.runs.suffix(HistoryIndexPage.chartedRuns)
        chart = ChartView(Array(charted))
        chartedRuns = charted.count
        someUncharted = runCount > charted.count
        let listed = history.runs.suffix(HistoryIndexPage.listedRuns)
        listedRuns = listed.count
        unlistedRuns = runCount - listed.count
        someUnlisted = unlistedRuns > 0
        runs = listed.reversed().map { run in
            RunView(
                started: HistoryIndexPage.format(run.startedAt), pass: run.verdicts.pass, warn: run.verdicts.warn,
                fail: run.verdicts.fail, report: HistoryIndexPage.reportLink(run.run),
                notChecked: run.auditorProblems?.joined(separator: " "))
        }
    }
}

/// Two panels of bars, a bar per run, in the SVG's own units (it scales to the page's width):
/// on top the domains not passing (fail, then warn) on their own scale, where a change of a few
/// domains among thousands shows; below, every domain (pass, warn, fail) on the scale of the
/// largest run. Each bar links to its run's report.
struct ChartView {
    /// The bars' horizontal extent, in the SVG's units.
    static let (leftEdge, rightEdge) = (56, 992)
    let width = 1000
    let height = 330
    let left = ChartView.leftEdge
    let right = ChartView.rightEdge
    let labelX = 50
    let panels: [Panel]
    let ticks: [Tick]

    struct Panel {
        let title: String
        /// The panel's extent in the SVG's units, and the count its full height stands for.
        let top: Int, bottom: Int, maximum: Int
        let bars: [Bar]
    }

    struct Bar {
        let report: String
        let label: String
        let x: String
        let width: String
        /// Bottom to top.
        let segments: [Segment]
    }

    struct Segment {
        let verdict: String
        let y: String
        let height: String
    }

    struct Tick {
        let x: String
        let y: Int
        let anchor: String
        let label: String
    }

    init(_ runs: [RunHistory.Run]) {
        // Not the stored values: the closures below may not capture self before init ends.
        let (left, right) = (Self.leftEdge, Self.rightEdge)
        let slot = Double(right - left) / Double(max(runs.count, 1))
        let barWidth = max(1, slot * 0.8)
        func number(_ value: Double) -> String { String(format: "%.1f", value) }
        func panel(_ title: String, top: Int, bottom: Int, _ verdicts: [Verdict]) -> Panel {
            // A run this machine could not check sets no scale: its counts are not the sites'.
            let maximum = max(
                1, runs.filter(\.isSound).map { run in verdicts.reduce(0) { $0 + run.verdicts[$1] } }.max() ?? 1)
            let scale = Double(bottom - top) / Double(maximum)
            let bars = runs.enumerated().map { index, run in
                var base = Double(bottom)
                // Not checked properly: one grey bar the panel's height, whatever its counts.
                let segments =
                    run.isSound
                    ? verdicts.map { verdict in
                        let height = Double(run.verdicts[verdict]) * scale
                        base -= height
                        return Segment(verdict: verdict.rawValue, y: number(base), height: number(height))
                    } : [Segment(verdict: "unchecked", y: number(Double(top)), height: number(Double(bottom - top)))]
                return Bar(
                    report: HistoryIndexPage.reportLink(run.run),
                    label: run.isSound
                        ? "\(HistoryIndexPage.format(run.startedAt)) UTC: \(run.verdicts.pass) pass, \(run.verdicts.warn) warn, \(run.verdicts.fail) fail"
                        : "\(HistoryIndexPage.format(run.startedAt)) UTC: not checked properly (this machine), counts for nothing",
                    x: number(Double(left) + slot * Double(index) + (slot - barWidth) / 2), width: number(barWidth),
                    segments: segments)
            }
            return Panel(title: title, top: top, bottom: bottom, maximum: maximum, bars: bars)
        }
        panels = [
            panel("not passing", top: 22, bottom: 150, [.fail, .warn]),
            panel("all domains", top: 186, bottom: 290, [.fail, .warn, .pass]),
        ]
        // A date under the first and last bars and a few between, never crowded.
        let count = runs.count
        let wanted = min(count, 6)
        let indices = Array(Set(wanted <= 1 ? [0] : (0..<wanted).map { $0 * (count - 1) / (wanted - 1) })).sorted()
        ticks =
            count == 0
            ? []
            : indices.map { index in
                let anchor = count > 1 && index == 0 ? "start" : count > 1 && index == count - 1 ? "end" : "middle"
                let x =
                    anchor == "start"
                    ? Double(left) : anchor == "end" ? Double(right) : Double(left) + slot * (Double(index) + 0.5)
                return Tick(
                    x: number(x), y: 310, anchor: anchor,
                    label: String(HistoryIndexPage.format(runs[index].startedAt).prefix(10)))
            }
    }
}

struct IndexRowView {
    let domain: String
    let verdict: String
    let report: String
    let codes: [String]
    let since: String
    let changes: String
    let flapping: Bool
    /// Nil when the copy is not stale (a section must not open for it).
    let staleFor: String?
    let lastPassed: String
    /// What the filter and the sort read (`HTMLTemplates.filterScript`).
    let allCodes: String
    let rank: Int
    let sinceRuns: Int
    let changeCount: Int
    /// "until 2026-12-31 by ana: waiting on the CDN vendor", when the team acknowledged what
    /// the domain fails with.
    let acknowledged: String?

    init(_ standing: RunHistory.Standing, latest: Date, report: String, acknowledged: AcknowledgementMark? = nil) {
        self.acknowledged = acknowledged?.summary
        allCodes = standing.codes.joined(separator: " ")
        rank = Verdict.allCases.firstIndex(of: standing.verdict) ?? 0
        sinceRuns = standing.notPassingSince?.runs ?? 0
        changeCount = standing.changes
        domain = standing.domain
        verdict = standing.verdict.rawValue
        self.report = report
        // Info codes are context; a passing domain shows none.
        codes = standing.verdict == .pass ? [] : Array(standing.codes.prefix(4))
        since = standing.notPassingSince.map(HistoryIndexPage.since) ?? ""
        changes = standing.changes == 0 ? "" : "\(standing.changes)\(standing.flapping ? " · flapping" : "")"
        flapping = standing.flapping
        staleFor = standing.cdnStaleSince.map { HistoryIndexPage.lasted($0, until: latest) }
        lastPassed =
            standing.verdict == .pass ? "" : standing.lastPassed.map(HistoryIndexPage.format) ?? "not in the kept runs"
    }
}
