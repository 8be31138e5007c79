import AASAAudit
import AASAModel
import AASAReport
import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// The Prometheus rules and the Grafana dashboard in `Packaging/`, with Prometheus' own
/// `promtool`: the rules load, their shipped tests pass and fire every alert on series named as the
/// tool writes them (and only then), every
/// dashboard query parses, every metric they name is one the tool writes, and both metric outputs
/// pass `promtool check metrics`.
@Suite(.live, .tags(.live), .enabled(if: Promtool.isAvailable, "\(Promtool.unavailableMessage)"))
struct PrometheusRulesTests {
    static let rules = Repository.file("Packaging/prometheus/aasa-audit.rules.yml")
    static let dashboard = Repository.file("Packaging/grafana/aasa-audit-dashboard.json")
    static let ruleTests = Repository.file("Packaging/prometheus/aasa-audit.rules.test.yml")

    static func yaml(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The shipped unit tests of the rules (`aasa-audit.rules.test.yml`, beside them in the
    /// package), with promtool: they pass, and every alert of the rules fires in one of them.
    /// Their series names are checked with the rest below (names the tool writes).
    @Test func theShippedRuleTestsPassAndCoverEveryAlert() async throws {
        let result = try await Promtool.run(["test", "rules", Self.ruleTests.path])
        #expect(result.status == 0, "\(result.output)")
        let rules = try String(contentsOf: Self.rules, encoding: .utf8)
        let alerts = rules.split(separator: "\n").compactMap { line -> String? in
            let text = line.trimmingCharacters(in: .whitespaces)
            return text.hasPrefix("- alert: ") ? String(text.dropFirst("- alert: ".count)) : nil
        }
        #expect(alerts.count >= 6, "the rules' alerts were not read")
        // Each alert has a test that expects it to fire (its exp_alerts not empty).
        let tests = try String(contentsOf: Self.ruleTests, encoding: .utf8).components(separatedBy: "- eval_time: ")
        for alert in alerts {
            #expect(
                tests.contains { $0.contains("alertname: \(alert)\n") && $0.contains("exp_labels:") },
                "\(alert) is never tested firing in \(Self.ruleTests.lastPathComponent)")
        }
    }

    /// The rules load; each dashboard query parses (as a recording rule, which promtool parses);
    /// every metric the rules and the dashboard name is one the tool writes.
    @Test func theRulesAndTheDashboardsQueriesParseAndNameTheToolsMetrics() async throws {
        let checked = try await Promtool.run(["check", "rules", Self.rules.path])
        #expect(checked.status == 0, "\(checked.output)")

        let dashboard = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.dashboard)) as? [String: Any])
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        let queries = panels.flatMap { panel in
            (panel["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String }
        }
        #expect(queries.count >= 6, "the dashboard's queries were not read")
        let recording =
            "groups:\n  - name: dashboard\n    rules:\n"
            + queries.enumerated().map {
                "      - record: dashboard:query\($0.offset)\n        expr: \(Self.yaml($0.element))\n"
            }
            .joined()
        let parsed = try await Self.promtool(["check", "rules"], on: recording, named: "dashboard.rules.yml")
        #expect(parsed.status == 0, "a dashboard query does not parse: \(parsed.output)")

        let written = try await Self.bothOutputs()
        let known = Set(Self.names(in: written.audit + written.serve)).union(
            [MetricsReport.notificationFailed, MetricsReport.notificationSent, MetricsReport.notificationAttempts].map(
                \.name))
        // The rules, their tests, the dashboard and docs/monitoring.md's table.
        let documented = try String(contentsOf: Repository.file("docs/monitoring.md"), encoding: .utf8)
        let ruleTests = try String(contentsOf: Self.ruleTests, encoding: .utf8)
        let used = Set(
            Self.names(
                in: try String(contentsOf: Self.rules, encoding: .utf8) + ruleTests + queries.joined() + documented
            )
            .filter { !$0.hasSuffix("_") })
        #expect(used.count >= 8, "the names were not read: \(used)")
        #expect(used.subtracting(known).isEmpty, "metrics no output writes: \(used.subtracting(known).sorted())")
    }

    /// `promtool check metrics` (Prometheus' naming lint: base units, `_total` counters, help
    /// text) passes both outputs: an audit's `--metrics` file and `serve`'s `/metrics`.
    @Test func bothMetricOutputsPassPromtoolsLint() async throws {
        let written = try await Self.bothOutputs()
        for (name, text) in [("--metrics", written.audit), ("/metrics", written.serve)] {
            #expect(text.contains(MetricsReport.domains.name), "\(name): \(text)")
            let result = try await Promtool.run(["check", "metrics"], input: text)
            #expect(result.status == 0, "\(name): \(result.output)")
        }
        #expect(written.audit.contains(MetricsReport.certificateExpiry.name + "{domain=\"good.aasa.test\"}"))
    }

    /// node_exporter's own textfile collector reads an audit's `--metrics` file whole: no label
    /// set is written twice (issue 46, item 6: the misnamed `.json` probe was labelled as the
    /// `.well-known` fetch, and node_exporter dropped the file on every scrape), and every series
    /// of the file is exposed.
    @Test(.enabled(if: NodeExporter.isAvailable, "\(NodeExporter.unavailableMessage)"))
    func nodeExportersTextfileCollectorReadsTheFileWhole() async throws {
        let written = try await Self.bothOutputs()
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try written.audit.write(
            to: folder.url.appendingPathComponent("aasa-audit.prom"), atomically: true, encoding: .utf8)
        let (scraped, log) = try await NodeExporter.scrape(textfiles: folder.url)
        #expect(scraped.contains("node_textfile_scrape_error 0"), "\(scraped.prefix(3000))")
        #expect(!log.contains("level=error"), "\(log)")
        let samples = written.audit.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(samples.contains { $0.contains(#"fetch="well-known-json""#) }, "the .json probe was not written")
        let series = samples.map { $0.prefix { $0 != " " } }
        #expect(Set(series).count == series.count, "a series is written twice")
        for name in series {
            #expect(scraped.contains(name), "\(name) was not exposed")
        }
    }

    /// promtool on a file of `text` the test writes.
    static func promtool(_ arguments: [String], on text: String, named name: String) async throws -> (
        status: Int32, output: String
    ) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return try await Promtool.run(arguments + [file.path])
    }

    static func names(in text: String) -> [String] {
        text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init).filter {
            $0.hasPrefix("aasa_audit_")
        }
    }

    /// A real audit's `--metrics` file and `serve`'s `/metrics` over its output folder.
    static func bothOutputs() async throws -> (audit: String, serve: String) {
        let world = try TestWorld()
        let out = world.directory.url.appendingPathComponent("reports")
        var settings = world.auditSettings(out: out)
        settings.metricsFile = world.directory.url.appendingPathComponent("aasa.prom")
        _ = try await AuditRun.run(
            targets: ["good.aasa.test", "missing.aasa.test"].map { DomainTarget(domain: $0) }, inputProblems: [],
            settings: settings)
        let audit = try String(contentsOf: settings.metricsFile!, encoding: .utf8)
        let serve = try await LiveServe(LiveServe.settings(world, out: out))
        defer { Task { await serve.stop() } }
        return (audit, try await serve.get("/metrics").text)
    }
}
