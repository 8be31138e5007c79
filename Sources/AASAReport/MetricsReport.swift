import AASAModel
import Foundation

/// Prometheus text exposition (format 0.0.4) for node_exporter's textfile collector: per domain
/// a one-hot verdict gauge and fetch durations; per run the domains by verdict, findings by code
/// and severity, input problems, the run's duration and time.
///
/// Written line by line, so that a run of any size is streamed to the file instead of held:
/// swift-prometheus's registry (used before) copied its whole label-set dictionary on every new
/// series, which made 10,000 domains take 130 s to write. The format's rules are few: a
/// family's samples together after its HELP and TYPE lines; label values escape `\`, `"` and
/// newlines; HELP text escapes `\` and newlines.
public enum MetricsReport {
    /// A family of gauges (or counters): its full name, help and type.
    public struct Family: Sendable {
        public let name: String
        public let help: String
        public let type: String

        public init(name: String, help: String, type: String = "gauge") {
            self.name = name
            self.help = help
            self.type = type
        }

        /// `# HELP` and `# TYPE` lines.
        public var header: String {
            "# HELP \(name) \(MetricsReport.escapeHelp(help))\n# TYPE \(name) \(type)\n"
        }

        /// One sample line.
        public func sample(_ value: Double, labels: KeyValuePairs<String, String> = [:]) -> String {
            let labelText =
                labels.isEmpty
                ? ""
                : "{"
                    + labels.map { "\($0.key)=\"\(MetricsReport.escapeLabelValue($0.value))\"" }.joined(separator: ",")
                    + "}"
            return "\(name)\(labelText) \(MetricsReport.format(value))\n"
        }
    }

    public static let domainVerdict = Family(
        name: "aasa_audit_domain_verdict", help: "1 for the domain's verdict in the last run, 0 for the others.")
    public static let fetchDuration = Family(
        name: "aasa_audit_fetch_duration_seconds", help: "Total time of each fetch of the last run.")
    public static let certificateExpiry = Family(
        name: "aasa_audit_domain_certificate_expiry_timestamp_seconds",
        help:
            "When the domain's own TLS certificate expires (the earliest of its connections in the last run), in seconds since the epoch."
    )

    public static let domainAcknowledged = Family(
        name: "aasa_audit_domain_acknowledged",
        help:
            "1 for a domain whose verdict comes only from findings the team acknowledged (aasa-audit ack); open_verdict is its verdict without them. Alert rules leave such a domain out."
    )

    public static let fileVerdict = Family(
        name: "aasa_audit_domain_file_verdict",
        help:
            "1 for each association file a domain was audited for in the last run (file: \(AssociationKinds.aasaName), or the kind's name: \(AssociationKinds.all.map(\.id).joined(separator: ", "))), labelled with that file's own verdict: which platform of a domain fails."
    )

    /// A domain's files (the AASA unless it serves none, each kind it fetched), one sample each
    /// with the verdict of the findings about it.
    public static func fileVerdictSamples(_ report: DomainReport) -> String {
        let kinds = AssociationKinds.all.filter { kind in report.fetches.contains { $0.location.kind?.id == kind.id } }
        let files = (report.ios == AASAWant.iosNone ? [] : [AssociationKinds.aasaName]) + kinds.map(\.id)
        return files.map { file in
            let verdict = Verdict(findings: report.findings.filter { AssociationKinds.file(of: $0.location) == file })
            return fileVerdict.sample(1, labels: ["domain": report.domain, "file": file, "verdict": verdict.rawValue])
        }.joined()
    }

    /// The per-domain families, in the order they are written (a family's samples stay together):
    /// each family and a domain's samples of it. The one list `--metrics` streams.
    public static let domainFamilies: [(family: Family, samples: @Sendable (DomainReport) -> String)] = [
        (domainVerdict, verdictSamples), (domainAcknowledged, acknowledgedSamples), (fetchDuration, fetchSamples),
        (certificateExpiry, certificateSamples), (fileVerdict, fileVerdictSamples),
    ]

    /// A domain made worse only by acknowledged findings: one sample, with the verdict it has
    /// without them; nothing for any other domain (issue 46, item 4).
    public static func acknowledgedSamples(_ report: DomainReport) -> String {
        guard report.findings.contains(where: { !$0.isOpen }) else { return "" }
        let open = Verdict(findings: report.findings.filter(\.isOpen))
        guard open != report.verdict else { return "" }
        return domainAcknowledged.sample(1, labels: ["domain": report.domain, "open_verdict": open.rawValue])
    }

    /// The domain's certificate's expiry, when a connection read it.
    public static func certificateSamples(_ report: DomainReport) -> String {
        report.certificateExpires.map {
            certificateExpiry.sample($0.timeIntervalSince1970.rounded(.down), labels: ["domain": report.domain])
        } ?? ""
    }

    public static let domains = Family(name: "aasa_audit_domains", help: "Domains by verdict in the last run.")
    public static let findings = Family(
        name: "aasa_audit_findings", help: "Findings by code and severity in the last run.")
    public static let inputProblems = Family(
        name: "aasa_audit_input_problems", help: "Input lines not audited as written.")
    public static let runDuration = Family(name: "aasa_audit_run_duration_seconds", help: "Wall time of the last run.")
    public static let lastRunTimestamp = Family(
        name: "aasa_audit_last_run_timestamp_seconds", help: "When the last run finished, in seconds since the epoch.")
    public static let runComplete = Family(
        name: "aasa_audit_run_complete", help: "1 when the last run audited every domain.")
    public static let runSound = Family(
        name: "aasa_audit_run_sound",
        help:
            "1 when this machine could check the last run properly; 0 when its DNS or its reach to Apple's CDN failed (exit 3), and the verdicts are not the sites'."
    )

    /// A domain's verdict samples (one per verdict, 1 for its own).
    public static func verdictSamples(_ report: DomainReport) -> String {
        Verdict.allCases.map {
            domainVerdict.sample(
                report.verdict == $0 ? 1 : 0, labels: ["domain": report.domain, "verdict": $0.rawValue])
        }.joined()
    }

    /// A domain's fetch durations (fetches not made are left out), each series its own: a
    /// label set written twice is an error to node_exporter's textfile collector, which then
    /// drops the file.
    public static func fetchSamples(_ report: DomainReport) -> String {
        var seen: [String: Int] = [:]
        return report.fetches.filter { $0.error?.kind != .skipped }.map { fetch in
            let name = fetchName(fetch, seen: &seen)
            // To the microsecond: 0.15601, not 0.15600999999999998.
            return fetchDuration.sample(
                (fetch.timings.totalMs * 1000).rounded() / 1_000_000, labels: ["domain": report.domain, "fetch": name])
        }.joined()
    }

    /// A fetch's `fetch` label: its location (`well-known-browser` for the browser's copy,
    /// `well-known-json` for the file asked for under its `.json` name), numbered from 2 when the
    /// domain has more than one of that name (the lists an association file includes).
    static func fetchName(_ fetch: FetchRecord, seen: inout [String: Int]) -> String {
        let base =
            switch (fetch.location, fetch.agent) {
            case (.wellKnown, .browser?): "well-known-browser"
            case (.wellKnown, _) where fetch.url.hasSuffix(".json"): "well-known-json"
            default: fetch.location.rawValue
            }
        seen[base, default: 0] += 1
        let count = seen[base]!
        return count == 1 ? base : "\(base)-\(count)"
    }

    /// The run's own families, written after every domain's: the one count of a run's findings
    /// (by code and severity, as the run gave them), for `--metrics` and `serve`'s `/metrics`.
    public static func runSection(run: RunInfo, summary: ReportSummary) -> String {
        let findingCounts = summary.findingsByCodeAndSeverity ?? [:]
        var text = domains.header
        for verdict in Verdict.allCases {
            text += domains.sample(Double(summary.verdicts[verdict]), labels: ["verdict": verdict.rawValue])
        }
        text += findings.header
        for code in findingCounts.keys.sorted() {
            for (severity, count) in findingCounts[code, default: [:]].sorted(by: { $0.key < $1.key }) {
                text += findings.sample(Double(count), labels: ["code": code, "severity": severity])
            }
        }
        text += inputProblems.header + inputProblems.sample(Double(summary.inputProblems))
        text += runDuration.header + runDuration.sample(run.durationSeconds)
        // In whole seconds, as the report records it: the same sample wherever the run is read from.
        text +=
            lastRunTimestamp.header + lastRunTimestamp.sample(run.finishedAt.timeIntervalSince1970.rounded(.down))
        text += runComplete.header + runComplete.sample(run.complete ? 1 : 0)
        text += runSound.header + runSound.sample(summary.auditorProblems == nil ? 1 : 0)
        return text
    }

    public static let notificationFailed = Family(
        name: "aasa_audit_notification_failed",
        help: "1 when the last run's \(OptionName.notify) alert could not be delivered.")
    public static let notificationSent = Family(
        name: "aasa_audit_notification_sent", help: "1 when the last run's \(OptionName.notify) alert was delivered.")
    public static let notificationAttempts = Family(
        name: "aasa_audit_notification_attempts",
        help: "POST attempts the last run's \(OptionName.notify) alert took (0 when nothing was to be sent).")

    /// `--notify`'s outcome: `state` is sent, failed or not-needed.
    public static func notificationSection(state: String, attempts: Int) -> String {
        notificationSent.header + notificationSent.sample(state == "sent" ? 1 : 0)
            + notificationFailed.header + notificationFailed.sample(state == "failed" ? 1 : 0)
            + notificationAttempts.header + notificationAttempts.sample(Double(attempts))
    }

    /// The exposition format's escapes (backslash, quote, line feed), by scalar (CR LF is one
    /// Character); other controls, which it has no escape for, become U+FFFD.
    static func escapeLabelValue(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\"" || ControlCharacters.isControl($0) })
        else {
            return value
        }
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case _ where ControlCharacters.isControl(scalar): escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    static func escapeHelp(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Go's float syntax as Prometheus reads it: integers without a fraction, NaN, +Inf, -Inf.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
