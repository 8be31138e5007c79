import AASAAudit
import AASAFetch
import AASAModel
import AASAReport
import AuditTestSupport
import Foundation
import Synchronization
import TestSupport
import Testing

/// A team's view over time against real loopback servers: history.json kept across runs (and
/// rebuilt), index.html, `history`, alerts POSTed to a real receiver over HTTP and HTTPS, and
/// `--severity`.
@Suite(.live, .tags(.live)) struct HistoryAndAlertTests {
    func settings(_ world: TestWorld, out: URL) -> AuditSettings {
        AuditSettings(
            inputFiles: ["domains.txt"], outputDirectory: out, concurrency: 4,
            fetcher: world.fetcherConfiguration(timeout: 60), failOn: .error)
    }

    func historyLines(_ out: URL) throws -> [HistoryRun] {
        try String(contentsOf: out.appendingPathComponent("history.json"), encoding: .utf8).split(separator: "\n")
            .map { try HistoryRun(line: Data($0.utf8)) }
    }

    func audit(_ hosts: [String], _ settings: AuditSettings) async throws -> AuditRunResult {
        try await AuditRun.run(targets: hosts.map { DomainTarget(domain: $0) }, inputProblems: [], settings: settings)
    }

    @Test func historyIsAppendedAfterEachCompleteRunAndRebuiltWhenMissingOrDamaged() async throws {
        let world = try TestWorld()
        let out = world.directory.url.appendingPathComponent("reports")
        let settings = settings(world, out: out)
        var folders: [String] = []
        var results: [AuditRunResult] = []
        for hosts in [
            ["good.aasa.test", "missing.aasa.test"], ["good.aasa.test", "missing.aasa.test"],
            ["good.aasa.test", "textplain.aasa.test"],
        ] {
            results.append(try await audit(hosts, settings))
            folders.append(results.last!.runDirectory.lastPathComponent)
        }
        // The closing summary says since when a domain fails.
        #expect(
            results[1].notPassingSince["missing.aasa.test"]?.runs == 2
                && results[1].notPassingSince["missing.aasa.test"]?.since == folders[0])
        #expect(results[1].notPassingSince["good.aasa.test"] == nil)
        let summary = TerminalReport(colour: false).runSummary(
            summary: results[1].summary, flagged: results[1].flaggedDomains, problems: [], seconds: 1,
            complete: true, since: results[1].notPassingSince)
        #expect(summary.contains("FAIL missing.aasa.test  http.status  since ≥ "), "\(summary)")
        #expect(summary.contains("(2 runs)"))
        var lines = try historyLines(out)
        #expect(lines.map(\.run) == folders)
        // The world's certificate: the day it expires, read on each host's connection.
        let certificate = try #require(lines[0].domains.first?.certificateExpires)
        #expect(
            lines[0].domains == [
                HistoryDomain(domain: "good.aasa.test", verdict: .pass, codes: [], certificateExpires: certificate),
                HistoryDomain(
                    domain: "missing.aasa.test", verdict: .fail, codes: ["http.status"], certificateExpires: certificate
                ),
            ])
        let original = lines[0]
        #expect(lines[2].verdicts.warn == 1 && lines[2].domains[1].codes == ["http.content-type"])
        let index = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("3 complete runs kept"))
        for folder in folders { #expect(index.contains("href=\"\(folder)/report.html\"")) }
        #expect(index.contains(#"<tr id="textplain.aasa.test" data-verdict="warn" data-codes="http.content-type""#))

        // Missing: rebuilt from the run folders' reports, then this run added.
        try FileManager.default.removeItem(at: out.appendingPathComponent("history.json"))
        folders.append(try await audit(["good.aasa.test"], settings).runDirectory.lastPathComponent)
        lines = try historyLines(out)
        #expect(lines.map(\.run) == folders)
        #expect(lines[0].domains == original.domains && lines[0].certificateExpiry == ["\(certificate)": [0, 1]])

        // Damaged: a half-written line is not trusted; the file is written anew.
        let handle = try FileHandle(forWritingTo: out.appendingPathComponent("history.json"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"schemaVersion":1,"run":"2026-"#.utf8))
        try handle.close()
        folders.append(try await audit(["good.aasa.test"], settings).runDirectory.lastPathComponent)
        lines = try historyLines(out)
        #expect(lines.map(\.run) == folders)

        // --keep: the lines of the removed run folders go with them.
        var keeping = settings
        keeping.keepRuns = 2
        folders.append(try await audit(["good.aasa.test"], keeping).runDirectory.lastPathComponent)
        #expect(try historyLines(out).map(\.run) == Array(folders.suffix(2)))
        let kept = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        // (Runs in the same second are named …Z, …Z-2: look for the whole link.)
        #expect(kept.contains("2 complete runs kept") && !kept.contains("href=\"\(folders[0])/report.html\""))
    }

    @Test func theHistoryCommandShowsTheTrendAndADomainsTimeline() async throws {
        let world = try TestWorld()
        let out = world.directory.url.appendingPathComponent("reports")
        let settings = settings(world, out: out)
        for hosts in [
            ["good.aasa.test", "missing.aasa.test"], ["good.aasa.test", "missing.aasa.test"],
            ["good.aasa.test", "textplain.aasa.test"],
        ] {
            _ = try await audit(hosts, settings)
        }
        let environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
        let fleet = try await ProcessRunner.run(
            CommandLineTests.binary, ["history"], in: world.directory.url, environment: environment)
        #expect(fleet.status == 0, "\(fleet.stderr)")
        #expect(fleet.stdout.hasPrefix("3 complete runs kept:"), "\(fleet.stdout)")
        #expect(fleet.stdout.contains("2 pass, 0 warn, 0 fail") == false)
        #expect(fleet.stdout.contains("1 pass, 0 warn, 1 fail"))
        #expect(fleet.stdout.contains("WARN textplain.aasa.test since"))

        let timeline = try await ProcessRunner.run(
            CommandLineTests.binary, ["history", "MISSING.aasa.test"], in: world.directory.url, environment: environment
        )
        #expect(timeline.status == 0)
        let lines = timeline.stdout.split(separator: "\n")
        #expect(lines.first == "missing.aasa.test over 3 kept runs:")
        // Two failing runs in a row are one line; the run that did not audit it says so.
        #expect(lines.count == 3, "\(timeline.stdout)")
        #expect(lines[1].contains("2 runs") && lines[1].contains("FAIL  http.status"))
        #expect(lines[2].contains("not audited"))

        let json = try await ProcessRunner.run(
            CommandLineTests.binary, ["history", "--json", "--out", "reports"], in: world.directory.url)
        let record = try JSONReport.makeDecoder().decode(FleetHistoryRecord.self, from: Data(json.stdout.utf8))
        #expect(record.runs.count == 3 && record.domains.map(\.domain) == ["good.aasa.test", "textplain.aasa.test"])
        #expect(record.domains[1].since?.runs == 1)

        let unknown = try await ProcessRunner.run(
            CommandLineTests.binary, ["history", "good"], in: world.directory.url)
        #expect(
            unknown.status == 2
                && unknown.stderr.contains("No kept run in reports audited good. Did you mean good.aasa.test?"),
            "\(unknown.stderr)")
        let empty = try await ProcessRunner.run(
            CommandLineTests.binary, ["history", "--out", "nothing-here"], in: world.directory.url)
        #expect(empty.status == 2 && empty.stderr.contains("nothing-here is not a folder"))
    }

    /// A webhook receiver on 127.0.0.1 answering each POST with the next status of `statuses`
    /// (the last one for every POST after).
    final class Receiver: Sendable {
        final class Counter: Sendable {
            let count = Mutex(0)
        }

        let server: LoopbackServer

        init(identity: ServerIdentity? = nil, statuses: [Int]) throws {
            let answered = Counter()
            server = try LoopbackServer(identity: identity) { _, _ in
                let index = answered.count.withLock { count in
                    count += 1
                    return count - 1
                }
                return .status(statuses[min(index, statuses.count - 1)], body: "ok")
            }
        }

        var posts: [ServedRequest] { server.requests.filter { $0.method == "POST" } }

        func alert(_ index: Int) throws -> RunAlert {
            try JSONReport.makeDecoder().decode(RunAlert.self, from: Data(posts[index].body))
        }

        deinit { server.shutdown() }
    }

    func notifying(_ settings: AuditSettings, url: String, on trigger: AlertTrigger, caFile: String? = nil)
        -> AuditSettings
    {
        var settings = settings
        var notification = NotificationSettings(url: url, trigger: trigger)
        notification.poster.retryDelays = [.milliseconds(50), .milliseconds(50)]
        notification.poster.caFile = caFile
        settings.notification = notification
        return settings
    }

    @Test func anAlertIsPostedWhenADomainStartsFailingAndRetriedThroughServerErrors() async throws {
        let world = try TestWorld()
        let receiver = try Receiver(statuses: [503, 502, 200])
        let settings = notifying(
            settings(world, out: world.directory.url.appendingPathComponent("reports")),
            url: "http://127.0.0.1:\(receiver.server.port)/hooks/T000/secret", on: .failures)
        let first = try await audit(["good.aasa.test", "missing.aasa.test"], settings)
        #expect(first.notification?.state == .sent)
        #expect(first.notification?.attempts.map(\.status) == [503, 502, 200])
        #expect(
            receiver.posts.count == 3
                && receiver.posts.allSatisfy { $0.path == "/hooks/T000/secret" && $0.contentType == "application/json" }
        )
        let alert = try receiver.alert(2)
        #expect(
            alert.failures.map(\.domain) == ["missing.aasa.test"]
                && alert.failures[0].codes == ["http.status"])
        #expect(alert.text.hasPrefix("aasa-audit: 1 new failure. 2 domains: 1 pass, 0 warn, 1 fail."))
        #expect(alert.run.report == first.reportHTML.path)
        // The reports never record the webhook's secret path.
        let report = try String(contentsOf: first.reportJSON, encoding: .utf8)
        #expect(
            report.contains(#""notifyURL":"http://127.0.0.1:\#(receiver.server.port)/…""#) && !report.contains("secret")
        )

        // Nothing new: no alert on failures.
        let second = try await audit(["good.aasa.test", "missing.aasa.test"], settings)
        #expect(second.notification?.state == .notNeeded && receiver.posts.count == 3)

        // On any change: a new warning is news.
        var changes = settings
        changes.notification?.trigger = .changes
        changes.notification?.reportBaseURL = "https://audits.example/aasa"

        let third = try await audit(["good.aasa.test", "missing.aasa.test", "textplain.aasa.test"], changes)
        #expect(third.notification?.state == .sent && receiver.posts.count == 4)
        let warning = try receiver.alert(3)
        #expect(warning.warnings.map(\.domain) == ["textplain.aasa.test"] && warning.failures.isEmpty)
        #expect(warning.run.previousRunStartedAt != nil)
        // With --report-url the alert links the report where --out is served.
        let folder = third.runDirectory.lastPathComponent
        #expect(warning.run.reportURL == "https://audits.example/aasa/\(folder)/report.html")
        #expect(warning.text.hasSuffix("Report: https://audits.example/aasa/\(folder)/report.html"))
    }

    /// A night on which this machine's DNS fails is not the sites' failure: the alert says the
    /// audit could not check (never "new failures"), latest.* keep the last sound run, the
    /// history marks the run and counts it for nothing, the metrics say so, and the next sound
    /// run announces no recoveries.
    @Test func aNightWithBrokenDNSIsNotTheSitesFailure() async throws {
        let world = try TestWorld()
        let receiver = try Receiver(statuses: [200])
        let out = world.directory.url.appendingPathComponent("reports")
        var sound = notifying(
            settings(world, out: out), url: "http://127.0.0.1:\(receiver.server.port)/hook", on: .failures)
        sound.metricsFile = world.directory.url.appendingPathComponent("aasa.prom")
        let hosts = ["good.aasa.test", "good2.aasa.test", "good3.aasa.test", "good4.aasa.test", "good5.aasa.test"]
        let first = try await audit(hosts, sound)
        #expect(first.summary.verdicts.pass == 5 && first.notification?.state == .notNeeded)
        let latest = try Data(contentsOf: out.appendingPathComponent("latest.json"))

        // Every name this machine looks up fails to resolve: the test world sends every host
        // to a name under .invalid (RFC 6761), as a machine whose resolver is down would.
        var broken = sound
        broken.fetcher.connectTo = ["::dns-is-down.invalid:443"]
        broken.fetcher.diagnosisNameServer = LoopbackDNSServer.nobody
        broken.junitFile = world.directory.url.appendingPathComponent("junit.xml")
        let outage = try await audit(hosts, broken)
        #expect(outage.summary.verdicts.fail == 5)
        #expect(outage.summary.auditorProblems?.first?.contains("its DNS is not working") == true)
        #expect(outage.notification?.state == .sent)
        let alert = try receiver.alert(0)
        #expect(alert.failures.isEmpty && alert.recoveries.isEmpty && alert.counts.failures == 0)
        #expect(!alert.text.contains("new failure"), "\(alert.text)")
        #expect(alert.text.contains("could not check") && alert.auditorProblems?.count == 1, "\(alert.text)")
        #expect(try Data(contentsOf: out.appendingPathComponent("latest.json")) == latest, "latest.* stay")
        let lines = try historyLines(out)
        #expect(lines.count == 2 && lines[1].auditorProblems != nil && lines[0].auditorProblems == nil)
        let history = RunHistory(runs: lines)
        #expect(history.standings().allSatisfy { $0.verdict == .pass && $0.notPassingSince == nil })
        let metrics = try String(contentsOf: broken.metricsFile!, encoding: .utf8)
        #expect(metrics.contains("aasa_audit_run_sound 0"), "\(metrics)")
        // Marked everywhere: no per-domain series, every JUnit case skipped with the reason, a
        // grey bar on the index chart, "not checked properly" in history and its JSON.
        #expect(!metrics.contains("aasa_audit_domain_verdict{"), "\(metrics)")
        let junit = try String(contentsOf: broken.junitFile!, encoding: .utf8)
        #expect(junit.contains(#"failures="0" errors="0" skipped="5""#), "\(junit)")
        #expect(junit.components(separatedBy: "<skipped message=\"Not checked properly: No host name").count == 6)
        #expect(!junit.contains("<failure"))
        let environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
        let fleet = try await ProcessRunner.run(
            CommandLineTests.binary, ["history", "--out", out.path], in: world.directory.url, environment: environment)
        #expect(fleet.stdout.contains("not checked properly") && fleet.stdout.contains("counts for nothing"))
        #expect(!fleet.stdout.contains("0 pass, 0 warn, 5 fail"), "\(fleet.stdout)")
        let timeline = try await ProcessRunner.run(
            CommandLineTests.binary, ["history", "good.aasa.test", "--out", out.path], in: world.directory.url,
            environment: environment)
        #expect(timeline.stdout.contains("not checked properly (this machine's failure)"), "\(timeline.stdout)")
        #expect(!timeline.stdout.contains("FAIL"), "\(timeline.stdout)")
        let index = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("not checked properly: counts for nothing"))
        #expect(index.contains(#"<rect class="unchecked""#) && index.contains("not checked properly (this machine)"))
        // The page's rows and its counts stay the last sound run's, and it says why.
        #expect(index.contains("<b>Not checked:</b> The newest run"))
        #expect(index.contains("its DNS is not working"))
        #expect(
            index.contains(#"<div class="tile pass"><b>5</b>pass</div>"#)
                && index.contains(#"<div class="tile fail"><b>0</b>fail</div>"#), "the head counts the sound run")

        // Two such nights make no domain flap; the next sound night announces no recovery.
        let secondOutage = try await audit(hosts, broken)
        #expect(secondOutage.summary.auditorProblems != nil, "\(secondOutage.summary.findingsByCode)")
        let next = try await audit(hosts, sound)
        #expect(next.summary.auditorProblems == nil, "\(next.summary.findingsByCode)")
        #expect(next.changes?.isEmpty == true, "compared with the last sound run: \(String(describing: next.changes))")
        #expect(next.notification?.state == .notNeeded)
        #expect(receiver.posts.count == 2, "an alert per outage night, none after")
        let after = RunHistory(runs: try historyLines(out))
        #expect(after.runs.count == 4 && after.runs.filter(\.isSound).count == 2)
        #expect(after.standings().allSatisfy { !$0.flapping && $0.changes == 0 })
        #expect(try String(contentsOf: sound.metricsFile!, encoding: .utf8).contains("aasa_audit_run_sound 1"))
    }

    /// The machine's DNS judged by evidence, down to one domain: with every name (the canary's
    /// too) failing, a one-domain fleet's night is the machine's (exit 3, no new failure, no
    /// recovery after), and the diagnosis is DNS though Apple's CDN failed as well; names that do
    /// not exist while the resolver gives an address for one that does are the sites' failures,
    /// however many (issue 35, item 2; issue 36, item 6; issue 54: NXDOMAIN alone is no answer).
    @Test func theResolverIsJudgedByEvidenceForAnyFleet() async throws {
        let world = try TestWorld()
        let receiver = try Receiver(statuses: [200])
        let out = world.directory.url.appendingPathComponent("reports")
        var sound = notifying(
            settings(world, out: out), url: "http://127.0.0.1:\(receiver.server.port)/hook", on: .failures)
        sound.deviceView = DeviceViewSettings(cdnBase: TestWorld.cdnBase)
        let first = try await audit(["good.aasa.test"], sound)
        #expect(first.summary.verdicts.pass == 1 && first.summary.auditorProblems == nil)

        var down = sound
        down.fetcher.connectTo = ["::dns-is-down.invalid:443"]
        down.fetcher.diagnosisNameServer = LoopbackDNSServer.nobody
        let outage = try await audit(["good.aasa.test"], down)
        let notice = try #require(outage.summary.auditorProblems?.first)
        #expect(notice.contains("DNS is not working") && notice.contains(AuditorProblems.defaultCanary), "\(notice)")
        #expect(!notice.contains("--no-cdn") && outage.summary.partlyChecked == nil)
        #expect(ExitPolicy.audit(outage, problems: [], failOn: .error, interruptedBy: nil) == .auditorProblems)
        let alert = try receiver.alert(0)
        #expect(alert.failures.isEmpty && alert.auditorProblems != nil && !alert.text.contains("new failure"))
        let next = try await audit(["good.aasa.test"], sound)
        #expect(next.changes?.isEmpty == true && next.notification?.state == .notNeeded, "no recovery")

        // Names that do not exist, while the resolver gives an address for a name that does (the
        // canary, asked directly; NXDOMAIN alone is no evidence, nor is localhost from
        // /etc/hosts): the sites' failures, however many.
        let names = (1...6).map { "gone\($0).aasa.test" }
        let resolver = try LoopbackDNSServer { $0.hasPrefix("resolver-canary.") ? LoopbackDNSServer.withAnAddress : 3 }
        defer { resolver.shutdown() }
        var missing = sound
        missing.deviceView = .originOnly
        missing.fetcher.connectTo = names.map { "\($0):443:no-such-name.invalid:443" }
        missing.fetcher.diagnosisNameServer = resolver.address
        missing.canaries = ["localhost", "resolver-canary.aasa.invalid"]
        let gone = try await audit(names, missing)
        #expect(gone.summary.auditorProblems == nil && gone.summary.verdicts.fail == 6)
        #expect(ExitPolicy.audit(gone, problems: [], failOn: .error, interruptedBy: nil) == .failed)
        // The same resolver with a canary that gets NXDOMAIN too: it cannot see the internet.
        missing.canaries = ["localhost", "also-gone.aasa.invalid"]
        let blind = try await audit(names, missing)
        #expect(blind.summary.auditorProblems?.first?.contains("DNS is not working") == true)
        // Half a fleet said not to exist beside a name that reached its site through a pin
        // (`--connect-to` every name, so no canary can be asked either): no name got an address
        // from the resolver, so nothing shows it sees the internet: this machine's (issue 54).
        var half = sound
        half.deviceView = .originOnly
        half.fetcher.connectTo = missing.fetcher.connectTo + [world.connectTo]
        half.fetcher.diagnosisNameServer = resolver.address
        half.canaries = ["resolver-canary.aasa.invalid"]
        let mixed = try await audit(names + ["good.aasa.test"], half)
        #expect(
            mixed.summary.auditorProblems?.first?.contains("6 of 7 domains failed to resolve") == true
                && mixed.summary.verdicts.pass == 1, "\(mixed.summary.auditorProblems ?? [])")
    }

    /// `--alert-after 2`: a failure is sent on its second night, once; one that lasts a night is
    /// neither sent nor its recovery. `--remind-every`: a failure still standing is sent again
    /// when another period of it has passed (issue 35, item 7).
    @Test func alertAfterNRunsAndRemindersWhileItLasts() async throws {
        let world = try TestWorld()
        let receiver = try Receiver(statuses: [200])
        var settings = notifying(
            settings(world, out: world.directory.url.appendingPathComponent("reports")),
            url: "http://127.0.0.1:\(receiver.server.port)/hook", on: .changes)
        let clock = HandClock()
        settings.now = { clock.now() }
        settings.notification?.policy = AlertPolicy(alertAfter: 2)
        var lenient = settings
        lenient.validation.severityPolicy = SeverityPolicy([.aasa(.httpContentType): .info])
        _ = try await audit(["good.aasa.test", "textplain.aasa.test"], settings)
        #expect(receiver.posts.isEmpty, "a first night's warning waits for its second")
        // A warning of one night: neither it nor its recovery is heard.
        let blipRecovered = try await audit(["good.aasa.test", "textplain.aasa.test"], lenient)
        #expect(blipRecovered.notification?.state == .notNeeded && receiver.posts.isEmpty)
        let blip = try await audit(["good.aasa.test", "missing.aasa.test"], settings)
        #expect(blip.notification?.state == .notNeeded && receiver.posts.isEmpty)
        let failing = try await audit(["good.aasa.test", "missing.aasa.test"], settings)
        #expect(failing.notification?.state == .sent)
        let second = try receiver.alert(0)
        #expect(second.failures.map(\.domain) == ["missing.aasa.test"] && second.failures[0].since != nil)
        #expect(second.text.hasPrefix("aasa-audit: 1 new failure."), "\(second.text)")
        let third = try await audit(["good.aasa.test", "missing.aasa.test"], settings)
        #expect(third.notification?.state == .notNeeded && receiver.posts.count == 1, "sent once")

        // Reminders: each time another period (here a second) of the failure has passed.
        settings.notification?.policy = AlertPolicy(alertAfter: 2, remindEvery: 1)
        clock.advance(by: 1.1)
        let reminded = try await audit(["good.aasa.test", "missing.aasa.test"], settings)
        #expect(reminded.notification?.state == .sent && receiver.posts.count == 2)
        let reminder = try receiver.alert(1)
        #expect(reminder.reminders?.map(\.domain) == ["missing.aasa.test"] && reminder.failures.isEmpty)
        #expect(reminder.text.contains("1 still failing") && reminder.text.contains("Still failing: missing.aasa.test"))
        // A warning heard on its second night, then recovered: the recovery is sent.
        settings.notification?.policy = AlertPolicy(alertAfter: 2)
        lenient.notification = settings.notification
        _ = try await audit(["textplain.aasa.test"], settings)
        _ = try await audit(["textplain.aasa.test"], settings)
        #expect(try receiver.alert(receiver.posts.count - 1).warnings.map(\.domain) == ["textplain.aasa.test"])
        let recovered = try await audit(["textplain.aasa.test"], lenient)
        #expect(recovered.notification?.state == .sent)
        #expect(try receiver.alert(receiver.posts.count - 1).recoveries.map(\.domain) == ["textplain.aasa.test"])
    }

    /// What a team heard is what some run sent, under that run's own `--alert-after` (issue 46,
    /// item 5): a failure sent at 1 and recovered the night `--alert-after` was raised to 3 is
    /// recovered aloud (it was once silent); a failure held back at 3 is sent the night the
    /// setting drops to 1 (it was once never sent); Alertmanager keeps firing a failure heard.
    @Test func changingAlertAfterLosesNoRecoveryAndNoFirstAlert() async throws {
        let world = try TestWorld()
        let receiver = try Receiver(statuses: [200])
        var settings = notifying(
            settings(world, out: world.directory.url.appendingPathComponent("reports")),
            url: "http://127.0.0.1:\(receiver.server.port)/hook", on: .changes)
        var lenient = settings
        lenient.validation.severityPolicy = SeverityPolicy([.aasa(.httpContentType): .info])
        _ = try await audit(["good.aasa.test", "textplain.aasa.test"], lenient)
        let sent = try await audit(["good.aasa.test", "textplain.aasa.test"], settings)
        #expect(sent.notification?.state == .sent)
        #expect(try receiver.alert(0).warnings.map(\.domain) == ["textplain.aasa.test"])
        settings.notification?.policy = AlertPolicy(alertAfter: 3)
        lenient.notification = settings.notification
        let recovered = try await audit(["good.aasa.test", "textplain.aasa.test"], lenient)
        #expect(recovered.notification?.state == .sent, "the recovery of a warning that was sent")
        #expect(try receiver.alert(1).recoveries.map(\.domain) == ["textplain.aasa.test"])

        // Held back at 3 for two nights, then the setting drops to 1: sent that night, once.
        _ = try await audit(["good.aasa.test", "textplain.aasa.test"], settings)
        _ = try await audit(["good.aasa.test", "textplain.aasa.test"], settings)
        #expect(receiver.posts.count == 2, "held back: the stretch has not lasted 3 runs")
        settings.notification?.policy = AlertPolicy(alertAfter: 1)
        let lowered = try await audit(["good.aasa.test", "textplain.aasa.test"], settings)
        #expect(lowered.notification?.state == .sent)
        let heard = try receiver.alert(2)
        #expect(heard.warnings.map(\.domain) == ["textplain.aasa.test"] && heard.warnings[0].since != nil)
        let again = try await audit(["good.aasa.test", "textplain.aasa.test"], settings)
        #expect(again.notification?.state == .notNeeded && receiver.posts.count == 3, "sent once")

        // The history line says what each run alerted with.
        let lines = try String(
            contentsOf: world.directory.url.appendingPathComponent("reports/history.json"), encoding: .utf8
        ).split(separator: "\n")
        let kept = try lines.map { try HistoryRun(line: Data($0.utf8)).alertAfter }
        #expect(kept == [1, 1, 3, 3, 3, 1, 1], "\(kept)")
    }

    @Test func aFailedAlertIsCountedExitsFourAndLosesNoReport() async throws {
        let world = try TestWorld()
        let receiver = try Receiver(statuses: [500])
        var settings = notifying(
            settings(world, out: world.directory.url.appendingPathComponent("reports")),
            url: "http://127.0.0.1:\(receiver.server.port)/", on: .always)
        let metrics = world.directory.url.appendingPathComponent("aasa.prom")
        settings.metricsFile = metrics
        let result = try await audit(["good.aasa.test"], settings)
        #expect(result.notification?.state == .failed && result.notification?.attempts.count == 3)
        #expect(ExitPolicy.audit(result, problems: [], failOn: .error, interruptedBy: nil) == .notificationFailed)
        #expect(
            FileManager.default.fileExists(
                atPath: world.directory.url.appendingPathComponent("reports/latest.json").path))
        #expect(
            FileManager.default.fileExists(
                atPath: world.directory.url.appendingPathComponent("reports/index.html").path))
        let text = try String(contentsOf: metrics, encoding: .utf8)
        #expect(
            text.contains("aasa_audit_notification_failed 1\n") && text.contains("aasa_audit_notification_attempts 3\n")
        )

        // A refusal that another attempt cannot change (400) is not retried.
        let refusing = try Receiver(statuses: [400])
        let once = try await audit(
            ["good.aasa.test"], notifying(settings, url: "http://127.0.0.1:\(refusing.server.port)/", on: .always))
        #expect(once.notification?.attempts.map(\.status) == [400] && once.notification?.state == .failed)
        // A failing domain's exit status says more than the alert's.
        let failing = try await audit(["missing.aasa.test"], settings)
        #expect(ExitPolicy.audit(failing, problems: [], failOn: .error, interruptedBy: nil) == .failed)
    }

    @Test func anAlertGoesOverHTTPSToAReceiverTrustedByItsCA() async throws {
        let world = try TestWorld()
        let receiver = try Receiver(identity: try world.pki.issueServerIdentity(for: ["localhost"]), statuses: [200])
        let base = settings(world, out: world.directory.url.appendingPathComponent("reports"))
        let url = "https://localhost:\(receiver.server.port)/hook"
        let trusted = try await audit(
            ["missing.aasa.test"], notifying(base, url: url, on: .failures, caFile: world.caFile))
        #expect(trusted.notification?.state == .sent, "\(trusted.notification?.attempts ?? [])")
        #expect(try receiver.alert(0).failures.map(\.domain) == ["missing.aasa.test"])
        // Without the test CA the receiver's certificate is not trusted: nothing is delivered.
        var untrusted = notifying(base, url: url, on: .always)
        let otherCA = try TrustedTestCA(name: "another CA")
        untrusted.notification?.poster.caFile = otherCA.caFile
        let refused = try await audit(["good.aasa.test"], untrusted)
        #expect(refused.notification?.state == .failed)
        #expect(receiver.posts.count == 1)
        // A certificate error is not retried: another attempt would meet the same certificate.
        #expect(refused.notification?.attempts.count == 1, "\(refused.notification?.attempts ?? [])")
    }

    /// The webhook's URL from a file (as systemd's LoadCredential= hands it over): the alert is
    /// posted there, the URL appears on no command line and in no error; an empty file sends
    /// nothing; both ways at once are refused.
    @Test func theWebhookURLIsReadFromAFileAndNeverShown() async throws {
        let world = try TestWorld()
        let receiver = try Receiver(statuses: [200])
        let dir = world.directory.url
        try "missing.aasa.test\n".write(
            to: dir.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let secret = "http://127.0.0.1:\(receiver.server.port)/hooks/T000/s3cr3t"
        try "# the team's channel\n\(secret)\n".write(
            to: dir.appendingPathComponent("notify-url"), atomically: true, encoding: .utf8)
        let common =
            ["audit", "--connect-to", world.connectTo, "--cacert", world.caFile, "--no-cdn", "--no-ua-check"]
            + LoopbackNetworks.allowArguments
        let sent = try await ProcessRunner.run(
            CommandLineTests.binary, common + ["--notify-url-file", "notify-url"], in: dir)
        #expect(sent.status == 1, "\(sent.stderr)")
        #expect(receiver.posts.count == 1 && receiver.posts[0].path == "/hooks/T000/s3cr3t")
        #expect(try receiver.alert(0).failures.map(\.domain) == ["missing.aasa.test"])
        let report = try String(contentsOf: dir.appendingPathComponent("reports/latest.json"), encoding: .utf8)
        #expect(!report.contains("s3cr3t") && !sent.stdout.contains("s3cr3t") && !sent.stderr.contains("s3cr3t"))

        // Not a URL: refused before the run, without repeating what the file holds.
        try "ftp://example.com/s3cr3t\n".write(
            to: dir.appendingPathComponent("bad-url"), atomically: true, encoding: .utf8)
        let bad = try await ProcessRunner.run(
            CommandLineTests.binary, common + ["--notify-url-file", "bad-url"], in: dir)
        #expect(bad.status == 2 && bad.stderr.contains("--notify-url-file bad-url's URL is not an http or https URL"))
        #expect(!bad.stderr.contains("s3cr3t"), "\(bad.stderr)")
        // An empty file (the package's, before anyone fills it in): no alert, no error.
        try "".write(to: dir.appendingPathComponent("empty"), atomically: true, encoding: .utf8)
        let none = try await ProcessRunner.run(
            CommandLineTests.binary, common + ["--notify-url-file", "empty"], in: dir)
        #expect(none.status == 1 && receiver.posts.count == 1, "\(none.stderr)")
        let both = try await ProcessRunner.run(
            CommandLineTests.binary, common + ["--notify-url-file", "notify-url", "--notify", secret], in: dir)
        #expect(both.status == 2 && both.stderr.contains("give the URL one way"), "\(both.stderr)")
    }

    @Test func aSeverityPolicyChangesVerdictsExitStatusJUnitAndReports() async throws {
        let world = try TestWorld()
        try "stale.aasa.test\ngood.aasa.test\n".write(
            to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let common =
            [
                "audit", "--fail-on", "warning", "--connect-to", world.connectTo, "--cacert", world.caFile, "--timeout",
                "60",
                "--cdn-url", TestWorld.cdnBase, "--no-ua-check",
            ] + LoopbackNetworks.allowArguments
        let strict = try await ProcessRunner.run(CommandLineTests.binary, common, in: world.directory.url)
        #expect(strict.status == 1, "a stale CDN copy warns, and warnings fail here: \(strict.stdout)")
        let relaxed = try await ProcessRunner.run(
            CommandLineTests.binary, common + ["--severity", "cdn.stale=info", "--junit", "junit.xml"],
            in: world.directory.url)
        #expect(relaxed.status == 0, "\(relaxed.stdout)\(relaxed.stderr)")
        let report = try JSONReport.makeDecoder().decode(
            AuditReport.self, from: Data(contentsOf: world.directory.url.appendingPathComponent("reports/latest.json")))
        #expect(report.run.options.severityOverrides == ["cdn.stale": "info"])
        let stale = try #require(report.domains.first { $0.domain == "stale.aasa.test" })
        #expect(stale.verdict == .pass)
        let staleFinding = try #require(stale.findings.first { $0.code == .aasa(.cdnStale) })
        #expect(staleFinding.severity == .info && staleFinding.overriddenFrom == .warning)
        let junit = try String(contentsOf: world.directory.url.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(!junit.contains("<failure"))
        let html = try String(
            contentsOf: world.directory.url.appendingPathComponent("reports/latest.html"), encoding: .utf8)
        #expect(html.contains("was warning"))

        // Raised: a wrong Content-Type fails a deploy check.
        let check = try await ProcessRunner.run(
            CommandLineTests.binary,
            [
                "check", "textplain.aasa.test", "--no-cdn", "--severity", "http.content-type=error", "--connect-to",
                world.connectTo,
                "--cacert", world.caFile, "--timeout", "60",
            ] + LoopbackNetworks.allowArguments,
            in: world.directory.url, environment: ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 })
        #expect(check.status == 1)
        #expect(
            check.stdout.contains("http.content-type (well-known) (warning in the catalog; --severity)"),
            "\(check.stdout)")
        let typo = try await ProcessRunner.run(
            CommandLineTests.binary, ["check", "good.aasa.test", "--severity", "cdn.stael=info"],
            in: world.directory.url)
        #expect(typo.status == 2 && typo.stderr.contains("no finding code is or starts with 'cdn.stael'"))
    }

    @Test func notifyOptionsAreCheckedBeforeAnyFetch() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try "good.aasa.test\n".write(
            to: directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let scheme = try await ProcessRunner.run(
            CommandLineTests.binary, ["audit", "--notify", "ftp://127.0.0.1/hook"], in: directory.url)
        #expect(
            scheme.status == 2 && scheme.stderr.contains("--notify 'ftp://127.0.0.1/hook' is not an http or https URL.")
        )
        let alone = try await ProcessRunner.run(
            CommandLineTests.binary, ["audit", "--notify-cacert", "ca.pem"], in: directory.url)
        #expect(alone.status == 2 && alone.stderr.contains("--notify-cacert needs --notify."))
        let base = try await ProcessRunner.run(
            CommandLineTests.binary, ["audit", "--notify", "http://127.0.0.1/", "--report-url", "reports/"],
            in: directory.url)
        #expect(base.status == 2 && base.stderr.contains("--report-url 'reports/' is not an http or https URL."))
        let trigger = try await ProcessRunner.run(
            CommandLineTests.binary, ["audit", "--notify", "http://127.0.0.1/", "--notify-on", "sometimes"],
            in: directory.url)
        #expect(trigger.status == 2 && trigger.stderr.contains("sometimes"))
        // What libcurl could not use is refused before the run, not after it and three retries.
        let port = try await ProcessRunner.run(
            CommandLineTests.binary, ["audit", "--notify", "http://127.0.0.1:99999/hook"], in: directory.url)
        #expect(port.status == 2 && port.stderr.contains("port number"), "\(port.stderr)")
        let newline = try await ProcessRunner.run(
            CommandLineTests.binary, ["audit", "--notify", "http://127.0.0.1/a\nb"], in: directory.url)
        #expect(
            newline.status == 2 && newline.stderr.contains("'http://127.0.0.1/a\\u{a}b' holds a control character"),
            "\(newline.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("reports").path))
    }
}
