import Foundation
import Testing

@testable import AASAModel

/// The model's run policy read directly, without a run: `--severity`, acknowledgements' days,
/// `label:` tokens, run folder names and the domain's compact storage.
@Suite struct RunPolicyTests {
    /// `CODE=LEVEL`: a prefix names every code it starts, a later entry wins, and each bad
    /// entry is refused naming itself.
    @Test func severityEntriesReadCodesAndPrefixesAndRefuseWhatTheyCannot() throws {
        let policy = try SeverityPolicy(entries: ["cdn=warning", " cdn.stale = info ", "http.redirect=WARNING"])
        #expect(policy.overrides[.aasa(.cdnStale)] == .info)
        #expect(policy.overrides[.aasa(.cdnMissing)] == .warning)
        #expect(policy.overrides[.aasa(.httpRedirect)] == .warning)
        #expect(policy.entries["http.redirect"] == "warning")
        #expect(throws: SeverityPolicyError.malformed("cdn.stale")) { try SeverityPolicy(entries: ["cdn.stale"]) }
        #expect(throws: SeverityPolicyError.malformed("=error")) { try SeverityPolicy(entries: ["=error"]) }
        #expect(throws: SeverityPolicyError.unknownSeverity("cdn.stale=loud", "loud")) {
            try SeverityPolicy(entries: ["cdn.stale=loud"])
        }
        #expect(throws: SeverityPolicyError.unknownCode("nope.nothing=info", "nope.nothing")) {
            try SeverityPolicy(entries: ["nope.nothing=info"])
        }
        // Each message names the option and the entry.
        #expect(SeverityPolicyError.malformed("x").description.hasPrefix("\(OptionName.severity) 'x'"))
    }

    /// A finding the policy changes keeps the catalog's severity beside its own; one it leaves
    /// alone (or gives the same severity) is unchanged.
    @Test func aChangedFindingKeepsWhatItWas() throws {
        let findings = [
            Finding(code: .aasa(.cdnStale), severity: .warning, location: .cdn, message: "stale"),
            Finding(code: .aasa(.httpRedirect), severity: .error, location: .wellKnown, message: "301"),
        ]
        let applied = try SeverityPolicy(entries: ["cdn.stale=error", "http.redirect=error"]).apply(findings)
        #expect(applied[0].severity == .error && applied[0].overriddenFrom == .warning)
        #expect(applied[1] == findings[1], "http.redirect is an error already")
        #expect(SeverityPolicy().apply(findings) == findings)
    }

    /// An acknowledgement's last day: a real UTC date, not past, at most 90 days ahead; it
    /// ends at the start of the next day.
    @Test func anAcknowledgementEndsAtTheStartOfTheDayAfterItsLast() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T…Z
        let today = UTCCalendar.date(Int(now.timeIntervalSince1970))
        let end = try Acknowledgements.end(ofDay: today, now: now)
        #expect(UTCCalendar.date(Int(end.timeIntervalSince1970)) != today)
        #expect(Int(end.timeIntervalSince1970) % 86_400 == 0 && end > now)
        #expect(end.timeIntervalSince(now) <= 86_400)
        let last = UTCCalendar.date(Int(now.timeIntervalSince1970) + Acknowledgements.maximumDays * 86_400)
        #expect(throws: Never.self) { try Acknowledgements.end(ofDay: last, now: now) }
        let tooFar = UTCCalendar.date(Int(now.timeIntervalSince1970) + (Acknowledgements.maximumDays + 2) * 86_400)
        #expect(throws: AcknowledgementError.tooFar(tooFar)) { try Acknowledgements.end(ofDay: tooFar, now: now) }
        let yesterday = UTCCalendar.date(Int(now.timeIntervalSince1970) - 86_400)
        #expect(throws: AcknowledgementError.past(yesterday)) { try Acknowledgements.end(ofDay: yesterday, now: now) }
        for text in ["2026-02-30", "2026-13-01", "26-11-30", "2026-1-30", "tomorrow", ""] {
            #expect(throws: AcknowledgementError.date(text)) { try Acknowledgements.end(ofDay: text, now: now) }
        }
    }

    /// `label:KEY=VALUE`: Prometheus' label names, none of the alerts' own, bounded values
    /// without control characters.
    @Test func labelsArePrometheusNamesWithBoundedValues() throws {
        let team = try DomainLabels.parse("team=payments").get()
        #expect(team.key == "team" && team.value == "payments")
        #expect(try DomainLabels.parse("_owner2=a=b").get().value == "a=b")
        #expect(throws: DomainLabelError.shape("team")) { try DomainLabels.parse("team").get() }
        #expect(throws: DomainLabelError.key("2team")) { try DomainLabels.parse("2team=x").get() }
        #expect(throws: DomainLabelError.key("té")) { try DomainLabels.parse("té=x").get() }
        #expect(throws: DomainLabelError.reserved("severity")) { try DomainLabels.parse("severity=x").get() }
        #expect(throws: DomainLabelError.reserved("__meta")) { try DomainLabels.parse("__meta=x").get() }
        #expect(throws: DomainLabelError.value("team")) { try DomainLabels.parse("team=").get() }
        #expect(throws: DomainLabelError.value("team")) { try DomainLabels.parse("team=a\u{7}b").get() }
        let long = String(repeating: "v", count: DomainLabels.maximumValueLength + 1)
        #expect(throws: DomainLabelError.value("team")) { try DomainLabels.parse(Substring("team=" + long)).get() }
    }

    /// A run folder's name reads back as itself; names the tool does not make are not runs.
    @Test func aRunFolderNameReadsBackAsItself() throws {
        let start = Date(timeIntervalSince1970: 1_795_000_000.9)
        let first = RunFolderName(startedAt: start)
        let second = RunFolderName(startedAt: start, attempt: 2)
        #expect(first.description.count == "2026-11-18T000000Z".count && first.description.hasSuffix("Z"))
        #expect(RunFolderName(first.description) == first && RunFolderName(second.description) == second)
        #expect(first < second && second < RunFolderName(startedAt: start.addingTimeInterval(1)))
        for name in [
            first.description + "-1", first.description + "-02", first.description + "-", first.description + "x",
            "latest.json", "", first.description + "-1234567", "２０２６-11-18T000000Z",
        ] {
            #expect(RunFolderName(name) == nil, "\(name)")
        }
    }

    /// A plain target keeps its rare parts in no box: a million of them cost their 48 bytes; a
    /// changed copy never changes the original.
    @Test func aPlainTargetIsSmallAndCopiesDoNotShareChanges() {
        #expect(MemoryLayout<DomainTarget>.size <= 48, "\(MemoryLayout<DomainTarget>.size)")
        let plain = DomainTarget(domain: "example.com")
        var changed = plain
        changed.labels = ["team": "payments"]
        changed.expectations = [URLExpectation(url: "https://example.com/a", opensApp: true, inputLine: 2)]
        #expect(plain.labels.isEmpty && plain.expectations.isEmpty && plain != changed)
        var back = changed
        back.labels = [:]
        back.expectations = []
        #expect(back == plain, "a target with nothing rare is a plain one again")
        changed.aasa = nil
        #expect(plain.aasa == AASAWant() && changed.aasa == nil)
    }

    /// `ios:none` removes the AASA's want (what the line listed stays for the record); a want
    /// set again is the target's whole AASA want.
    @Test func iosNoneRemovesTheAASAsWant() {
        let appID = "ABCDE12345.com.example.app"
        var target = DomainTarget(domain: "shop.example.com", expectedAppIDs: [appID])
        #expect(target.aasa == AASAWant(appIDs: [appID]))
        target.aasa = nil
        #expect(target.aasa == nil && target.expectedAppIDs == [appID])
        let want = AASAWant(
            expectations: [URLExpectation(url: "https://shop.example.com/buy", opensApp: true, inputLine: 3)],
            services: [AssociatedService(service: .webcredentials, file: "App.entitlements")])
        target.aasa = want
        #expect(target.aasa == want && target.expectedAppIDs.isEmpty && target.services == want.services)
        #expect(AASAWant.isNone("NONE") && AASAWant.isNone(AASAWant.iosNone) && !AASAWant.isNone("no"))
    }
}
