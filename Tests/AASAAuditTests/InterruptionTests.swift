import AASAModel
import AASAReport
import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// SIGINT and SIGTERM during an audit: it stops within seconds, writes the report of what it
/// has with "complete": false, leaves latest.* alone, and exits 128 + the signal.
@Suite(.live, .tags(.live)) struct InterruptionTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func anInterruptedRunWritesAnIncompleteReport(signal: Int32, status: Int32) async throws {
        let world = try TestWorld()
        // Completes TLS, then never answers: only the long total timeout could end the fetches.
        let silent = try FaultServer(
            identity: try world.pki.issueServerIdentity(for: ["*.aasa.test"]), fault: .respond { _, _ in .never })
        defer { silent.shutdown() }
        let hosts = ["good.aasa.test", "good2.aasa.test"] + (1...6).map { "stuck\($0).aasa.test" }
        try hosts.joined(separator: "\n").write(
            to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let stuck = (1...6).map { silent.connectTo("stuck\($0).aasa.test") }
        let arguments =
            ["audit", "--no-cdn", "--timeout", "60", "--concurrency", "4", "--cacert", world.caFile]
            + (stuck + [world.connectTo]).flatMap { ["--connect-to", $0] } + LoopbackNetworks.allowArguments

        // A complete run first: latest.json must still be this one afterwards.
        try "good.aasa.test\n".write(
            to: world.directory.url.appendingPathComponent("first.txt"), atomically: true, encoding: .utf8)
        let first = try await ProcessRunner.run(
            CommandLineTests.binary,
            ["audit", "first.txt", "--no-cdn", "--cacert", world.caFile, "--connect-to", world.connectTo]
                + LoopbackNetworks.allowArguments, in: world.directory.url)
        #expect(first.status == 0)
        let latest = world.directory.url.appendingPathComponent("reports/latest.json")
        let before = try Data(contentsOf: latest)
        let history = world.directory.url.appendingPathComponent("reports/history.json")
        let historyBefore = try Data(contentsOf: history)

        let running = try ProcessRunner.start(CommandLineTests.binary, arguments, in: world.directory.url)
        // Wait until the stuck servers hold connections, then interrupt.
        for _ in 0..<2400 where silent.connectionCount < 2 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(silent.connectionCount >= 2)
        try await Task.sleep(for: .milliseconds(200))
        let interrupted = running.send(signal)
        let result = await running.finished()
        // Within seconds, not the 60 s timeout: from the signal to the program's end, as a thread
        // of its own saw it (this task may resume long after on a starved machine).
        #expect(result.ended - interrupted < .seconds(10))
        #expect(result.status == status, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("interrupted"))

        #expect(try Data(contentsOf: latest) == before, "latest.json must keep the last complete run")
        // An interrupted run is not history.
        #expect(try Data(contentsOf: history) == historyBefore)
        let index = try String(
            contentsOf: world.directory.url.appendingPathComponent("reports/index.html"), encoding: .utf8)
        #expect(index.contains("1 complete run kept"))
        let runs = try FileManager.default.contentsOfDirectory(
            atPath: world.directory.url.appendingPathComponent("reports").path
        )
        .filter { $0.hasPrefix("20") }.sorted()
        #expect(runs.count == 2)
        let report = try JSONReport.makeDecoder().decode(
            AuditReport.self,
            from: Data(contentsOf: world.directory.url.appendingPathComponent("reports/\(runs.last!)/report.json")))
        #expect(report.run.complete == false)
        #expect(report.domains.map(\.domain) == hosts)
        #expect(report.domains.filter { $0.findings.map(\.code) == [.run(.auditInterrupted)] }.count == 6)
        #expect(report.domains[0].verdict == .pass)
        // The stream has the domains that finished before the signal, then (as the report) the
        // ones never reached, marked so.
        let streamed = try String(
            contentsOf: world.directory.url.appendingPathComponent("reports/\(runs.last!)/domains.jsonl"),
            encoding: .utf8
        ).split(separator: "\n").map { try JSONReport.makeDecoder().decode(DomainReport.self, from: Data($0.utf8)) }
        #expect(Set(streamed.map(\.domain)) == Set(report.domains.map(\.domain)))
        let unreached = streamed.drop { $0.findings.map(\.code) != [.run(.auditInterrupted)] }
        #expect(unreached.count == 6 && unreached.allSatisfy { $0.findings.map(\.code) == [.run(.auditInterrupted)] })
        let html = try String(
            contentsOf: world.directory.url.appendingPathComponent("reports/\(runs.last!)/report.html"), encoding: .utf8
        )
        #expect(html.contains("This run was interrupted"))
        // Rebuilt from the run folders, the history still leaves the interrupted run out.
        try FileManager.default.removeItem(at: history)
        let rebuilt = try await ProcessRunner.run(
            CommandLineTests.binary, ["history", "--json"], in: world.directory.url)
        #expect(
            try JSONReport.makeDecoder().decode(FleetHistoryRecord.self, from: Data(rebuilt.stdout.utf8)).runs.map(
                \.run) == [runs.first!])

        // `--resume` finishes the interrupted run in its own folder: the two domains it finished
        // come from its journal, the six it never reached are audited now (here answered at once).
        let requestsBefore = world.server.requests.count
        let resumed = try await ProcessRunner.run(
            CommandLineTests.binary,
            ["audit", "--resume", "--no-cdn", "--cacert", world.caFile, "--connect-to", world.connectTo]
                + LoopbackNetworks.allowArguments, in: world.directory.url)
        #expect(resumed.status == 1, "\(resumed.stderr)")
        let finished = try JSONReport.makeDecoder().decode(
            AuditReport.self,
            from: Data(contentsOf: world.directory.url.appendingPathComponent("reports/\(runs.last!)/report.json")))
        #expect(finished.run.complete && finished.domains.map(\.domain) == hosts)
        #expect(!finished.domains.contains { $0.findings.map(\.code) == [.run(.auditInterrupted)] })
        #expect(finished.run.startedAt == report.run.startedAt)
        let fetched = Set(world.server.requests.dropFirst(requestsBefore).map(\.host))
        #expect(fetched == Set(hosts.dropFirst(2)), "\(fetched)")
    }
}
