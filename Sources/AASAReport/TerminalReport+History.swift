import AASAModel
import Foundation

/// `aasa-audit history`: the fleet's trend, or one domain's timeline, for a terminal.
extension TerminalReport {
    /// The newest `runLimit` runs' counts, then the domains worth a look: failing and warning
    /// ones with since when, flapping ones, stale CDN copies.
    public func fleet(_ record: FleetHistoryRecord, runLimit: Int = 15, domainLimit: Int = 50) -> String {
        let shown = record.runs.suffix(runLimit)
        var lines = [
            "\(record.runs.count) complete run\(record.runs.count == 1 ? "" : "s") kept\(shown.count < record.runs.count ? " (the newest \(shown.count) below)" : ""):"
        ]
        let most = max(
            1,
            record.runs.filter { $0.auditorProblems == nil }.map {
                $0.verdicts.pass + $0.verdicts.warn + $0.verdicts.fail
            }
            .max() ?? 1)
        lines += shown.map { runLine($0, most: most) }
        lines += domainSections(record, limit: domainLimit)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A run's counts and a 30-character bar (failing share red, warning yellow, the rest
    /// green), scaled to the run of the most domains; an unsound run's grey bar counts nothing.
    func runLine(_ run: FleetHistoryRecord.RunRecord, most: Int) -> String {
        guard run.auditorProblems == nil else {
            return
                "  \(Self.format(run.startedAt))  \("not checked properly".padding(toLength: 32, withPad: " ", startingAt: 0)) \(paint(String(repeating: "░", count: 30), .dim)) this machine's failure, counts for nothing"
        }
        let total = run.verdicts.pass + run.verdicts.warn + run.verdicts.fail
        let width = max(1, Int((Double(total) / Double(most) * 30).rounded()))
        let fail = total == 0 ? 0 : Int((Double(run.verdicts.fail) / Double(total) * Double(width)).rounded(.up))
        let warn =
            total == 0
            ? 0 : min(width - fail, Int((Double(run.verdicts.warn) / Double(total) * Double(width)).rounded(.up)))
        let bar =
            paint(String(repeating: "█", count: width - fail - warn), .green)
            + paint(String(repeating: "█", count: warn), .yellow)
            + paint(String(repeating: "█", count: fail), .red)
        let counts = "\(run.verdicts.pass) pass, \(run.verdicts.warn) warn, \(run.verdicts.fail) fail"
        return "  \(Self.format(run.startedAt))  \(counts.padding(toLength: 32, withPad: " ", startingAt: 0)) \(bar)"
    }

    /// The domains worth a look, a section each: not passing, flapping, stale CDN copies.
    func domainSections(_ record: FleetHistoryRecord, limit: Int) -> [String] {
        var lines: [String] = []
        let latest = record.runs.last?.startedAt ?? Date(timeIntervalSince1970: 0)
        func section(
            _ title: String, _ domains: [FleetHistoryRecord.StandingRecord],
            _ line: (FleetHistoryRecord.StandingRecord) -> String
        ) {
            guard !domains.isEmpty else { return }
            lines += ["", "\(title) (\(domains.count)):"] + domains.prefix(limit).map { "  " + line($0) }
            if domains.count > limit {
                lines.append("  … and \(domains.count - limit) more (history \(OptionName.json) has them all)")
            }
        }
        // Failing first, then warning, each in the run's order.
        let notPassing = record.domains.filter { $0.verdict == .fail } + record.domains.filter { $0.verdict == .warn }
        section("Not passing", notPassing) { domain in
            let since =
                domain.since.map {
                    " since \($0.reachesOldestRun ? "≥ " : "")\(Self.format($0.startedAt)) (\($0.runs) run\($0.runs == 1 ? "" : "s"))"
                } ?? ""
            return "\(paint(domain.verdict)) \(clean(domain.domain))\(since): \(Self.codeList(domain.codes, limit: 3))"
        }
        section(
            "Flapping: \(record.flapping.changes)+ verdict changes in the last \(record.flapping.window) runs",
            record.domains.filter(\.flapping)
        ) { domain in
            "\(clean(domain.domain)): \(domain.verdictChanges) changes, now \(domain.verdict.rawValue)"
        }
        section(
            "Apple's CDN copy differs from the origin (cdn.stale)", record.domains.filter { $0.cdnStaleSince != nil }
        ) { domain in
            let streak = domain.cdnStaleSince!
            let lasted =
                streak.runs > 1
                ? "for \(streak.reachesOldestRun ? "≥ " : "")\(Self.duration(latest.timeIntervalSince(streak.startedAt))) (\(streak.runs) runs)"
                : "first seen in the newest run"
            return "\(clean(domain.domain)): \(lasted)"
        }
        if notPassing.isEmpty, !record.domains.contains(where: { $0.flapping || $0.cdnStaleSince != nil }) {
            lines += ["", "Every domain of the newest run passes; none flaps."]
        }
        return lines
    }

    /// Codes as history.json has them (untrusted: a file anyone could edit), controls made
    /// visible, at most `limit` of them.
    static func codeList(_ codes: [String], limit: Int) -> String {
        let shown = codes.prefix(limit).map { clean(String($0.prefix(100))) }.joined(separator: ", ")
        return codes.count > limit && limit > 3 ? shown + " (+\(codes.count - limit) more)" : shown
    }

    /// One domain run by run, oldest first; runs with the same verdict and codes in a row are
    /// one line.
    public func timeline(_ record: DomainTimelineRecord) -> String {
        var lines = ["\(clean(record.domain)) over \(record.runs.count) kept run\(record.runs.count == 1 ? "" : "s"):"]
        var index = 0
        while index < record.runs.count {
            let entry = record.runs[index]
            var end = index
            while end + 1 < record.runs.count, record.runs[end + 1].verdict == entry.verdict,
                (record.runs[end + 1].auditorProblems == nil) == (entry.auditorProblems == nil),
                Set(record.runs[end + 1].codes ?? []) == Set(entry.codes ?? []),
                record.runs[end + 1].certificateExpires == entry.certificateExpires
            { end += 1 }
            let span =
                end == index
                ? Self.format(entry.startedAt).padding(toLength: 42, withPad: " ", startingAt: 0)
                : "\(Self.format(entry.startedAt)) to \(Self.format(record.runs[end].startedAt))"
            let count = end - index + 1
            let runs = "\(count) run\(count == 1 ? "" : "s")".padding(toLength: 8, withPad: " ", startingAt: 0)
            if entry.auditorProblems != nil {
                lines.append("  \(span)  \(runs) \(paint("not checked properly (this machine's failure)", .dim))")
            } else if let verdict = entry.verdict {
                let codes = Self.codeList(entry.codes ?? [], limit: 10)
                // The certificate's day shows when it was renewed (or not) between runs.
                let certificate = entry.certificateExpires.map { "  (TLS certificate until \(clean($0)))" } ?? ""
                lines.append("  \(span)  \(runs) \(paint(verdict))  \(codes)\(certificate)")
            } else {
                lines.append("  \(span)  \(runs) \(paint("not audited", .dim))")
            }
            index = end + 1
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func format(_ date: Date) -> String {
        HeadView.format(date)
    }

    static func duration(_ seconds: Double) -> String {
        HistoryIndexPage.duration(seconds)
    }
}
