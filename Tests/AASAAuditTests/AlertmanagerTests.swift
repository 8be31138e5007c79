import AASAModel
import AASAReport
import AuditTestSupport
import Foundation
import TestSupport
import Testing

@testable import AASAAudit

/// `--alertmanager` against a real Alertmanager (Debian's prometheus-alertmanager) started on
/// loopback: one alert per failing domain and cause with the domain's labels, re-sent while it
/// lasts, resolved on recovery and on acknowledgement, untouched by a night this machine could
/// not check (issue 35, item 7).
@Suite(.live, .tags(.live)) struct AlertmanagerTests {
    /// An Alertmanager on 127.0.0.1 with a configuration that routes everything nowhere.
    final class Alertmanager: Sendable {
        let daemon: LocalDaemon
        let directory: TemporaryDirectory
        var running: ProcessRunner.Running { daemon.running }
        var port: Int { daemon.port }

        init() async throws {
            let directory = try TemporaryDirectory()
            self.directory = directory
            let config = directory.url.appendingPathComponent("alertmanager.yml")
            try "route:\n  receiver: nowhere\nreceivers:\n  - name: nowhere\n".write(
                to: config, atomically: true, encoding: .utf8)
            daemon = try await LocalDaemon("/usr/bin/prometheus-alertmanager", readyPath: "/-/ready") { port in
                [
                    "--config.file=\(config.path)", "--storage.path=\(directory.url.path)",
                    "--web.listen-address=127.0.0.1:\(port)", "--cluster.listen-address=",
                ]
            }
        }

        var url: String { "http://127.0.0.1:\(port)" }

        /// The active alerts, as (domain, code, severity, team).
        func active() async throws -> [[String: String]] {
            let answer = try await HTTPTestClient.get(port: port, "/api/v2/alerts?active=true")
            let alerts = try JSONReport.makeDecoder().decode([AlertmanagerAlerts.Alert].self, from: Data(answer.body))
            return alerts.filter { $0.endsAt.map { $0 > Date() } ?? true }.map(\.labels)
                .sorted { ($0["domain"] ?? "", $0["code"] ?? "") < ($1["domain"] ?? "", $1["code"] ?? "") }
        }

        deinit {
            daemon.stop()
            directory.remove()
        }
    }

    @Test func failuresFireWithTheirLabelsAndResolveWhenTheyEnd() async throws {
        let alertmanager = try await Alertmanager()
        let world = try TestWorld()
        let out = world.directory.url.appendingPathComponent("reports")
        var settings = world.auditSettings(out: out)
        settings.alertmanager = AlertmanagerSettings(url: alertmanager.url)
        let targets = [
            DomainTarget(domain: "good.aasa.test"),
            {
                var target = DomainTarget(domain: "missing.aasa.test")
                target.labels = ["team": "payments"]
                return target
            }(), DomainTarget(domain: "textplain.aasa.test"),
        ]
        let first = try await AuditRun.run(targets: targets, inputProblems: [], settings: settings)
        #expect(
            first.alertmanager?.state == .sent && first.alertmanager?.firing == 2,
            "\(String(describing: first.alertmanager))")
        var active = try await alertmanager.active()
        #expect(
            active.map { [$0["domain"], $0["code"], $0["severity"], $0["team"]] } == [
                ["missing.aasa.test", "http.status", "error", "payments"],
                ["textplain.aasa.test", "http.content-type", "warning", nil],
            ])
        #expect(
            active.allSatisfy { $0["alertname"] == "AASAAuditFinding" && $0["output"] == out.standardizedFileURL.path })

        // A night this machine could not check: nothing sent, the alerts stand.
        var down = settings
        down.fetcher.connectTo = ["::dns-is-down.invalid:443"]
        down.fetcher.diagnosisNameServer = LoopbackDNSServer.nobody
        let outage = try await AuditRun.run(targets: targets, inputProblems: [], settings: down)
        #expect(outage.summary.auditorProblems != nil && outage.alertmanager == nil)
        #expect(try await alertmanager.active().count == 2)

        // Acknowledged: its alert is resolved; the other stands.
        try AcknowledgementStore.update(output: out.path) {
            try $0.add(
                Acknowledgement(
                    domain: "missing.aasa.test", codes: nil, until: Date().addingTimeInterval(86_400), reason: "known",
                    by: "ana", at: Date()))
        }
        settings.acknowledgements = try AcknowledgementStore.read(output: out.path)
        let acknowledged = try await AuditRun.run(targets: targets, inputProblems: [], settings: settings)
        #expect(acknowledged.alertmanager?.firing == 1 && acknowledged.alertmanager?.resolved == 1)
        active = try await alertmanager.active()
        #expect(active.map { $0["domain"] } == ["textplain.aasa.test"])

        // No longer audited: resolved; nothing left to send after that.
        let trimmed = try await AuditRun.run(targets: Array(targets.prefix(2)), inputProblems: [], settings: settings)
        #expect(trimmed.alertmanager?.resolved == 1)
        #expect(try await alertmanager.active().isEmpty)
        let quiet = try await AuditRun.run(targets: Array(targets.prefix(2)), inputProblems: [], settings: settings)
        #expect(quiet.alertmanager?.state == .notNeeded)
    }

    /// `--alert-after 2` holds for Alertmanager too: a failure of one night fires nothing, one of
    /// two fires, and a domain failing every other night never fires and resolves (issue 46,
    /// item 5).
    @Test func alertAfterHoldsForAlertmanagerToo() async throws {
        let alertmanager = try await Alertmanager()
        let world = try TestWorld()
        var settings = world.auditSettings(out: world.directory.url.appendingPathComponent("reports"))
        settings.alertmanager = AlertmanagerSettings(url: alertmanager.url)
        settings.alertmanager?.alertAfter = 2
        let failing = [DomainTarget(domain: "missing.aasa.test")]
        let passing = [DomainTarget(domain: "good.aasa.test")]
        let first = try await AuditRun.run(targets: failing, inputProblems: [], settings: settings)
        #expect(first.alertmanager?.firing ?? 0 == 0)
        #expect(try await alertmanager.active().isEmpty, "one night fires nothing")
        _ = try await AuditRun.run(targets: passing, inputProblems: [], settings: settings)
        let again = try await AuditRun.run(targets: failing, inputProblems: [], settings: settings)
        let afterBlip = try await alertmanager.active()
        #expect(again.alertmanager?.firing ?? 0 == 0 && afterBlip.isEmpty, "a blip again")
        let second = try await AuditRun.run(targets: failing, inputProblems: [], settings: settings)
        #expect(second.alertmanager?.firing == 1)
        #expect(try await alertmanager.active().map { $0["domain"] } == ["missing.aasa.test"])
        // Raised past the stretch while it fires: what was heard goes on firing (it once went
        // quiet, a resolve in Alertmanager for a site still failing).
        settings.alertmanager?.alertAfter = 3
        let raised = try await AuditRun.run(targets: failing, inputProblems: [], settings: settings)
        #expect(raised.alertmanager?.firing == 1)
    }

    /// A fleet's alerts go in bodies of a bounded size (issue 46, item 9: 30,000 failing
    /// domains were one 20 MB POST, which a proxy's 1 MB limit refused whole): here 4 KB, so
    /// that twelve failing domains take several POSTs, and Alertmanager has every alert.
    @Test func alertsArePostedInBoundedBatches() async throws {
        let alertmanager = try await Alertmanager()
        let world = try TestWorld()
        var settings = world.auditSettings(out: world.directory.url.appendingPathComponent("reports"))
        settings.alertmanager = AlertmanagerSettings(url: alertmanager.url)
        settings.alertmanager?.maximumBodyBytes = 4096
        let failing = (1...12).map { DomainTarget(domain: "missing\($0).aasa.test") }
        let result = try await AuditRun.run(targets: failing, inputProblems: [], settings: settings)
        #expect(result.alertmanager?.state == .sent && result.alertmanager?.firing == 12)
        #expect((result.alertmanager?.attempts.count ?? 0) >= 3, "a POST a batch")
        #expect(try await alertmanager.active().count == 12)
        // Each body a JSON array within the bound, every alert in one of them once.
        let alerts = (1...12).map {
            AlertmanagerAlerts.Alert(
                labels: ["domain": "d\($0).example"], annotations: ["summary": String(repeating: "x", count: 600)])
        }
        let bodies = AlertmanagerDelivery.batches(alerts, maximumBytes: 4096)
        #expect(bodies.count > 1 && bodies.allSatisfy { $0.count <= 4096 })
        let decoded = try bodies.flatMap {
            try JSONReport.makeDecoder().decode([AlertmanagerAlerts.Alert].self, from: $0)
        }
        #expect(decoded == alerts)
        #expect(AlertmanagerDelivery.batches([], maximumBytes: 4096).isEmpty)
    }
}
