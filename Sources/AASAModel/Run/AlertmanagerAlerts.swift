import Foundation

/// `--alertmanager URL`: the run's open failures as Alertmanager alerts (its v2 API), so that a
/// team that already routes, groups, silences and repeats alerts there gets aasa-audit's too. One
/// alert per domain and cause (an open error or warning that follows from no other finding),
/// re-sent each sound run while it lasts with an `endsAt` beyond the next run; an alert of the
/// same output folder that no longer fires (recovered, acknowledged, no longer audited) is
/// resolved (`endsAt` now). Nothing is sent for a night this machine could not check: the
/// alerts stand as they were until their `endsAt`. Pure: the HTTP is `AASAAudit`'s.
public enum AlertmanagerAlerts {
    /// The alert's name, and the labels that say which aasa-audit output an alert is of.
    public static let alertName = "AASAAuditFinding"
    public static let generator = "aasa-audit"
    /// How long an alert lasts without being sent again: beyond the next nightly run (or twice
    /// the time since the previous run, when runs are further apart).
    public static let minimumLifetime: TimeInterval = 26 * 3600

    /// One alert as Alertmanager's v2 API takes it (`postableAlert`) and gives it back.
    public struct Alert: Codable, Sendable, Equatable {
        public var labels: [String: String]
        public var annotations: [String: String]?
        public var startsAt: Date?
        public var endsAt: Date?
        public var generatorURL: String?

        public init(
            labels: [String: String], annotations: [String: String]? = nil, startsAt: Date? = nil, endsAt: Date? = nil,
            generatorURL: String? = nil
        ) {
            self.labels = labels
            self.annotations = annotations
            self.startsAt = startsAt
            self.endsAt = endsAt
            self.generatorURL = generatorURL
        }

        /// The domain and code it is about.
        var key: String { "\(labels["domain"] ?? "")\u{0}\(labels["code"] ?? "")" }
    }

    /// The labels every alert of `output` carries: what the resolving query filters on.
    public static func scope(output: String) -> [String: String] {
        ["alertname": alertName, "generator": generator, "output": output]
    }

    /// When alerts sent at `now` end unless sent again.
    public static func endsAt(now: Date, previousRun: Date?) -> Date {
        now.addingTimeInterval(max(minimumLifetime, previousRun.map { 2 * now.timeIntervalSince($0) } ?? 0))
    }

    /// The alerts of a sound run: one per flagged domain and open cause.
    /// Each carries the domain's domains.txt labels (`FlaggedDomain.labels`); aasa-audit's own
    /// labels win over none of them (`DomainLabels.reserved` keeps them apart).
    /// - Parameter report: where the run's report is (a URL with `--report-url`, else a path).
    public static func firing(
        _ flagged: [FlaggedDomain], output: String, report: String, startsAt: Date, endsAt: Date
    ) -> [Alert] {
        flagged.filter { !$0.notChecked }.flatMap { domain in
            domain.openCauses.map { cause in
                var all = domain.labels ?? [:]
                all.merge(scope(output: output)) { _, own in own }
                all["domain"] = domain.domain
                all["code"] = cause.code.rawValue
                all["severity"] = cause.severity.rawValue
                var annotations = [
                    "summary": "\(domain.domain): \(cause.code.rawValue): \(String(cause.message.prefix(500)))",
                    "description": cause.code.definition.meaning,
                    "fix": cause.code.definition.fix, "report": report,
                ]
                if let platform = cause.platformFix {
                    annotations["platform_fix"] = "\(platform.platform.name): \(platform.fix)"
                }
                return Alert(
                    labels: all, annotations: annotations, startsAt: startsAt, endsAt: endsAt,
                    generatorURL: report.hasPrefix("http") ? report : nil)
            }
        }
    }

    /// The alerts of `active` (Alertmanager's, of this output) that no longer fire, to be sent
    /// with `endsAt` now: Alertmanager then resolves them.
    public static func resolving(active: [Alert], firing: [Alert], output: String, now: Date) -> [Alert] {
        let firingKeys = Set(firing.map(\.key))
        let scope = scope(output: output)
        var seen = Set<String>()
        return active.filter { alert in
            scope.allSatisfy { alert.labels[$0.key] == $0.value } && !firingKeys.contains(alert.key)
                && seen.insert(alert.key).inserted
        }.map { alert in
            Alert(labels: alert.labels, annotations: alert.annotations, startsAt: alert.startsAt, endsAt: now)
        }
    }

    /// The query for this output's alerts: `filter` matchers, URL-encoded.
    public static func activeQuery(output: String) -> String {
        let matchers = scope(output: output).sorted { $0.key < $1.key }.map { key, value in
            let quoted = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "filter="
                + (("\(key)=\"\(quoted)\"").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        }
        return "api/v2/alerts?active=true&silenced=true&inhibited=true&unprocessed=true&"
            + matchers.joined(separator: "&")
    }
}
