import AASAAudit
import AASAModel
import AASAReport
import Foundation
import TestSupport
import Testing

/// `--alertmanager` against a real Alertmanager (Debian's prometheus-alertmanager) started on
/// loopback: one alert per failing domain and cause with the domain's labels, re-sent while it
/// lasts, resolved on recovery and on acknowledgement, untouched by a night this machine could
/// not check (issue 35, item 7).
@Suite struct AlertmanagerTests {
    struct AlertmanagerDidNotStart: Error {
        var output: String
    }

    /// An Alertmanager on 127.0.0.1 with a configuration that routes everything nowhere.
    final class Alertmanager: Sendable {
        let running: ProcessRunner.Running
        let port: Int
        let directory: TemporaryDirectory

        init() async throws {
            directory = try TemporaryDirectory()
            let config = directory.url.appendingPathComponent("alertmanager.yml")
            try "route:\n  receiver: nowhere\nreceivers:\n  - name: nowhere\n".write(
                to: config, atomically: true, encoding: .utf8)
            var output = ""
            // A port the kernel has just handed out and let go (another process may take it
            // meanwhile: then again, with another).
            for _ in 0..<3 {
                let port = try Self.freePort()
                let running = try ProcessRunner.start(
                    URL(fileURLWithPath: "/usr/bin/prometheus-alertmanager"),
                    [
                        "--config.file=\(config.path)", "--storage.path=\(directory.url.path)",
                        "--web.listen-address=127.0.0.1:\(port)", "--cluster.listen-address=",
                    ])
                for _ in 0..<200 where running.isRunning {
                    if (try? await HTTPTestClient.get(port: port, "/-/ready"))?.status == 200 {
                        (self.running, self.port) = (running, port)
                        return
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
                running.send(SIGTERM)
                output = running.wait().stderr
            }
            throw AlertmanagerDidNotStart(output: output)
        }

        static func freePort() throws -> Int {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
                }
            }
            guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
            return Int(UInt16(bigEndian: address.sin_port))
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
            running.send(SIGTERM)
            _ = running.wait()
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
}
