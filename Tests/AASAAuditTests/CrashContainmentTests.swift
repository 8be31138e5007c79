import AASAModel
import AASAReport
import AuditTestSupport
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import AASAAudit

/// A night that survives a poison domain (issue 54, item 3): a crash costs the domains it hit,
/// not the night. The crashes here are real fatal signals (SIGSEGV) sent to the command while
/// the domains in flight hang: what a fault in the checks or in a C library does to the process.
@Suite(.live, .tags(.live)) struct CrashContainmentTests {
    static let count = 40

    static func domains() -> String {
        (1...count).map { "good\($0).aasa.test \(TestWorld.appID)" }.joined(separator: "\n") + "\n"
    }

    func arguments(_ world: TestWorld, _ gated: ResumeTests.GatedServer, out: String) -> [String] {
        [
            "audit", "--out", out, "--concurrency", "4", "--timeout", "120", "--connect-to", gated.server.connectTo,
            "--cacert", world.caFile, "--no-cdn", "--no-ua-check",
        ] + LoopbackNetworks.allowArguments
    }

    /// The in-flight rows of the newest run folder of `out`: domain → audited alone.
    static func inFlight(_ out: URL) -> [String: Bool] {
        guard let run = RunFolders.names(in: out).last else { return [:] }
        return InFlightLog.read(out.appendingPathComponent(run))?.inFlight ?? [:]
    }

    /// Starts a run, waits until `ready` holds of the newest run's in-flight rows, and sends it
    /// SIGSEGV; returns the rows it had.
    func crashed(
        _ arguments: [String], in directory: URL, out: URL, when ready: @escaping ([String: Bool]) -> Bool
    ) async throws -> [String: Bool] {
        let process = try ProcessRunner.start(CommandLineTests.binary, arguments, in: directory)
        var rows: [String: Bool] = [:]
        let deadline = ContinuousClock.now + .seconds(600)  // a failure's bound only: one core can be away a minute
        while ContinuousClock.now < deadline {
            rows = Self.inFlight(out)
            if ready(rows) { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        process.send(SIGSEGV)
        let result = await process.finished()
        #expect(result.stderr.contains("aasa-audit: crashed auditing the run in"), "\(result.stderr.suffix(2000))")
        return rows
    }

    static func report(_ out: URL) throws -> AuditReport {
        let run = try #require(RunFolders.names(in: out).last)
        return try JSONReport.makeDecoder().decode(
            AuditReport.self, from: Data(contentsOf: out.appendingPathComponent("\(run)/report.json")))
    }

    @Test func aCrashCostsTheDomainsItHitNotTheNight() async throws {
        let world = try TestWorld()
        let gated = try ResumeTests.GatedServer(world)
        let dir = world.directory.url
        let out = dir.appendingPathComponent("reports")
        try Self.domains().write(to: dir.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)

        // Night 1 crashes with four domains in flight together (21 to 24 hang).
        gated.answer(first: 20)
        let together = try await crashed(arguments(world, gated, out: "reports"), in: dir, out: out) {
            $0.count == 4 && $0.values.allSatisfy { !$0 }
        }
        #expect(together.count == 4, "\(together)")
        gated.answer(first: nil)

        // --resume finishes the night: those four are audit.crashed, not fetched again.
        let before = gated.server.requests.count
        let resumed = try await CommandLineTests().run(arguments(world, gated, out: "reports") + ["--resume"], in: dir)
        let fetched = Set(gated.server.requests.dropFirst(before).map(\.host))
        #expect(fetched.isDisjoint(with: together.keys), "\(fetched.intersection(together.keys))")
        var report = try Self.report(out)
        #expect(report.run.complete, "\(resumed.stderr)")
        let crashedDomains = report.domains.filter { $0.findings.map(\.code) == [.run(.auditCrashed)] }.map(\.domain)
        #expect(Set(crashedDomains) == Set(together.keys))
        #expect(report.summary.verdicts.pass == Self.count - 4, "\(report.summary.verdicts)")
        let history = try #require(RunHistoryStore.lastLine(of: out.appendingPathComponent("history.json")))
        let entry = try JSONReport.makeDecoder().decode(HistoryRun.self, from: history)
        let inHistory = entry.domains.filter { together.keys.contains($0.domain) }
        #expect(inHistory.count == 4 && inHistory.allSatisfy(\.notChecked))

        // Night 2 audits the four alone, first: the first of them crashes the process alone.
        gated.answer(first: 20)
        let alone = try await crashed(arguments(world, gated, out: "reports"), in: dir, out: out) {
            $0.count == 1 && $0.values.first == true
        }
        let culprit = try #require(alone.keys.first)
        #expect(together.keys.contains(culprit))
        gated.answer(first: nil)
        let folders = RunFolders.names(in: out)
        #expect(folders.count == 2, "night 1 (resumed) and night 2 (crashed)")

        // The next night (a plain one, no --resume) knows the culprit: reported, never fetched;
        // the other three are audited alone again and pass; the crashed folder is pruned.
        let before3 = gated.server.requests.count
        let night3 = try await CommandLineTests().run(arguments(world, gated, out: "reports"), in: dir)
        #expect(!gated.server.requests.dropFirst(before3).map(\.host).contains(culprit))
        report = try Self.report(out)
        #expect(report.run.complete, "\(night3.stderr)")
        let night3Crashed = report.domains.filter { $0.findings.map(\.code) == [.run(.auditCrashed)] }
        #expect(night3Crashed.map(\.domain) == [culprit])
        #expect(night3Crashed.first?.findings.first?.message.contains("does not fetch it again") == true)
        #expect(report.summary.verdicts.pass == Self.count - 1)
        #expect(RunFolders.names(in: out) == [folders[0], RunFolders.names(in: out).last], "night 2's folder pruned")
        for name in RunFolders.names(in: out) {
            let folder = out.appendingPathComponent(name)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(RunJournal.fileName).path))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(InFlightLog.markerName).path))
        }

        // And the night after too (the same version, within the week).
        _ = try await CommandLineTests().run(arguments(world, gated, out: "reports"), in: dir)
        report = try Self.report(out)
        #expect(report.domains.filter { $0.findings.map(\.code) == [.run(.auditCrashed)] }.map(\.domain) == [culprit])
    }

    /// serve, crashed while a check is in hand, names the request in its standard error (the
    /// journal, under systemd), and its unit restarts it however often it stops.
    @Test func serveNamesTheRequestItCrashedOn() async throws {
        let world = try TestWorld()
        let gated = try ResumeTests.GatedServer(world)
        gated.answer(first: 0)
        // A port picked at random, another if it is taken (`LoopbackServer.unusedPort` keeps its
        // port bound for the test process, so a child could not listen there).
        var started: (ProcessRunner.Running, Int)?
        for _ in 0..<5 where started == nil {
            let port = Int.random(in: 20_000..<60_000)
            let process = try ProcessRunner.start(
                CommandLineTests.binary,
                [
                    "serve", "--out", world.directory.url.appendingPathComponent("reports").path, "--listen",
                    "127.0.0.1:\(port)", "--connect-to", gated.server.connectTo, "--cacert", world.caFile, "--no-cdn",
                    "--timeout", "60",
                ] + LoopbackNetworks.allowArguments, in: world.directory.url)
            for _ in 0..<4800 where process.isRunning {
                if (try? await HTTPTestClient.get(port: port, "/healthz"))?.status == 200 {
                    started = (process, port)
                    break
                }
                try await Task.sleep(for: .milliseconds(25))
            }
            if started == nil {
                process.send(SIGKILL)
                _ = await process.finished()
            }
        }
        let (process, port) = try #require(started)
        let target = "/api/v1/check?domain=a-long-poisonous-shop-name-7.aasa.test&passkeys=on"
        let asking = Task {
            var request: ProcessRunner.Result?
            for _ in 0..<200 {
                request = try? await ProcessRunner.run(
                    URL(fileURLWithPath: "/usr/bin/curl"),
                    ["-sS", "-o", "/dev/null", "http://127.0.0.1:\(port)\(target)"])
                if request?.status == 0 || request?.stderr.contains("Empty reply") == true
                    || request?.stderr.contains("reset") == true
                {
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        // Once the check hangs on the site, the process crashes.
        let deadline = ContinuousClock.now + .seconds(600)  // a failure's bound only: one core can be away a minute
        while ContinuousClock.now < deadline, !gated.server.requests.contains(where: { $0.host.hasPrefix("a-long") }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        process.send(SIGSEGV)
        let result = await process.finished()
        asking.cancel()
        #expect(result.stderr.contains("aasa-audit serve: crashed while answering:"), "\(result.stderr.suffix(3000))")
        #expect(result.stderr.contains("GET \(target) from 127.0.0.1"), "\(result.stderr.suffix(3000))")

        let unit = try String(
            contentsOf: ArchitectureMapTests.root.appendingPathComponent(
                "Packaging/systemd/aasa-audit-serve.service"),
            encoding: .utf8)
        #expect(unit.contains("\nStartLimitIntervalSec=0\n") && unit.contains("\nRestart=on-failure\n"))
    }

    /// A fault in one domain's own work (here a trap planted in the audit of good25, after its
    /// fetches) names that domain: the run after reports it alone `audit.crashed` and audits
    /// again the four that were in flight with it (good21 to good24 hang, so all five are).
    @Test func aFaultNamesItsDomainAndCostsThatDomainOnly() async throws {
        let world = try TestWorld()
        let hanging = Mutex(true)
        let server = try LoopbackServer(identity: try world.pki.issueServerIdentity(for: ["*.aasa.test"])) {
            host, path, agent in
            let number = Int(host.prefix { $0 != "." }.filter(\.isNumber)) ?? 0
            if (21...24).contains(number), hanging.withLock({ $0 }) { return .hang }
            return TestWorld.answer(host: host, path: path, userAgent: agent)
        }
        defer { server.shutdown() }
        let dir = world.directory.url
        let out = dir.appendingPathComponent("reports")
        try Self.domains().write(to: dir.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let poison = "good25.aasa.test"
        var environment = ProcessInfo.processInfo.environment
        environment["AASA_AUDIT_TEST_FAULT"] = poison
        let arguments =
            [
                "audit", "--out", "reports", "--concurrency", "5", "--timeout", "120", "--connect-to",
                server.connectTo, "--cacert", world.caFile, "--no-cdn", "--no-ua-check",
            ] + LoopbackNetworks.allowArguments
        func run(_ extra: [String] = []) async throws -> ProcessRunner.Result {
            try await ProcessRunner.run(CommandLineTests.binary, arguments + extra, in: dir, environment: environment)
        }

        let night = try await run()
        #expect(night.status != 0)
        #expect(night.stderr.contains("the fault was in the work of \(poison)"), "\(night.stderr.suffix(2000))")
        let folder = try #require(RunFolders.names(in: out).last)
        let log = try #require(InFlightLog.read(out.appendingPathComponent(folder)))
        #expect(log.crashed && log.blamed == poison)
        let together = Set((21...25).map { "good\($0).aasa.test" })
        #expect(Set(log.inFlight.keys) == together)

        hanging.withLock { $0 = false }
        let before = server.requests.count
        let resumed = try await run(["--resume"])
        let fetched = Set(server.requests.dropFirst(before).map(\.host))
        #expect(fetched.intersection(together) == together.subtracting([poison]))
        var report = try Self.report(out)
        #expect(report.run.complete, "\(resumed.stderr)")
        let crashed = report.domains.filter { $0.findings.map(\.code) == [.run(.auditCrashed)] }
        #expect(crashed.map(\.domain) == [poison])
        #expect(crashed.first?.findings.first?.message.contains("the fault named it") == true)
        #expect(report.summary.verdicts.pass == Self.count - 1, "\(report.summary.verdicts)")

        // The next night does not fetch it (the planted fault is still set: it would crash).
        let before2 = server.requests.count
        let next = try await run()
        #expect(!server.requests.dropFirst(before2).map(\.host).contains(poison), "\(next.stderr.suffix(2000))")
        report = try Self.report(out)
        #expect(report.run.complete && report.domains.filter { $0.verdict == .pass }.count == Self.count - 1)
    }

    @Test func aNamedFaultMakesOneCulpritNotSuspects() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let earlier = CrashCarry.Entry(domain: "c.example", state: .suspect, since: now - 86_400, build: "1")
        let contents = InFlightLog.Contents(
            inFlight: ["a.example": false, "b.example": false, "c.example": false], carried: [earlier],
            crashed: true, blamed: "b.example")
        for resuming in [true, false] {
            let plan = CrashCarry.plan(previous: contents, resuming: resuming, now: now, build: "1")
            #expect(plan.crashed.keys.sorted() == ["b.example"])
            #expect(plan.alone == ["c.example"], "an earlier crash's suspect is still one")
            #expect(plan.carry.map(\.domain).sorted() == ["b.example", "c.example"])
            #expect(plan.carry.first { $0.domain == "b.example" }?.state == .culprit)
        }
        // A name that was not in flight (a stale marker) names nothing: the in-flight are suspects.
        var stale = contents
        stale.blamed = "z.example"
        let plan = CrashCarry.plan(previous: stale, resuming: true, now: now, build: "1")
        #expect(plan.crashed.keys.sorted() == ["a.example", "b.example", "c.example"])
    }

    /// `kill -9` is no crash: the domains in flight are audited again on resume, as before.
    @Test func aKilledRunIsNoCrash() {
        let contents = InFlightLog.Contents(inFlight: ["a.example": false, "b.example": true], crashed: false)
        let plan = CrashCarry.plan(previous: contents, resuming: true, now: Date(), build: "1")
        #expect(plan == CrashCarry.Plan())
    }

    @Test func aCulpritIsTriedAgainByAnotherVersionOrAfterAWeek() {
        let since = Date(timeIntervalSince1970: 1_800_000_000)
        let entry = CrashCarry.Entry(domain: "poison.example", state: .culprit, since: since, build: "1")
        let contents = InFlightLog.Contents(carried: [entry])
        let sameWeek = CrashCarry.plan(previous: contents, resuming: false, now: since + 86_400, build: "1")
        #expect(sameWeek.crashed.keys.sorted() == ["poison.example"] && sameWeek.alone.isEmpty)
        let newVersion = CrashCarry.plan(previous: contents, resuming: false, now: since + 86_400, build: "2")
        #expect(newVersion.crashed.isEmpty && newVersion.alone == ["poison.example"])
        let weekLater = CrashCarry.plan(previous: contents, resuming: false, now: since + 8 * 86_400, build: "1")
        #expect(weekLater.crashed.isEmpty && weekLater.alone == ["poison.example"])
    }
}
