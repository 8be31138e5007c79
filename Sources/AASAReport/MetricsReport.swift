import AASAModel
import Foundation
import Prometheus

/// Prometheus text exposition for node_exporter's textfile collector, built with
/// swift-prometheus: per domain a one-hot verdict gauge and fetch durations; per run the
/// domains by verdict, findings by code and severity, the run's duration and time.
public final class MetricsReport {
    private let registry = PrometheusCollectorRegistry()
    private var findings: [String: [String: Int]] = [:]

    public init() {}

    /// A gauge named aasa_audit_NAME(_UNIT).
    private func gauge(_ name: String, unit: String = "", labels: [(String, String)] = [], help: String) -> Gauge {
        registry.makeGauge(descriptor: MetricNameDescriptor(namespace: "aasa", subsystem: "audit", metricName: name, unitName: unit, helpText: help), labels: labels)
    }

    /// Adds one audited domain.
    public func add(_ report: DomainReport) {
        for verdict in Verdict.allCases {
            gauge("domain_verdict", labels: [("domain", report.domain), ("verdict", verdict.rawValue)], help: "1 for the domain's verdict in the last run, 0 for the others.")
                .set(Int64(report.verdict == verdict ? 1 : 0))
        }
        for fetch in report.fetches where fetch.error?.kind != .skipped {
            let name = fetch.agent == .browser ? "well-known-browser" : fetch.location.rawValue
            gauge("fetch_duration", unit: "seconds", labels: [("domain", report.domain), ("fetch", name)], help: "Total time of each fetch of the last run.")
                .set(fetch.timings.totalMs / 1000)
        }
        for finding in report.findings {
            findings[finding.code.rawValue, default: [:]][finding.severity.rawValue, default: 0] += 1
        }
    }

    /// The exposition text, once every domain is added.
    public func render(run: RunInfo, summary: ReportSummary) -> String {
        for verdict in Verdict.allCases {
            gauge("domains", labels: [("verdict", verdict.rawValue)], help: "Domains by verdict in the last run.")
                .set(Int64(summary.verdicts[verdict]))
        }
        for (code, bySeverity) in findings {
            for (severity, count) in bySeverity {
                gauge("findings", labels: [("code", code), ("severity", severity)], help: "Findings by code and severity in the last run.")
                    .set(Int64(count))
            }
        }
        gauge("input_problems", help: "Input lines not audited as written.").set(Int64(summary.inputProblems))
        gauge("run_duration", unit: "seconds", help: "Wall time of the last run.").set(run.durationSeconds)
        gauge("last_run_timestamp", unit: "seconds", help: "When the last run finished, in seconds since the epoch.")
            .set(run.finishedAt.timeIntervalSince1970)
        gauge("run_complete", help: "1 when the last run audited every domain.").set(Int64(run.complete ? 1 : 0))
        return registry.emitToString()
    }
}
