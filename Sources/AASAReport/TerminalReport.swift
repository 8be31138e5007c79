import AASAModel
import Foundation

/// The text `check` and `audit` print on a terminal. Pure: the caller says whether to colour.
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
        var lines: [String] = []
        lines.append("\(paint(clean(report.domain), .bold))  \(paint(report.verdict))")
        for fetch in report.fetches {
            let name = (fetch.location == .wellKnown ? ".well-known" : "root").padding(toLength: 13, withPad: " ", startingAt: 0)
            lines.append("  \(name)\(fetchLine(fetch))")
        }
        let ids = report.appIDs
        let services: [(String, [String]?)] = [
            ("applinks", ids.applinks), ("webcredentials", ids.webcredentials),
            ("appclips", ids.appclips), ("activitycontinuation", ids.activitycontinuation),
        ]
        let named = services.compactMap { name, list in list.map { "\(name): \($0.isEmpty ? "(none)" : $0.map(clean).joined(separator: ", "))" } }
        lines.append("  App IDs     \(named.isEmpty ? "(no usable file at .well-known)" : named.joined(separator: "; "))")
        if !report.expectedAppIDs.isEmpty {
            lines.append("  Expected    \(report.expectedAppIDs.map(clean).joined(separator: ", "))")
        }
        if report.findings.isEmpty {
            lines.append("")
            lines.append("  No findings: the file is served correctly.")
        }
        let ordered = report.findings.enumerated().sorted { ($1.element.severity, $0.offset) < ($0.element.severity, $1.offset) }.map(\.element)
        for finding in ordered {
            let explanation = finding.code.explanation
            lines.append("")
            lines.append("  \(paint(finding.severity)) \(paint(finding.code.rawValue, .bold)) \(paint("(\(finding.location.rawValue))", .dim))")
            lines.append("          \(clean(finding.message))")
            lines.append(paint("          Why: \(explanation.meaning)", .dim))
            lines.append(paint("          Fix: \(explanation.fix)", .dim))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func fetchLine(_ fetch: FetchRecord) -> String {
        if let error = fetch.error {
            return error.kind == .skipped ? paint("not fetched", .dim) : paint("\(error.kind.rawValue): \(clean(error.message))", .red)
        }
        guard let status = fetch.status else { return paint("no response", .red) }
        var parts = [paint(String(status), status == 200 ? .green : .red)]
        if let target = fetch.redirectTarget { parts.append("→ \(clean(target))") }
        if let type = fetch.headers.contentType { parts.append(clean(type)) }
        parts.append(fetch.bodyTruncated ? "over \(fetch.bodyBytes) bytes" : "\(fetch.bodyBytes) bytes")
        if let version = fetch.httpVersion { parts.append("HTTP/\(version)") }
        if let ip = fetch.remoteIP { parts.append(ip) }
        parts.append(String(format: "%.0f ms", fetch.timings.totalMs))
        return parts.joined(separator: "  ")
    }

    /// The closing summary of an audit run.
    public func runSummary(summary: ReportSummary, flagged: [FlaggedDomain], problems: [InputProblem], seconds: Double, complete: Bool, limit: Int = 25) -> String {
        var lines: [String] = []
        let verdicts = summary.verdicts
        let state = complete ? "" : paint(" (interrupted: not every domain was audited)", .red)
        lines.append("Audited \(summary.domains) domain\(summary.domains == 1 ? "" : "s") in \(String(format: "%.1f", seconds)) s: "
            + "\(paint("\(verdicts.pass) pass", .green)), \(paint("\(verdicts.warn) warn", .yellow)), \(paint("\(verdicts.fail) fail", .red))\(state)")
        for verdict in [Verdict.fail, .warn] {
            let domains = flagged.filter { $0.verdict == verdict }
            guard !domains.isEmpty else { continue }
            lines.append(verdict == .fail ? "Failing:" : "Warnings:")
            for domain in domains.prefix(limit) {
                lines.append("  \(paint(verdict)) \(clean(domain.domain))  \(paint(domain.codes.map(\.rawValue).joined(separator: ", "), .dim))")
            }
            if domains.count > limit { lines.append("  … and \(domains.count - limit) more (see the report)") }
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

    /// Text from a server or from the input with control characters (terminal escapes among
    /// them) made visible, so that it cannot drive the terminal.
    public func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: Self.isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if Self.isControl(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
