import AASAReport
import Foundation
import TestSupport
import Testing

@testable import AASAModel

/// The history's reading (since when, flapping, stale CDN copies), the alert document, the
/// severity policy and the history page, on values.
@Suite struct RunHistoryTests {
    static let day = 86_400.0

    /// Runs a day apart from 2026-11-01 03:00 UTC; each string gives the domains' verdicts in
    /// order (p, w, f; "u" for not checked: this machine could not make the request; "-" for not
    /// audited), with "s" after a letter for a cdn.stale finding.
    static func history(_ domains: [String], _ runs: [String], flapping: RunHistory.FlappingRule = .standard)
        -> RunHistory
    {
        RunHistory(runs: lines(domains, runs), flapping: flapping)
    }

    static func lines(_ domains: [String], _ runs: [String]) -> [HistoryRun] {
        let start = Date(timeIntervalSince1970: 1_793_502_000)
        return runs.enumerated().map { index, verdicts in
            let started = start.addingTimeInterval(Double(index) * day)
            var entries: [HistoryDomain] = []
            var characters = Array(verdicts)[...]
            for domain in domains {
                guard let letter = characters.popFirst() else { break }
                let stale = characters.first == "s"
                if stale { characters.removeFirst() }
                let verdict: Verdict? =
                    switch letter {
                    case "p": .pass
                    case "w": .warn
                    case "f", "u": .fail
                    default: nil
                    }
                guard let verdict else { continue }
                var codes =
                    letter == "u"
                    ? ["audit.unchecked"]
                    : verdict == .fail ? ["http.status"] : verdict == .warn ? ["http.content-type"] : []
                if stale { codes.append("cdn.stale") }
                entries.append(HistoryDomain(domain: domain, verdict: verdict, codes: codes))
            }
            let name = RunHistoryTests.folderName(started)
            return HistoryRun(
                run: name, startedAt: started, finishedAt: started.addingTimeInterval(60), domains: entries)
        }
    }

    static func folderName(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day().dateTimeSeparator(.standard).time(
                includingFractionalSeconds: false
            )
            .timeSeparator(.omitted)) + "Z"
    }

    @Test func sinceWhenADomainFailsAndWhenItLastPassed() throws {
        let history = Self.history(["a.example", "b.example", "c.example"], ["ppf", "pfp", "ffp", "fff"])
        let standings = Dictionary(uniqueKeysWithValues: history.standings().map { ($0.domain, $0) })
        let a = try #require(standings["a.example"])
        #expect(a.verdict == .fail)
        #expect(a.notPassingSince?.since == history.runs[2].run)
        #expect(a.notPassingSince?.runs == 2 && a.notPassingSince?.reachesOldest == false)
        #expect(a.lastPassed == history.runs[1].startedAt)
        let b = try #require(standings["b.example"])
        #expect(b.notPassingSince?.runs == 3 && b.notPassingSince?.since == history.runs[1].run)
        // c failed in the oldest kept run too, passed, then failed again: since the last run only.
        let c = try #require(standings["c.example"])
        #expect(c.notPassingSince?.runs == 1 && c.lastPassed == history.runs[2].startedAt)
        #expect(c.changes == 2 && !c.flapping)
        // Failing in every kept run: it may have begun before them.
        let always = Self.history(["z.example"], ["f", "f"]).standings()[0]
        #expect(always.notPassingSince?.reachesOldest == true && always.lastPassed == nil)
        // A passing domain has no streak to report.
        #expect(Self.history(["z.example"], ["f", "p"]).standings()[0].notPassingSince == nil)
    }

    @Test func aDomainThisMachineCouldNotCheckIsNeitherAFailureNorAPass() throws {
        // Failing for two runs, not checked, failing again: still failing since the first run,
        // and the night it was not checked is not a change of verdict.
        let failing = Self.history(["a.example"], ["p", "f", "f", "u", "f"]).standings()[0]
        #expect(failing.notPassingSince?.since == Self.history(["a.example"], ["p", "f"]).runs[1].run)
        #expect(failing.notPassingSince?.runs == 4 && failing.changes == 1)
        // Passing, with nights not checked between: never flapping, no streak.
        let passing = Self.history(["b.example"], ["p", "u", "p", "u", "p", "u", "p"]).standings()[0]
        #expect(!passing.flapping && passing.changes == 0)
        // Not checked in the newest run: listed, without a since-when of a failure.
        let newest = Self.history(["c.example"], ["p", "p", "u"]).standings()[0]
        #expect(newest.codes == ["audit.unchecked"] && newest.notPassingSince == nil && newest.changes == 0)
        let never = Self.history(["d.example"], ["u"]).standings()
        #expect(never.map(\.domain) == ["d.example"] && never[0].notPassingSince == nil)
        // And no change against the previous run: neither "new failure" nor "recovered".
        let unchecked = DomainSnapshot(
            domain: "a.example", verdict: .fail,
            findings: [
                Finding(code: .run(.auditUnchecked), severity: .error, location: .wellKnown, message: "out of memory")
            ]
        )
        let passed = DomainSnapshot(domain: "a.example", verdict: .pass, findings: [])
        #expect(unchecked.change(since: passed) == nil && passed.change(since: unchecked) == nil)
        let failed = DomainSnapshot(
            domain: "a.example", verdict: .fail,
            findings: [Finding(code: .aasa(.httpStatus), severity: .error, location: .wellKnown, message: "404")])
        #expect(failed.change(since: passed) != nil)
    }

    @Test func aDomainMissingFromARunBreaksItsStreak() {
        let standing = Self.history(["a.example"], ["f", "-", "f", "f"]).standings()[0]
        #expect(standing.notPassingSince?.runs == 2 && standing.notPassingSince?.reachesOldest == false)
    }

    /// A domain's recent verdicts are kept inline for its last 64 runs: changes are counted in
    /// the window only, however long the history, and a window is at most 64 runs.
    @Test func longHistoriesCountChangesWithinTheirWindowOnly() {
        let runs = (0..<80).map { $0 % 2 == 0 ? "p" : "f" }
        #expect(Self.history(["a.example"], runs).standings()[0].changes == 9)
        let wide = RunHistory.FlappingRule(changes: 3, window: 200)
        #expect(wide.window == 64)
        #expect(Self.history(["a.example"], runs, flapping: wide).standings()[0].changes == 63)
        // Audited again after 70 runs without it: its old verdicts are out of any window.
        let gap = ["f"] + Array(repeating: "-", count: 70) + ["p", "f"]
        #expect(Self.history(["a.example"], gap, flapping: wide).standings()[0].changes == 1)
        let near = ["w"] + Array(repeating: "-", count: 5) + ["p", "f"]
        #expect(Self.history(["a.example"], near).standings()[0].changes == 2)
    }

    @Test func flappingIsThreeVerdictChangesWithinTheLastTenRuns() {
        // p f p f: three changes within ten runs.
        #expect(Self.history(["a.example"], ["p", "f", "p", "f"]).standings()[0].flapping)
        #expect(!Self.history(["a.example"], ["p", "f", "p"]).standings()[0].flapping)
        // The same three changes, but the newest ten runs hold only one of them.
        let old = ["p", "f", "p", "f"] + Array(repeating: "f", count: 9)
        let standing = Self.history(["a.example"], old).standings()[0]
        #expect(standing.changes == 0 && !standing.flapping)
        // Another rule: 2 changes in 3 runs.
        #expect(
            Self.history(["a.example"], ["p", "f", "p"], flapping: .init(changes: 2, window: 3)).standings()[0].flapping
        )
    }

    @Test func howLongApplesCDNCopyHasBeenStale() throws {
        let history = Self.history(["a.example", "b.example"], ["pp", "wsp", "wsws", "wsws"])
        let standings = history.standings()
        let a = try #require(standings[0].cdnStaleSince)
        #expect(a.since == history.runs[1].run && a.runs == 3)
        #expect(HistoryIndexPage.lasted(a, until: history.runs[3].startedAt) == "2 d (3 runs)")
        #expect(standings[1].cdnStaleSince?.runs == 2)
        #expect(Self.history(["a.example"], ["p", "p"]).standings()[0].cdnStaleSince == nil)
    }

    @Test(.live, .tags(.live)) func aHistoryLineIsCompactAndValidAgainstItsSchema() async throws {
        let plain = Self.lines(["a.example", "b.example", "c.example"], ["fpp"])[0]
        var domains = plain.domains
        (domains[0].certificateExpires, domains[2].certificateExpires) = ("2026-12-04", "2026-12-04")
        (domains[1].platforms, domains[2].platforms) = ("android", "ios+android")
        var run = HistoryRun(run: plain.run, startedAt: plain.startedAt, finishedAt: plain.finishedAt, domains: domains)
        run.alertAfter = 2
        let line = try JSONReport.makeEncoder().encode(run)
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.contains(#"["a.example","fail","http.status"]"#))
        #expect(text.contains(#"["b.example","pass"]"#))
        // Certificates by day, as positions in the list: a few bytes a domain.
        #expect(text.contains(#""certificateExpiry":{"2026-12-04":[0,2]}"#), "\(text)")
        #expect(try HistoryRun(line: line).domains.map(\.certificateExpires) == ["2026-12-04", nil, "2026-12-04"])
        // Platforms likewise, iOS alone (the default) not written; and the run's --alert-after.
        #expect(text.contains(#""platforms":{"android":[1],"ios+android":[2]}"#), "\(text)")
        #expect(try HistoryRun(line: line).domains.map(\.platforms) == [nil, "android", "ios+android"])
        #expect(text.contains(#""alertAfter":2"#))
        #expect(!text.contains("\n"))
        #expect(try JSONReport.makeDecoder().decode(HistoryRun.self, from: line) == run)
        // The reader the store uses gives the same run.
        #expect(try HistoryRun(line: line) == run)
        #expect(throws: HistoryLineError.self) {
            try HistoryRun(
                line: Data(text.replacingOccurrences(of: #""a.example","fail""#, with: #""a.example",7"#).utf8))
        }
        if ReportSchemaValidator.isAvailable {
            let errors = try await ReportSchemaValidator.errors(
                in: line, schema: Repository.file("docs/history.schema.json"))
            #expect(errors.isEmpty, "\(errors)")
            // The schema is not a rubber stamp.
            let wrong = try await ReportSchemaValidator.errors(
                in: Data(text.replacingOccurrences(of: #""fail""#, with: #""broken""#).utf8),
                schema: Repository.file("docs/history.schema.json"))
            #expect(!wrong.isEmpty)
            let notADay = try await ReportSchemaValidator.errors(
                in: Data(text.replacingOccurrences(of: "2026-12-04", with: "soon").utf8),
                schema: Repository.file("docs/history.schema.json"))
            #expect(!notADay.isEmpty)
            let notAPlatform = try await ReportSchemaValidator.errors(
                in: Data(text.replacingOccurrences(of: #""ios+android""#, with: #""windows""#).utf8),
                schema: Repository.file("docs/history.schema.json"))
            #expect(!notAPlatform.isEmpty)
        }
    }

    /// A line is read without a tree of its domains; what it reads is what JSONDecoder reads,
    /// escapes and white space included, and a damaged line is still refused.
    @Test func aLineReadsAsJSONDecoderReadsIt() throws {
        let head = #"{"domains":"#
        let tail =
            #","finishedAt":"2026-11-01T03:01:00Z","run":"2026-11-01T030000Z","schemaVersion":1,"startedAt":"2026-11-01T03:00:00Z","verdicts":{"fail":1,"pass":1,"warn":1}}"#
        let lists = [
            #"[["a.example","pass"],["b.example","fail","http.status","cdn.stale"],["c.example","warn","x\"y\\z\u00e9\ud83d\ude00\n"]]"#,
            #"[ [ "a.example" , "pass" ] , [ "b.example","fail" ,"http.status"],["c.example", "warn"] ]"#,
            "[]",
        ]
        for list in lists {
            let line = Data((head + list + tail).utf8)
            let expected = try JSONReport.makeDecoder().decode(HistoryRun.self, from: line)
            let read = try HistoryRun(line: line)
            #expect(read.domains == expected.domains && read.run == expected.run, "\(list)")
            #expect(read.startedAt == expected.startedAt && read.finishedAt == expected.finishedAt)
        }
        #expect(try HistoryRun(line: Data((head + lists[0] + tail).utf8)).domains[2].codes == ["x\"y\\zé😀\n"])
        for damaged in [
            #"[["a.example","pass"],["b.example","maybe"]]"#, #"[["a.example","pass"],["b.example"]]"#,
            #"[["a.example","pass"]"#, #"[["a.example",1]]"#,
        ] {
            #expect(throws: (any Error).self, "\(damaged)") { try HistoryRun(line: Data((head + damaged + tail).utf8)) }
        }
    }

    @Test func codesAreKeptMostSevereFirstWithoutNotes() {
        let findings = [
            Finding(code: .aasa(.fileSigned), severity: .info, location: .wellKnown, message: "signed"),
            Finding(code: .aasa(.httpContentType), severity: .warning, location: .wellKnown, message: "text/plain"),
            Finding(code: .aasa(.httpStatus), severity: .error, location: .root, message: "404"),
            Finding(code: .aasa(.httpContentType), severity: .warning, location: .root, message: "text/plain"),
        ]
        let domain = HistoryDomain(DomainSnapshot(domain: "a.example", verdict: .fail, findings: findings))
        // The note (file.signed, info) needs no fixing: it is not among the history's codes.
        #expect(domain.codes == ["http.status", "http.content-type"])
    }
}

@Suite struct RunAlertTests {
    let run = RunAlert.Run(
        startedAt: Date(timeIntervalSince1970: 1_793_502_000), folder: "/r/2026-11-01T030000Z",
        report: "/r/2026-11-01T030000Z/report.html", previousRunStartedAt: nil)

    func flagged(_ domain: String, _ verdict: Verdict, _ codes: [FindingCode]) -> FlaggedDomain {
        let severity: Severity = verdict == .fail ? .error : .warning
        return FlaggedDomain(
            DomainReport(
                domain: domain, inputLine: nil, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
                findings: codes.map { Finding(code: $0, severity: severity, location: .wellKnown, message: "x") }))!
    }

    func finding(_ code: FindingCode, _ severity: Severity) -> Finding {
        Finding(code: code, severity: severity, location: .wellKnown, message: "x")
    }

    /// The alert a team reads (issue 47, item 6): it names its fleet (the `--out` folder), links
    /// each domain's row in the served report rather than the whole report, and lists the
    /// acknowledged domains its counts include, with until when, by whom and why.
    @Test func theAlertNamesItsFleetLinksRowsAndListsAcknowledgedDomains() {
        var served = run
        served.reportURL = "https://audit.example/2026-11-01T030000Z/report.html"
        served.output = "/var/lib/aasa-audit"
        var acknowledgedReport = DomainReport(
            domain: "known.example", inputLine: nil, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
            findings: [finding(.aasa(.httpStatus), .error)])
        let until = Date(timeIntervalSince1970: 1_794_000_000)
        acknowledgedReport.findings[0].acknowledged = AcknowledgementMark(
            Acknowledgement(
                domain: "known.example", codes: nil, until: until, reason: "vendor fix due", by: "ana", at: until))
        let known = try! #require(FlaggedDomain(acknowledgedReport))
        var verdicts = VerdictCounts()
        (verdicts[.pass], verdicts[.fail]) = (1, 2)
        let alert = RunAlert(
            run: served, verdicts: verdicts, changes: nil,
            flagged: [flagged("new.example", .fail, [.aasa(.httpStatus)]), known])
        #expect(alert.failures.map(\.domain) == ["new.example"])
        #expect(alert.failures[0].report == "https://audit.example/2026-11-01T030000Z/report.html#new.example")
        #expect(alert.acknowledged?.map(\.domain) == ["known.example"] && alert.counts.acknowledged == 1)
        #expect(alert.acknowledged?[0].acknowledgement?.hasSuffix("by ana: vendor fix due") == true)
        let lines = alert.text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "aasa-audit: 1 new failure. 3 domains: 1 pass, 0 warn, 2 fail (1 acknowledged).")
        #expect(lines[1] == "Fleet: /var/lib/aasa-audit")
        #expect(lines.contains("Failing: new.example (http.status) \(served.reportURL!)#new.example"), "\(alert.text)")
        #expect(lines.contains { $0.hasPrefix("Acknowledged, not alerted: known.example (http.status, until ") })
        // Unserved and unacknowledged: neither a link nor the list.
        let plain = RunAlert(
            run: run, verdicts: VerdictCounts(), changes: nil,
            flagged: [flagged("new.example", .fail, [.aasa(.httpStatus)])])
        #expect(plain.failures[0].report == nil && plain.acknowledged == nil && !plain.text.contains("Fleet:"))
    }

    @Test func theFirstRunAlertsOnEveryFailingAndWarningDomain() {
        let alert = RunAlert(
            run: run, verdicts: VerdictCounts(), changes: nil,
            flagged: [
                flagged("a.example", .fail, [.aasa(.httpStatus)]),
                flagged("b.example", .warn, [.aasa(.httpContentType)]),
            ])
        #expect(alert.failures.map(\.domain) == ["a.example"] && alert.failures[0].codes == ["http.status"])
        #expect(alert.warnings.map(\.domain) == ["b.example"])
        #expect(alert.isSent(on: .failures) && alert.isSent(on: .changes))
    }

    @Test func newFailuresNewErrorsNewWarningsAndRecoveries() {
        let changes = RunChanges(
            previousRunStartedAt: run.startedAt,
            domains: [
                // Started failing.
                DomainChange(
                    domain: "a.example", verdict: VerdictChange(from: .pass, to: .fail),
                    newFindings: [finding(.aasa(.httpRedirect), .error)], resolvedFindings: []),
                // Failing before, a new error now.
                DomainChange(
                    domain: "b.example", verdict: nil, newFindings: [finding(.aasa(.appIDMissing), .error)],
                    resolvedFindings: []),
                // Failing before, an error went away, still failing: not news.
                DomainChange(
                    domain: "c.example", verdict: nil, newFindings: [],
                    resolvedFindings: [finding(.aasa(.httpStatus), .error)]
                ),
                // Recovered.
                DomainChange(
                    domain: "d.example", verdict: VerdictChange(from: .fail, to: .pass), newFindings: [],
                    resolvedFindings: [finding(.aasa(.httpStatus), .error)]),
                // Started warning.
                DomainChange(
                    domain: "e.example", verdict: VerdictChange(from: .pass, to: .warn),
                    newFindings: [finding(.aasa(.cdnStale), .warning)], resolvedFindings: []),
            ], addedDomains: ["f.example", "g.example"], removedDomains: [])
        let flaggedDomains = [
            flagged("a.example", .fail, [.aasa(.httpRedirect)]),
            flagged("b.example", .fail, [.aasa(.httpStatus), .aasa(.appIDMissing)]),
            flagged("c.example", .fail, [.transfer(.netTimeout)]), flagged("e.example", .warn, [.aasa(.cdnStale)]),
            flagged("f.example", .fail, [.transfer(.netDNS)]),
        ]
        let alert = RunAlert(run: run, verdicts: VerdictCounts(), changes: changes, flagged: flaggedDomains)
        #expect(alert.failures.map(\.domain) == ["f.example", "a.example", "b.example"])
        #expect(alert.failures.first { $0.domain == "b.example" }?.codes == ["appid.missing"])
        #expect(alert.failures.first { $0.domain == "a.example" }?.previousVerdict == .pass)
        #expect(alert.recoveries.map(\.domain) == ["d.example"] && alert.recoveries[0].verdict == .pass)
        #expect(alert.warnings.map(\.domain) == ["e.example"])
        #expect(alert.text.hasPrefix("aasa-audit: 3 new failures, 1 new warning, 1 recovered."))
        #expect(
            alert.text.contains("Failing: f.example (net.dns); a.example (http.redirect); b.example (appid.missing)"))
        #expect(alert.text.contains("Recovered: d.example"))
        #expect(alert.text.hasSuffix("Report: /r/2026-11-01T030000Z/report.html"))
    }

    @Test func whatEachTriggerSendsOn() {
        let recovered = RunChanges(
            previousRunStartedAt: run.startedAt,
            domains: [
                DomainChange(
                    domain: "d.example", verdict: VerdictChange(from: .fail, to: .pass), newFindings: [],
                    resolvedFindings: [])
            ], addedDomains: [], removedDomains: [])
        let alert = RunAlert(run: run, verdicts: VerdictCounts(), changes: recovered, flagged: [])
        // A failure's recovery is sent by the default trigger too (issue 46, item 5: a team told
        // of a failure expects to hear it ended); a warning's only by `changes`.
        #expect(alert.isSent(on: .failures) && alert.isSent(on: .changes) && alert.isSent(on: .always))
        var fromWarning = recovered
        fromWarning.domains[0].verdict = VerdictChange(from: .warn, to: .pass)
        let warningRecovered = RunAlert(run: run, verdicts: VerdictCounts(), changes: fromWarning, flagged: [])
        #expect(!warningRecovered.isSent(on: .failures) && warningRecovered.isSent(on: .changes))
        let quiet = RunAlert(
            run: run, verdicts: VerdictCounts(),
            changes: RunChanges(previousRunStartedAt: run.startedAt, domains: [], addedDomains: [], removedDomains: []),
            flagged: [])
        #expect(!quiet.isSent(on: .changes) && quiet.isSent(on: .always))
        #expect(quiet.text.hasPrefix("aasa-audit: no changes."))
    }

    /// Every entry is labelled from what the run says of its domain (issue 50, item 5: the labels
    /// were looked up in the input list): a failing domain's from its record, a recovered one's,
    /// which is not flagged, from its change, which the comparison of the records makes.
    @Test func entriesAreLabelledFromTheRunsRecords() throws {
        var failing = DomainReport(
            domain: "f.example", inputLine: nil, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
            findings: [finding(.aasa(.httpStatus), .error)])
        failing.labels = ["team": "payments"]
        var healed = DomainReport(
            domain: "d.example", inputLine: nil, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(), findings: [])
        healed.labels = ["team": "growth", "tier": "1"]
        let before = DomainSnapshot(
            domain: "d.example", verdict: .fail, findings: [finding(.aasa(.httpStatus), .error)])
        let change = try #require(DomainSnapshot(healed).change(since: before))
        #expect(change.labels == ["team": "growth", "tier": "1"])
        let changes = RunChanges(
            previousRunStartedAt: run.startedAt, domains: [change], addedDomains: ["f.example"], removedDomains: [])
        let alert = RunAlert(
            run: run, verdicts: VerdictCounts(), changes: changes, flagged: [try #require(FlaggedDomain(failing))])
        #expect(alert.failures.map(\.domain) == ["f.example"] && alert.failures[0].labels == ["team": "payments"])
        #expect(alert.recoveries.map(\.domain) == ["d.example"])
        #expect(alert.recoveries[0].labels == ["team": "growth", "tier": "1"])
        let firing = AlertmanagerAlerts.firing(
            [try #require(FlaggedDomain(failing))], output: "/o", report: "r", startsAt: run.startedAt,
            endsAt: run.startedAt)
        #expect(firing.map { $0.labels["team"] } == ["payments"])
    }

    /// `--remind-every` counts from when the failure was sent (its `--alert-after`-th run), and
    /// never reminds of one not yet sent (issue 46, item 5: "still failing" came before "failing").
    @Test func remindersCountFromTheFirstSendAndNeverComeBeforeIt() throws {
        let day = RunHistoryTests.day
        // Failing for 3 nights (runs a day apart); heard on its 4th with --alert-after 4.
        func reminders(_ verdicts: [String], alertAfter: Int, every days: Double) throws -> [String] {
            let lines = RunHistoryTests.lines(["a.example"], verdicts).map { (line: HistoryRun) in
                var run = line
                run.alertAfter = alertAfter
                return run
            }
            let history = RunHistory(runs: lines)
            let standings = Dictionary(uniqueKeysWithValues: history.standings().map { ($0.domain, $0) })
            let start = Date(timeIntervalSince1970: 1_793_502_000)
            let now = start.addingTimeInterval(Double(verdicts.count - 1) * day)
            let alert = RunAlert(
                run: run, verdicts: VerdictCounts(),
                changes: RunChanges(previousRunStartedAt: now - day, domains: [], addedDomains: [], removedDomains: []),
                flagged: [flagged("a.example", .fail, [.aasa(.httpStatus)])],
                policy: RunAlert.PolicyInput(
                    policy: AlertPolicy(alertAfter: alertAfter, remindEvery: days * day), standings: standings,
                    now: now, previousRun: now - day))
            return (alert.reminders ?? []).map(\.domain)
        }
        // Three failing nights, --alert-after 4: not sent yet, so no reminder, though 2 days passed.
        #expect(try reminders(["p", "f", "f", "f"], alertAfter: 4, every: 2) == [])
        // Sent on the 4th night; the 5th is a day after: no reminder of a 2-day period yet.
        #expect(try reminders(["p", "f", "f", "f", "f", "f"], alertAfter: 4, every: 2) == [])
        // Two days after it was sent: reminded.
        #expect(try reminders(["p", "f", "f", "f", "f", "f", "f"], alertAfter: 4, every: 2) == ["a.example"])
        // --alert-after 1: sent on its first night, reminded two days later.
        #expect(try reminders(["p", "f", "f", "f"], alertAfter: 1, every: 2) == ["a.example"])
    }

    /// A stretch is heard under each run's own `--alert-after` (issue 46, item 5): a failure
    /// sent at 1 and recovered the night the setting was raised to 3 had been heard, so its
    /// recovery is sent; one held back at 3 is heard the night the setting drops to 1; runs
    /// that kept no setting are taken to have alerted as the newest.
    @Test func aStretchIsHeardUnderEachRunsOwnSetting() throws {
        func standing(_ verdicts: [String], _ settings: [Int?], unrecorded: Int = 1) throws -> RunHistory.Standing {
            var history = RunHistory()
            history.unrecordedAlertAfter = unrecorded
            for (line, after) in zip(RunHistoryTests.lines(["a.example"], verdicts), settings) {
                var run = line
                run.alertAfter = after
                history.add(run)
            }
            return try #require(history.standings().first)
        }
        // Sent on its one failing night at 1, recovered at 3: heard.
        #expect(try standing(["p", "f", "p"], [1, 1, 3]).previousHeard == true)
        // Failing one night at 3, recovered: never heard.
        #expect(try standing(["p", "f", "p"], [3, 3, 3]).previousHeard == false)
        // Two nights held back at 3, then 1: heard now, and not before (news tonight).
        let lowered = try #require(try standing(["p", "f", "f", "f"], [3, 3, 3, 1]).notPassingSince)
        #expect(lowered.heardAt != nil && !lowered.heardBefore)
        // Heard at 1 on the first night, raised to 3 since: still heard, before tonight.
        let raised = try #require(try standing(["f", "f"], [1, 3]).notPassingSince)
        #expect(raised.heardAt == raised.sinceDate && raised.heardBefore)
        // Runs that kept nothing: the newest's setting (3) is taken, so two nights were not heard.
        #expect(try standing(["f", "f", "p"], [nil, nil, 3], unrecorded: 3).previousHeard == false)
        #expect(try standing(["f", "f", "f", "p"], [nil, nil, nil, 3], unrecorded: 3).previousHeard == true)
        // A warning heard, then a failure: a new stretch, not heard until its own setting says.
        #expect(try standing(["w", "f"], [1, 2]).notPassingSince?.heardAt == nil)
    }

    @Test func aMeltdownIsListedUpToTheLimitAndCountedWhole() {
        let meltdown = (1...500).map { flagged("d\($0).example", .fail, [.transfer(.netConnect)]) }
        let alert = RunAlert(run: run, verdicts: VerdictCounts(), changes: nil, flagged: meltdown)
        #expect(alert.counts.failures == 500 && alert.failures.count == RunAlert.listLimit)
        #expect(alert.text.contains("and 490 more"))
        #expect(alert.text.split(separator: "\n").count == 3)
    }
}

@Suite struct SeverityPolicyTests {
    @Test func entriesNameCodesOrPrefixesAndLaterEntriesWin() throws {
        let policy = try SeverityPolicy(entries: ["cdn=warning", "CDN.STALE=info", "http.content-type = error"])
        #expect(policy.overrides[.aasa(.cdnStale)] == .info)
        #expect(policy.overrides[.aasa(.cdnMissing)] == .warning)
        #expect(policy.overrides[.aasa(.httpContentType)] == .error)
        #expect(policy.entries["cdn.stale"] == "info")
    }

    @Test func badEntriesSayWhatIsWrong() {
        #expect(throws: SeverityPolicyError.malformed("cdn.stale")) { try SeverityPolicy(entries: ["cdn.stale"]) }
        #expect(throws: SeverityPolicyError.unknownSeverity("cdn.stale=fatal", "fatal")) {
            try SeverityPolicy(entries: ["cdn.stale=fatal"])
        }
        #expect(throws: SeverityPolicyError.unknownCode("cdn.stael=info", "cdn.stael")) {
            try SeverityPolicy(entries: ["cdn.stael=info"])
        }
    }

    @Test func appliedFindingsKeepTheCatalogsSeverityAndTheVerdictFollows() throws {
        let policy = try SeverityPolicy(entries: ["cdn.stale=info", "http.content-type=error"])
        let stale = Finding(code: .aasa(.cdnStale), severity: .warning, location: .cdn, message: "differs")
        let applied = policy.apply([stale])
        #expect(applied[0].severity == .info && applied[0].overriddenFrom == .warning)
        #expect(Verdict(findings: applied) == .pass)
        let typed = policy.apply([
            Finding(code: .aasa(.httpContentType), severity: .warning, location: .wellKnown, message: "text/plain")
        ])
        #expect(Verdict(findings: typed) == .fail)
        // Written with the catalog's severity beside its own; read back the same.
        let json = try JSONReport.makeEncoder().encode(applied[0])
        #expect(
            String(decoding: json, as: UTF8.self).contains(#""severity":"info","severityOverriddenFrom":"warning""#))
        #expect(try JSONReport.makeDecoder().decode(Finding.self, from: json) == applied[0])
        // A finding already at the wanted severity is left as it is.
        #expect(try SeverityPolicy(entries: ["cdn.stale=warning"]).apply([stale]) == [stale])
    }
}

@Suite struct HistoryIndexPageTests {
    /// A domain whose failure the team acknowledged is marked so, not shown as a plain failure
    /// (issue 47, item 6); an acknowledgement of another code, or one that ended, marks nothing.
    @Test func anAcknowledgedDomainIsMarkedOnThePage() throws {
        let history = RunHistoryTests.history(["a.example", "b.example"], ["pf", "ff"])
        let now = history.runs[1].startedAt
        func page(_ codes: [String]?, until: Date) -> String {
            let acknowledgement = Acknowledgement(
                domain: "b.example", codes: codes, until: until, reason: "vendor <fix> due", by: "ana", at: now)
            return HistoryIndexPage().render(
                history, tool: ToolInfo(version: "9.9"), acknowledged: Acknowledgements([acknowledgement]), now: now)
        }
        let marked = page(["http.status"], until: now.addingTimeInterval(86_400 * 3))
        let row = try #require(marked.components(separatedBy: "<tr id=\"b.example\"").dropFirst().first)
        #expect(
            row.contains(#"data-acknowledged="1""#) && row.contains(#"<span class="acked" title="Acknowledged until "#))
        #expect(row.contains("by ana: vendor &lt;fix&gt; due"), "escaped: \(row.prefix(600))")
        let other = try #require(marked.components(separatedBy: "<tr id=\"a.example\"").dropFirst().first)
        #expect(!other.prefix { $0 != "\n" }.contains("acknowledged"))
        #expect(!page(["cdn.stale"], until: now.addingTimeInterval(86_400)).contains("data-acknowledged"))
        #expect(!page(nil, until: now).contains("data-acknowledged"), "ended")
    }

    @Test func thePageHasAChartBarPerRunTheDomainsAndNothingExternal() throws {
        let history = RunHistoryTests.history(["a.example", "b.example", "c.example"], ["ppp", "pfp", "pfws", "pfws"])
        let page = HistoryIndexPage().render(history, tool: ToolInfo(version: "9.9"))
        // A bar per run in each of the two panels (not passing; all domains).
        #expect(page.components(separatedBy: "<rect class=\"fail\"").count - 1 == 8)
        #expect(page.components(separatedBy: "<rect class=\"pass\"").count - 1 == 4)
        for run in history.runs { #expect(page.contains("href=\"\(run.run)/report.html\"")) }
        let latest = history.runs[3].run
        #expect(
            page.contains(
                #"<tr id="b.example" data-verdict="fail" data-codes="http.status" data-domain="b.example" data-rank="2" data-since="3""#
            ))
        #expect(page.contains("href=\"\(latest)/report.html#b.example\""))
        #expect(page.contains("2026-11-02 03:00:00 (3 runs)"))
        // c: warning with a stale CDN copy for two runs.
        #expect(
            page.contains(
                #"<tr id="c.example" data-verdict="warn" data-codes="http.content-type cdn.stale" data-domain="c.example" data-rank="1" data-since="2" data-changes="1" data-stale="1">"#
            ))
        #expect(page.contains("1 d (2 runs)"))
        // Self-contained: no script, style or font fetched from anywhere.
        #expect(
            !page.contains("src=") && !page.contains("<link") && !page.contains("@import") && !page.contains("url("))
        // Failures first: the fail filter is chosen.
        #expect(page.contains(#"value="fail" checked"#))
    }

    /// `--keep` may be large or absent: the chart and the table of runs hold the newest runs,
    /// the older ones are counted, and the page's size does not grow with them.
    @Test func thePageStaysTheSameSizeWhateverTheNumberOfRuns() {
        func page(runs: Int) -> String {
            let lines = RunHistoryTests.lines(["a.example", "b.example"], Array(repeating: "pf", count: runs))
            return HistoryIndexPage().render(RunHistory(runs: lines), tool: ToolInfo(version: "9.9"))
        }
        func bars(_ page: String) -> Int { page.components(separatedBy: "<rect class=\"fail\"").count - 1 }
        let small = page(runs: 3)
        #expect(bars(small) == 6 && small.contains("Every kept run (3)") && !small.contains("older runs"))
        let (many, more) = (page(runs: 2_000), page(runs: 6_000))
        #expect(bars(many) == 2 * HistoryIndexPage.chartedRuns && bars(more) == 2 * HistoryIndexPage.chartedRuns)
        #expect(many.contains("The newest \(HistoryIndexPage.listedRuns) of 2000 kept runs"))
        #expect(more.contains("\(6_000 - HistoryIndexPage.listedRuns) older runs are not listed here"))
        #expect(more.contains(", the newest \(HistoryIndexPage.chartedRuns) of 6000"))
        #expect(many.components(separatedBy: "<td><a href=").count - 1 == HistoryIndexPage.listedRuns)
        // The same up to the digits of dates and counts.
        #expect(abs(more.utf8.count - many.utf8.count) < 100, "\(many.utf8.count) → \(more.utf8.count) bytes")
        // The newest run is drawn and listed; the oldest is neither.
        let lines = RunHistoryTests.lines(["a.example"], Array(repeating: "p", count: 6_000))
        #expect(
            more.contains("href=\"\(lines[5_999].run)/report.html\"") && !more.contains(lines[0].run + "/report.html"))
    }

    /// Nor with the number of domains: beyond `maximumRows`, the domains worth a look.
    @Test func aHugeFleetListsTheDomainsWorthALook() {
        func page(domains: Int, failing: Set<Int>) -> String {
            let started = Date(timeIntervalSince1970: 1_793_502_000)
            let entries = (0..<domains).map { index in
                HistoryDomain(
                    domain: "d\(index).example", verdict: failing.contains(index) ? .fail : .pass,
                    codes: failing.contains(index) ? ["http.status"] : [])
            }
            let run = HistoryRun(
                run: "2026-11-01T030000Z", startedAt: started, finishedAt: started.addingTimeInterval(60),
                domains: entries)
            return HistoryIndexPage().render(RunHistory(runs: [run]), tool: ToolInfo(version: "9.9"))
        }
        func rows(_ page: String) -> Int { page.components(separatedBy: "<tr id=").count - 1 }
        let limit = HistoryIndexPage.maximumRows
        let all = page(domains: limit, failing: [3])
        #expect(rows(all) == limit && !all.contains("domains are listed"))
        let huge = page(domains: limit + 500, failing: [7, limit + 200])
        #expect(rows(huge) == 2 && huge.contains(#"<tr id="d\#(limit + 200).example" data-verdict="fail" "#))
        #expect(huge.contains("2 of the newest run's \(limit + 500) domains are listed"))
    }

    @Test func namesAndCodesAreEscaped() {
        let run = HistoryRun(
            run: "2026-11-01T030000Z", startedAt: Date(timeIntervalSince1970: 1_793_502_000),
            finishedAt: Date(timeIntervalSince1970: 1_793_502_060),
            domains: [
                HistoryDomain(
                    domain: "x\"><script>alert(1)</script>", verdict: .fail, codes: ["<img src=x onerror=alert(2)>"])
            ])
        let page = HistoryIndexPage().render(RunHistory(runs: [run]), tool: ToolInfo(version: "9.9"))
        #expect(!page.contains("<script>alert(1)") && !page.contains("<img src=x"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    }
}
