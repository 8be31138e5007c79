import AASAAudit
import AASAReport
import AuditTestSupport
import Foundation
import TestSupport
import Testing

@testable import AASAModel

/// Acknowledgements as a team uses them, night after night on loopback with a webhook receiver:
/// `ack` with a reason and a date, the failure shown but quiet, a new code heard, the failure
/// heard again when the acknowledgement ends (issue 35, item 5).
@Suite(.live, .tags(.live)) struct AcknowledgementTests {
    func run(_ arguments: [String], in directory: URL) async throws -> ProcessRunner.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["USER"] = "ana"
        return try await ProcessRunner.run(CommandLineTests.binary, arguments, in: directory, environment: environment)
    }

    static func day(_ days: Int) -> String {
        UTCCalendar.date(Int(Date().timeIntervalSince1970) + days * 86_400)
    }

    @Test func anAcknowledgedFailureIsShownQuietUntilItEnds() async throws {
        let world = try TestWorld()
        let receiver = try HistoryAndAlertTests.Receiver(statuses: [200])
        let dir = world.directory.url
        try "good.aasa.test\nmissing.aasa.test\n".write(
            to: dir.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let audit =
            [
                "audit", "--quiet", "--connect-to", world.connectTo, "--cacert", world.caFile, "--no-cdn",
                "--no-ua-check", "--notify", "http://127.0.0.1:\(receiver.server.port)/hook", "--junit", "junit.xml",
            ] + LoopbackNetworks.allowArguments

        let first = try await run(audit, in: dir)
        #expect(first.status == 1 && receiver.posts.count == 1)

        // Acknowledged only for another code: the 404 is still heard.
        let other = try await run(
            ["ack", "missing.aasa.test", "--code", "http.content-type", "--until", Self.day(10), "--reason", "x"],
            in: dir)
        #expect(other.status == 0, "\(other.stderr)")
        let stillHeard = try await run(audit, in: dir)
        #expect(stillHeard.status == 1 && stillHeard.stdout.contains("FAIL missing.aasa.test"), "\(stillHeard.stdout)")

        // Acknowledged for what fails it: quiet, exit 0, no alert; shown with who, why and until.
        let ack = try await run(
            [
                "ack", "https://MISSING.aasa.test/path", "--code", "http.status", "--until", Self.day(10), "--reason",
                "the CDN vendor fixes it in December",
            ], in: dir)
        #expect(ack.status == 0 && ack.stdout.contains("Acknowledged missing.aasa.test (http.status) until"))
        let quiet = try await run(audit, in: dir)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet.stdout)\(quiet.stderr)")
        #expect(receiver.posts.count == 1, "no alert for an acknowledged failure")
        let report = try JSONReport.makeDecoder().decode(
            AuditReport.self, from: Data(contentsOf: dir.appendingPathComponent("reports/latest.json")))
        let finding = try #require(report.domains[1].findings.first { $0.code == .aasa(.httpStatus) })
        #expect(
            finding.acknowledged?.reason == "the CDN vendor fixes it in December" && finding.acknowledged?.by == "ana")
        #expect(report.domains[1].verdict == .fail, "the report still says what the site does")
        let html = try String(contentsOf: dir.appendingPathComponent("reports/latest.html"), encoding: .utf8)
        #expect(
            html.contains("<b>Acknowledged</b> until \(Self.day(10)) by ana: the CDN vendor fixes it in December"),
            "\(html.components(separatedBy: "class=\"ack\"").dropFirst().first?.prefix(200) ?? "")")
        let list = try await run(["ack", "--list"], in: dir)
        #expect(
            list.stdout.contains("missing.aasa.test  http.status  until \(Self.day(10))  by ana on"), "\(list.stdout)")
        let check = try await run(
            ["check", "missing.aasa.test", "--connect-to", world.connectTo, "--cacert", world.caFile, "--no-cdn"]
                + LoopbackNetworks.allowArguments, in: dir)
        #expect(check.status == 1, "check is about the site, not the team's acknowledgements")

        // The acknowledgement ends (here: its date moved to the start of this second, which the
        // next run starts after): the failure is heard again. Whether it ended is read from the
        // two runs' records (acknowledged then, open now), so no clock needs to move.
        try AcknowledgementStore.update(output: dir.appendingPathComponent("reports").path) { store in
            var ended = try #require(store.active(for: "missing.aasa.test", at: .now))
            ended.until = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            try store.add(ended)
        }
        let expired = try await run(audit, in: dir)
        #expect(expired.status == 1, "\(expired.stdout)\(expired.stderr)")
        try #require(receiver.posts.count == 2)
        let alert = try receiver.alert(1)
        #expect(
            alert.failures.map(\.domain) == ["missing.aasa.test"] && alert.failures[0].acknowledgementExpired == true
                && alert.failures[0].acknowledgementEnded == .expired)
        #expect(alert.text.contains("missing.aasa.test (http.status, acknowledgement expired)"), "\(alert.text)")
        let nextNight = try await run(audit, in: dir)
        #expect(nextNight.status == 1 && receiver.posts.count == 2, "heard once, as any new failure")

        // Removed, and refused input: each names what is wrong.
        #expect(try await run(["ack", "--remove", "missing.aasa.test"], in: dir).status == 0)
        #expect(try await run(["ack", "--list"], in: dir).stdout == "No acknowledgements in reports.\n")
        let far = try await run(["ack", "a.example", "--until", Self.day(120), "--reason", "x"], in: dir)
        #expect(far.status == 2 && far.stderr.contains("more than 90 days ahead"), "\(far.stderr)")
        let past = try await run(["ack", "a.example", "--until", Self.day(-2), "--reason", "x"], in: dir)
        #expect(past.status == 2 && past.stderr.contains("is already over"))
        let code = try await run(
            ["ack", "a.example", "--code", "nope", "--until", Self.day(2), "--reason", "x"], in: dir)
        #expect(code.status == 2 && code.stderr.contains("'nope' is not a finding code"))
        let reasonless = try await run(["ack", "a.example", "--until", Self.day(2)], in: dir)
        #expect(reasonless.status == 2 && reasonless.stderr.contains("--reason"))
    }

    /// A domain acknowledged before it failed, then its acknowledgement removed: the next night
    /// says so under "Since the last run" (not "No changes", even with --quiet), exits 1 and
    /// alerts, once (issue 46, item 4). An acknowledgement for a domain no run audited, or into
    /// a folder no audit wrote, warns that it silences nothing.
    @Test func aRemovedAcknowledgementIsHeardAgain() async throws {
        let world = try TestWorld()
        let receiver = try HistoryAndAlertTests.Receiver(statuses: [200])
        let dir = world.directory.url
        try "good.aasa.test\nmissing.aasa.test\n".write(
            to: dir.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let audit =
            [
                "audit", "--quiet", "--connect-to", world.connectTo, "--cacert", world.caFile, "--no-cdn",
                "--no-ua-check", "--notify", "http://127.0.0.1:\(receiver.server.port)/hook",
            ] + LoopbackNetworks.allowArguments
        // A folder that does not exist is refused (a mistyped --out), made first it is taken.
        let nowhere = try await run(
            ["ack", "missing.aasa.test", "--until", Self.day(10), "--reason", "known"], in: dir)
        #expect(nowhere.status == 2 && nowhere.stderr.contains("there is no folder reports"), "\(nowhere.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("reports").path))
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("reports"), withIntermediateDirectories: false)
        let early = try await run(
            ["ack", "missing.aasa.test", "--until", Self.day(10), "--reason", "known"], in: dir)
        #expect(early.status == 0 && early.stderr.contains("no audit has written a complete run to reports"))
        let first = try await run(audit, in: dir)
        #expect(first.status == 0 && receiver.posts.isEmpty, "\(first.stdout)")
        let typo = try await run(["ack", "missing.aasa.tst", "--until", Self.day(10), "--reason", "x"], in: dir)
        #expect(typo.status == 0 && typo.stderr.contains("did not audit missing.aasa.tst"), "\(typo.stderr)")
        let known = try await run(["ack", "good.aasa.test", "--until", Self.day(10), "--reason", "x"], in: dir)
        #expect(known.status == 0 && known.stderr.isEmpty, "\(known.stderr)")

        #expect(try await run(["ack", "--remove", "missing.aasa.test"], in: dir).status == 0)
        let heard = try await run(audit, in: dir)
        #expect(heard.status == 1, "\(heard.stdout)\(heard.stderr)")
        #expect(
            heard.stdout.hasPrefix("Since the last run:\nmissing.aasa.test\n  acknowledgement ended"), "\(heard.stdout)"
        )
        #expect(!heard.stdout.contains("No changes"))
        try #require(receiver.posts.count == 1)
        let alert = try receiver.alert(0)
        // Removed before its date: said so, not "expired" (issue 56).
        #expect(
            alert.failures.map(\.domain) == ["missing.aasa.test"] && alert.failures[0].acknowledgementEnded == .removed
                && alert.failures[0].acknowledgementExpired == nil)
        #expect(alert.text.contains("missing.aasa.test (http.status, acknowledgement removed)"), "\(alert.text)")
        let again = try await run(audit, in: dir)
        #expect(again.status == 1 && receiver.posts.count == 1, "heard once")
    }

    /// `ack`s at the same moment each keep theirs (a lock of their own); an `until` edited into
    /// the file beyond the 90-day bound is held to it when read (issue 46, item 9).
    @Test func parallelAcksAreAllKeptAndTheBoundHoldsOnRead() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dir = directory.url
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("reports"), withIntermediateDirectories: false)
        let results = try await withThrowingTaskGroup(of: ProcessRunner.Result.self) { group in
            for index in 1...20 {
                group.addTask {
                    try await run(["ack", "d\(index).example", "--until", Self.day(5), "--reason", "x"], in: dir)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.status == 0 })
        let list = try await run(["ack", "--list"], in: dir)
        #expect(list.stdout.split(separator: "\n").count == 20, "\(list.stdout)")

        let now = Date()
        try AcknowledgementStore.update(output: dir.appendingPathComponent("reports").path) { store in
            var edited = try #require(store.active(for: "d1.example", at: now))
            edited.until = now.addingTimeInterval(400 * 86_400)
            try store.add(edited)
        }
        let read = try AcknowledgementStore.read(output: dir.appendingPathComponent("reports").path, now: now)
        let bounded = try #require(read.active(for: "d1.example", at: now))
        #expect(bounded.until <= now.addingTimeInterval(Double(Acknowledgements.maximumDays + 1) * 86_400))
        #expect(read.active(for: "d1.example", at: now.addingTimeInterval(120 * 86_400)) == nil)
    }

    /// A damaged acknowledgements file silences nothing: every failure is heard, and the input
    /// problem names the file.
    @Test func aDamagedFileSilencesNothing() async throws {
        let world = try TestWorld()
        let dir = world.directory.url
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("reports"), withIntermediateDirectories: true)
        try "{not json".write(
            to: dir.appendingPathComponent("reports/acknowledgements.json"), atomically: true, encoding: .utf8)
        try "missing.aasa.test\n".write(
            to: dir.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let result = try await run(
            ["audit", "--connect-to", world.connectTo, "--cacert", world.caFile, "--no-cdn"]
                + LoopbackNetworks.allowArguments, in: dir)
        #expect(result.status == 1 && result.stdout.contains("FAIL missing.aasa.test"))
        #expect(result.stdout.contains("acknowledgements.json is not an acknowledgements file"), "\(result.stdout)")
        // The report's input problem has its code, at its catalogued severity, on line 1.
        let report = try JSONReport.makeDecoder().decode(
            AuditReport.self, from: Data(contentsOf: dir.appendingPathComponent("reports/latest.json")))
        let problem = try #require(report.input.problems.first { $0.code == .acknowledgementsUnreadable })
        #expect(problem.severity == InputProblemCode.acknowledgementsUnreadable.severity && problem.line == 1)
    }
}

@Suite struct AcknowledgementModelTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

    @Test func theLastDayIsInclusiveAndBounded() throws {
        let end = try Acknowledgements.end(ofDay: "2026-11-30", now: now)
        #expect(UTCCalendar.date(Int(end.timeIntervalSince1970)) == "2026-12-01")
        #expect(throws: AcknowledgementError.date("2026-02-30")) {
            try Acknowledgements.end(ofDay: "2026-02-30", now: now)
        }
        #expect(throws: AcknowledgementError.date("tomorrow")) { try Acknowledgements.end(ofDay: "tomorrow", now: now) }
        #expect(throws: AcknowledgementError.past("2026-11-17")) {
            try Acknowledgements.end(ofDay: "2026-11-17", now: now)
        }
        #expect(throws: AcknowledgementError.tooFar("2027-02-17")) {
            try Acknowledgements.end(ofDay: "2027-02-17", now: now)
        }
        #expect(throws: Never.self) { try Acknowledgements.end(ofDay: "2027-02-15", now: now) }
    }

    @Test func aCodeCoversWhatFollowsFromItAndNothingElse() throws {
        let status = Finding(code: .aasa(.httpStatus), severity: .error, location: .wellKnown, message: "404")
        var none = Finding(code: .aasa(.locationNone), severity: .error, location: .domain, message: "none")
        none.causedBy = FindingCause(status)
        let type = Finding(code: .aasa(.httpContentType), severity: .warning, location: .root, message: "text/plain")
        let note = Finding(code: .aasa(.locationRootAbsent), severity: .info, location: .root, message: "404")
        var store = Acknowledgements()
        try store.add(
            Acknowledgement(
                domain: "a.example", codes: ["http.status"], until: now.addingTimeInterval(86_400), reason: "r",
                by: "ana", at: now))
        let marked = store.mark([status, none, type, note], domain: "a.example", at: now)
        #expect(marked.map { $0.acknowledged != nil } == [true, true, false, false])
        #expect(store.mark([status], domain: "b.example", at: now)[0].acknowledged == nil)
        #expect(store.mark([status], domain: "a.example", at: now.addingTimeInterval(86_400))[0].acknowledged == nil)
        let report = DomainReport(
            domain: "a.example", inputLine: 1, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
            findings: marked)
        let flagged = try #require(FlaggedDomain(report))
        #expect(
            flagged.verdict == .fail && flagged.openVerdict == .warn && flagged.openCodes == [.aasa(.httpContentType)])
    }
}
