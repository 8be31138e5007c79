import AASAModel
import Foundation

/// The text every command prints on a terminal (check, audit, lint, match, diff, explain).
/// Pure: the caller says whether to colour.
public struct TerminalReport: Sendable {
    public var colour: Bool

    public init(colour: Bool) {
        self.colour = colour
    }

    enum Style: String {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case blue = "34"
    }

    func paint(_ text: String, _ style: Style) -> String {
        colour ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    func paint(_ verdict: Verdict) -> String {
        switch verdict {
        case .pass: paint("PASS", .green)
        case .warn: paint("WARN", .yellow)
        case .fail: paint("FAIL", .red)
        }
    }

    func paint(_ severity: Severity) -> String {
        let label = severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
        switch severity {
        case .error: return paint(label, .red)
        case .warning: return paint(label, .yellow)
        case .info: return paint(label, .blue)
        }
    }

    /// A domain's verdict, each location's fetch, the app IDs found and every finding with
    /// its explanation.
    public func domain(_ report: DomainReport) -> String {
        var rows = report.fetches.map { ($0.label, fetchLine($0)) }
        if report.ios == AASAWant.iosNone {
            rows.append(("iOS", "none: no AASA asked for (ios:\(AASAWant.iosNone))"))
        } else {
            rows.append(("App IDs", appIDLine(report.appIDs, none: "(no usable file at .well-known)")))
            if !report.expectedAppIDs.isEmpty {
                rows.append(("Expected", report.expectedAppIDs.map(clean).joined(separator: ", ")))
            }
        }
        if let expires = report.certificateExpires {
            let seconds = Int(expires.timeIntervalSince1970.rounded(.down))
            rows.append(("Certificate", "expires \(UTCCalendar.date(seconds)) \(UTCCalendar.clock(seconds)) UTC"))
        }
        rows += AssociationSections.terminalRows(report.associations, in: self)
        let lines =
            ["\(paint(clean(report.domain), .bold))  \(paint(report.verdict))"] + Self.aligned(rows)
            + findingLines(report.findings, clean: "No findings: the file is served correctly.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A linted file's verdict, app IDs and findings.
    public func lint(_ record: LintRecord) -> String {
        var lines = ["\(paint(clean(record.file), .bold))  \(paint(record.verdict))"]
        if let error = record.error {
            lines.append("  \(paint(clean(error), .red))")
            return lines.joined(separator: "\n") + "\n"
        }
        lines += Self.aligned(
            AssociationSections.lintTerminalRows(record.associations, in: self)
                ?? [("App IDs", appIDLine(record.appIDs ?? ServiceAppIDs(), none: "(none)"))])
        lines += findingLines(record.findings, clean: "No findings.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A record's rows, each value in one column: two spaces past the longest label.
    static func aligned(_ rows: [(label: String, value: String)]) -> [String] {
        let width = (rows.map(\.label.count).max() ?? 0) + 2
        return rows.map { "  " + $0.label.padding(toLength: width, withPad: " ", startingAt: 0) + $0.value }
    }

    /// A nightly run's "Since the last run" (what its mail is read for): the changes without
    /// notes, and the domains whose notes alone changed named in one line, not listed.
    public func sinceLastRun(_ changes: RunChanges) -> String {
        let news = changes.withoutNotes
        let notes = changes.domainsWithOnlyNoteChanges
        let named =
            notes.prefix(5).map(clean).joined(separator: ", ") + (notes.count > 5 ? " and \(notes.count - 5) more" : "")
        let noteLine = "notes (info) changed on \(notes.count) domain\(notes.count == 1 ? "" : "s"): \(named)"
        if news.isEmpty {
            return notes.isEmpty ? "No changes since the last run.\n" : "No changes since the last run (\(noteLine)).\n"
        }
        return "Since the last run:\n" + self.changes(news) + (notes.isEmpty ? "" : "Also \(noteLine).\n") + "\n"
    }

    /// What changed between two runs (`diff`, and the end of an audit).
    public func changes(_ changes: RunChanges) -> String {
        guard !changes.isEmpty else { return "No changes.\n" }
        var lines: [String] = []
        for change in changes.domains {
            var head = "\(paint(clean(change.domain), .bold))"
            if let verdict = change.verdict { head += "  \(paint(verdict.from)) → \(paint(verdict.to))" }
            lines.append(head)
            if let acknowledgement = change.acknowledgement {
                lines.append(paint("  \(acknowledgement.sentence)", acknowledgement == .ended ? .red : .dim))
            }
            for file in change.changedFiles ?? [] { lines.append(paint("  \(file.sentence)", .yellow)) }
            for finding in change.newFindings {
                lines.append(
                    "  + \(paint(finding.severity)) \(finding.code.rawValue) (\(finding.location.rawValue)): \(clean(finding.message))"
                )
            }
            for finding in change.resolvedFindings {
                lines.append(paint("  - resolved \(finding.code.rawValue) (\(finding.location.rawValue))", .dim))
            }
        }
        if !changes.addedDomains.isEmpty {
            lines.append("New domains: \(changes.addedDomains.map(clean).joined(separator: ", "))")
        }
        if !changes.removedDomains.isEmpty {
            lines.append("No longer audited: \(changes.removedDomains.map(clean).joined(separator: ", "))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What `match` prints: for each URL the app that opens it, or why it stays in the browser.
    public func matches(_ records: [MatchRecord]) -> String {
        var lines: [String] = []
        for record in records {
            lines.append(paint(clean(record.url), .bold))
            let rule =
                record.rule.map {
                    clean("\($0.path) \($0.source.prettyPrinted(indent: "").replacingOccurrences(of: "\n", with: " "))")
                } ?? ""
            switch record.result {
            case .app:
                let others = record.appIDs.dropFirst()
                let also = others.isEmpty ? "" : " (also eligible: \(others.map(clean).joined(separator: ", ")))"
                lines.append("  → \(paint("opens \(clean(record.appIDs[0]))", .green))\(also)")
                lines.append(paint("    matched by \(rule)", .dim))
            case .excluded:
                lines.append("  → \(paint("stays in the browser", .yellow)): excluded by \(rule)")
            case .none:
                let reason =
                    record.reason.prefix(1).lowercased()
                    + record.reason.dropFirst().dropLast(record.reason.hasSuffix(".") ? 1 : 0)
                lines.append("  → \(paint("stays in the browser", .yellow)): \(clean(reason))")
                if let nearest = record.nearest {
                    let source = nearest.rule.source.prettyPrinted(indent: "").replacingOccurrences(of: "\n", with: " ")
                    lines.append(paint("    nearest rule: \(clean(nearest.rule.path)) \(clean(source))", .dim))
                    lines.append("    \(clean(nearest.explanation))")
                }
            case .undecided:
                lines.append("  → \(paint("undecided", .red)): \(clean(record.reason))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func appIDLine(_ ids: ServiceAppIDs, none: String) -> String {
        let named = ids.byService.compactMap { service, list in
            list.map { "\(service.rawValue): \($0.isEmpty ? "(none)" : $0.map(clean).joined(separator: ", "))" }
        }
        return named.isEmpty ? none : named.joined(separator: "; ")
    }

    /// Findings, causes worst first, each with its explanation and what follows from it.
    func findingLines(_ findings: [Finding], clean cleanText: String) -> [String] {
        var lines: [String] = []
        if findings.isEmpty {
            lines.append("")
            lines.append("  \(cleanText)")
        }
        let groups = FindingGroups(findings)
        for group in groups.groups {
            let finding = group.cause
            // Info is context, not a problem: one line, without Why and Fix (`explain` has them).
            let overridden =
                finding.overriddenFrom.map { paint(" (\($0.rawValue) in the catalog; \(OptionName.severity))", .dim) }
                ?? ""
            guard finding.severity != .info else {
                lines.append(
                    "  \(paint(finding.severity)) \(paint("(\(finding.location.rawValue))", .dim)) \(clean(finding.message))\(overridden)"
                )
                continue
            }
            let explanation = finding.code.definition
            lines.append("")
            lines.append(
                "  \(paint(finding.severity)) \(paint(finding.code.rawValue, .bold)) \(paint("(\(Self.place(finding)))", .dim))\(overridden)"
            )
            lines.append("          \(clean(finding.message))")
            if let acknowledged = finding.acknowledged {
                lines.append(paint("          Acknowledged \(clean(acknowledged.summary))", .yellow))
            }
            lines.append(paint("          Why: \(explanation.meaning)", .dim))
            // The fix is what the reader acts on: never dimmed.
            lines.append("          Fix: \(explanation.fix)")
            if let platform = finding.platformFix {
                lines.append("          Fix on \(platform.platform.name): \(clean(platform.fix))")
            }
            for consequence in group.consequences {
                lines.append(
                    paint(
                        "          ↳ follows: \(consequence.code.rawValue) (\(consequence.location.rawValue)) \(clean(consequence.message))",
                        .dim))
            }
        }
        return lines
    }

    /// Where a finding is: its location, and its line and column in the file when it has them.
    static func place(_ finding: Finding) -> String {
        guard let line = finding.position?.line else { return finding.location.rawValue }
        return "\(finding.location.rawValue), line \(line), column \(finding.position?.column ?? 1)"
    }

    func fetchLine(_ fetch: FetchRecord) -> String {
        if let error = fetch.error {
            return error.kind == .skipped
                ? paint("not fetched", .dim) : paint("\(error.kind.rawValue): \(clean(error.message))", .red)
        }
        guard let status = fetch.status else { return paint("no response", .red) }
        // No file at the root is as Apple advises (`location.root-absent`, a note): not red.
        let harmless = fetch.location == .root && status == 404
        var parts = [paint(String(status), status == 200 ? .green : harmless ? .dim : .red)]
        if let target = fetch.redirectTarget { parts.append("→ \(clean(target))") }
        if let type = fetch.headers.contentType { parts.append(clean(type)) }
        parts.append(fetch.bodyTruncated ? "over \(fetch.bodyBytes) bytes" : "\(fetch.bodyBytes) bytes")
        if let signature = fetch.signature {
            parts.append(
                signature.verified
                    ? paint("signed, verified", .green)
                    : paint(signature.opened ? "signed, not verified" : "signed, unreadable", .red))
        }
        if let version = fetch.httpVersion { parts.append("HTTP/\(version)") }
        if let ip = fetch.remoteIP { parts.append(ip) }
        parts.append(String(format: "%.0f ms", fetch.timings.totalMs))
        return parts.joined(separator: "  ")
    }

    /// Failing, and warning, domains the closing summary lists by name (the rest are counted).
    public static let summaryLimit = 25

    /// The closing summary of an audit run. `since`: for flagged domains the history knows, since
    /// when their verdict holds (from the kept runs), shown beside them.
    public func runSummary(
        summary: ReportSummary, flagged: [FlaggedDomain], problems: [InputProblem], seconds: Double, complete: Bool,
        since: [String: RunHistory.Streak] = [:], limit: Int = summaryLimit
    ) -> String {
        var lines: [String] = []
        for notice in summary.auditorProblems ?? [] {
            lines.append(paint("Not checked properly: ", .red) + clean(notice))
        }
        for notice in summary.partlyChecked ?? [] {
            lines.append(paint("Partly checked: ", .red) + clean(notice))
        }
        var verdicts = summary.verdicts
        // Domains an interrupted run never reached are counted apart, not listed as failing.
        // Domains this machine could not check are listed apart too.
        // Looked through lazily: a fleet's flagged domains can be a million, and only the first
        // few of each kind are listed.
        let notChecked = flagged.lazy.filter(\.notChecked)
        let notAuditedCount = notChecked.filter { $0.codes == [.run(.auditInterrupted)] }.count
        let unchecked = notChecked.filter { $0.codes != [.run(.auditInterrupted)] }
        let audited = flagged.lazy.filter { !$0.notChecked }
        verdicts.fail -= notChecked.count
        let time = String(format: "%.1f", seconds)
        let uncheckedCount = notChecked.count - notAuditedCount
        let counts =
            "\(paint("\(verdicts.pass) pass", .green)), \(paint("\(verdicts.warn) warn", .yellow)), \(paint("\(verdicts.fail) fail", .red))"
            + (uncheckedCount > 0 ? ", \(paint("\(uncheckedCount) not checked", .red))" : "")
        let unsound = summary.auditorProblems?.isEmpty == false
        if complete, unsound {
            // Not the sites' verdicts: what this machine saw, said so (issue 54).
            lines.append(
                "Audited \(summary.domains) domain\(summary.domains == 1 ? "" : "s") in \(time) s, not checked properly (above); as seen from this machine: \(counts)"
            )
        } else if complete {
            lines.append("Audited \(summary.domains) domain\(summary.domains == 1 ? "" : "s") in \(time) s: \(counts)")
        } else {
            lines.append(
                "\(paint("Interrupted", .red)) after \(time) s: \(summary.domains - notAuditedCount) of \(summary.domains) domains audited (\(counts)); \(notAuditedCount) not audited."
            )
        }
        lines += flaggedLines(audited, since: since, limit: limit, unsound: unsound)
        // By the cause their findings name, each with how many more the list leaves out.
        for (code, heading) in Self.notCheckedHeadings {
            let domains = unchecked.filter { $0.codes.contains(code) }
            guard !domains.isEmpty else { continue }
            let count = domains.count
            lines.append("Not checked (\(heading); see \(code.rawValue) in the report):")
            lines.append(
                "  " + domains.prefix(limit).map { clean($0.domain) }.joined(separator: ", ")
                    + (count > limit ? " … and \(count - limit) more" : ""))
        }
        if !problems.isEmpty {
            lines.append("Input lines not audited as written:")
            for problem in problems.prefix(limit) {
                lines.append("  \(clean(problem.file)):\(problem.line): \(clean(problem.message))")
            }
            if problems.count > limit { lines.append("  … and \(problems.count - limit) more (see the report)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Why domains were not checked, by the code their findings carry.
    static let notCheckedHeadings: [(FindingCode, String)] = [
        (.run(.auditUnchecked), "held by this audit's own limits or this machine: each finding names which"),
        (.run(.auditCrashed), "the audit crashed while they were in flight: not fetched again"),
    ]

    /// The audited domains not passing (with since when), then those failing only as acknowledged.
    /// - Parameter unsound: the run was not checked properly: its lists are what this machine
    ///   saw, headed so, not the sites' failures.
    func flaggedLines(
        _ audited: some Collection<FlaggedDomain>, since: [String: RunHistory.Streak], limit: Int,
        unsound: Bool = false
    ) -> [String] {
        var lines: [String] = []
        for verdict in [Verdict.fail, .warn] {
            let domains = audited.lazy.filter { $0.openVerdict == verdict }
            guard !domains.isEmpty else { continue }
            let heading = verdict == .fail ? "Failing" : "Warnings"
            lines.append(unsound ? "\(heading) as seen from this machine (not the sites' verdicts):" : "\(heading):")
            for domain in domains.prefix(limit) {
                let streak =
                    since[domain.domain].map { streak in
                        streak.runs == 1
                            ? "  new in this run"
                            : "  since \(streak.reachesOldest ? "≥ " : "")\(Self.format(streak.sinceDate)) (\(streak.runs) runs)"
                    } ?? ""
                lines.append(
                    "  \(paint(verdict)) \(clean(domain.domain))  \(paint(domain.openCodes.map(\.rawValue).joined(separator: ", "), .dim))\(streak)"
                )
            }
            if domains.count > limit { lines.append("  … and \(domains.count - limit) more (see the report)") }
        }
        // Failing only as acknowledged: listed apart, with the acknowledgement.
        let acknowledged = audited.lazy.filter { $0.openVerdict == .pass }
        guard !acknowledged.isEmpty else { return lines }
        lines.append("Acknowledged (known failures, not counted):")
        for domain in acknowledged.prefix(limit) {
            let mark = domain.acknowledged.map { "  " + clean($0.summary) } ?? ""
            lines.append(
                "  \(paint(domain.verdict)) \(clean(domain.domain))  \(paint(domain.codes.map(\.rawValue).joined(separator: ", "), .dim))\(mark)"
            )
        }
        if acknowledged.count > limit { lines.append("  … and \(acknowledged.count - limit) more (see the report)") }
        return lines
    }

    /// Text from a server or from the input with control characters (terminal escapes among
    /// them) made visible, so that it cannot drive the terminal.
    public func clean(_ text: String) -> String {
        Self.clean(text)
    }

    /// `clean(_:)`, keeping line breaks: for messages of several lines.
    public static func cleanLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { clean(String($0)) }.joined(separator: "\n")
    }

    public static func clean(_ text: String) -> String {
        ControlCharacters.visible(text)
    }
}

extension TerminalReport {
    /// `aasa-audit explain`: each code with its severity, meaning and fix, from the catalog.
    public static func explanations(of codes: [FindingCode]) -> String {
        codes.map { code in
            let entry = code.definition
            return "\(code.rawValue) (\(entry.severityText))\n  \(entry.meaning)\n  Fix: \(entry.fix)\n\n"
        }.joined()
    }
}
