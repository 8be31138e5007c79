import Foundation
import Testing

@testable import AASAModel

@Suite struct RunChangesTests {
    func snapshot(_ domain: String, _ findings: [Finding]) -> DomainSnapshot {
        DomainSnapshot(domain: domain, verdict: Verdict(findings: findings), findings: findings)
    }

    /// The same failure, acknowledged on one side only: its end (the date passed, or `ack
    /// --remove`) is news and is heard again in the alert; acknowledging is the team's own doing
    /// and is not (issue 46, item 4: a removed acknowledgement read "No changes" and sent nothing).
    @Test func anAcknowledgementThatEndsIsNewsAndOneGivenIsNot() throws {
        let mark = AcknowledgementMark(
            Acknowledgement(
                domain: "a.example", codes: nil, until: Date(timeIntervalSince1970: 86_400 * 30), reason: "vendor",
                by: "ana", at: Date(timeIntervalSince1970: 0)))
        let open = Finding(code: .aasa(.httpStatus), severity: .error, location: .wellKnown, message: "HTTP 404")
        var acknowledged = open
        acknowledged.acknowledged = mark
        let ended = try #require(snapshot("a.example", [open]).change(since: snapshot("a.example", [acknowledged])))
        #expect(ended.acknowledgement == .ended && ended.verdict == nil && ended.newFindings.isEmpty)
        let given = try #require(snapshot("a.example", [acknowledged]).change(since: snapshot("a.example", [open])))
        #expect(given.acknowledgement == .given)
        #expect(snapshot("a.example", [acknowledged]).change(since: snapshot("a.example", [acknowledged])) == nil)

        let changes = RunChanges(
            previousRunStartedAt: Date(timeIntervalSince1970: 0),
            domains: [
                ended,
                DomainChange(
                    domain: "b.example", verdict: nil, newFindings: [], resolvedFindings: [], acknowledgement: .given),
            ],
            addedDomains: [], removedDomains: [])
        #expect(changes.openChanges.domains.map(\.domain) == ["a.example"])
        let report = DomainReport(
            domain: "a.example", inputLine: 1, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
            findings: [open])
        // Heard again whichever way it ended; the run's acknowledgements tell which.
        func alert(onDay day: Double, _ acknowledgements: Acknowledgements?) throws -> RunAlert {
            RunAlert(
                run: RunAlert.Run(
                    startedAt: Date(timeIntervalSince1970: 86_400 * day), folder: "/r/x", report: "/r/x/report.html",
                    previousRunStartedAt: Date(timeIntervalSince1970: 0)),
                verdicts: VerdictCounts(), changes: changes, flagged: [try #require(FlaggedDomain(report))],
                acknowledgements: acknowledgements)
        }
        let entry = Acknowledgement(
            domain: "a.example", codes: nil, until: Date(timeIntervalSince1970: 86_400 * 30), reason: "vendor",
            by: "ana", at: Date(timeIntervalSince1970: 0))
        let narrowed = Acknowledgement(
            domain: "a.example", codes: [FindingCode.aasa(.cdnStale).rawValue],
            until: Date(timeIntervalSince1970: 86_400 * 30),
            reason: "vendor", by: "ana", at: Date(timeIntervalSince1970: 0))
        let cases: [(Double, Acknowledgements?, AcknowledgementEnd, Bool?)] = [
            (31, Acknowledgements([entry]), .expired, true), (1, Acknowledgements(), .removed, nil),
            (1, Acknowledgements([narrowed]), .changed, nil), (1, nil, .ended, nil),
        ]
        for (day, acknowledgements, end, expired) in cases {
            let heard = try alert(onDay: day, acknowledgements)
            #expect(heard.failures.map(\.domain) == ["a.example"], "\(end)")
            #expect(
                heard.failures.first?.acknowledgementEnded == end
                    && heard.failures.first?.acknowledgementExpired == expired)
            #expect(heard.text.contains("a.example (http.status, acknowledgement \(end.rawValue))"), "\(heard.text)")
        }
    }

    /// A chat line names three codes of a domain and says how many more (issue 56).
    @Test func aChatLineSaysHowManyCodesItLeavesOut() throws {
        let codes: [FindingCode] = [
            .aasa(.appIDMissing), .aasa(.applinksMissing), .aasa(.serviceMissing), .aasa(.cdnMissing),
            .aasa(.uaBlocked), .aasa(.featureMinIOS),
        ]
        let report = DomainReport(
            domain: "a-shop-with-six-problems.example", inputLine: 1, expectedAppIDs: [], fetches: [],
            appIDs: ServiceAppIDs(),
            findings: codes.map { Finding(code: $0, severity: .error, location: .wellKnown, message: "x") })
        let flagged = try #require(FlaggedDomain(report))
        let alert = RunAlert(
            run: RunAlert.Run(
                startedAt: Date(timeIntervalSince1970: 86_400), folder: "/r/x", report: "/r/x/report.html",
                previousRunStartedAt: nil),
            verdicts: VerdictCounts(), changes: nil, flagged: [flagged])
        let named = flagged.codes.count
        #expect(named > 3, "\(flagged.codes)")
        let expected = ", and \(named - 3) more)"
        #expect(alert.text.contains(expected), "\(alert.text)")
    }

    @Test func newResolvedAndVerdictChanges() {
        let redirect = Finding(
            code: .aasa(.httpRedirect), severity: .error, location: .wellKnown,
            message: "HTTP 301 redirect to https://www.a.example/")
        let contentType = Finding(
            code: .aasa(.httpContentType), severity: .warning, location: .wellKnown,
            message: "Content-Type is text/plain")
        let timeoutThen = Finding(
            code: .transfer(.netTimeout), severity: .error, location: .wellKnown,
            message: "Operation timed out after 10000 ms with 20 bytes")
        let timeoutNow = Finding(
            code: .transfer(.netTimeout), severity: .error, location: .wellKnown,
            message: "Operation timed out after 10001 ms with 31 bytes")
        let previous = [
            snapshot("a.example", [contentType]), snapshot("b.example", [timeoutThen]), snapshot("gone.example", []),
        ]
        let current = [
            snapshot("a.example", [redirect, contentType]), snapshot("b.example", [timeoutNow]),
            snapshot("new.example", []),
        ]
        let changes = RunChanges.between(
            previous: previous, previousStartedAt: Date(timeIntervalSince1970: 0), current: current)
        #expect(
            changes.domains == [
                DomainChange(
                    domain: "a.example", verdict: VerdictChange(from: .warn, to: .fail), newFindings: [redirect],
                    resolvedFindings: [])
            ])
        #expect(changes.addedDomains == ["new.example"])
        #expect(changes.removedDomains == ["gone.example"])
    }

    @Test func aFindingThatGoesAwayIsResolved() {
        let malformed = Finding(
            code: .aasa(.appIDMalformed), severity: .error, location: .wellKnown, message: "placeholder")
        let change = snapshot("a.example", [malformed]).change(since: snapshot("a.example", [malformed, malformed]))
        #expect(
            change == DomainChange(domain: "a.example", verdict: nil, newFindings: [], resolvedFindings: [malformed]))
        #expect(snapshot("a.example", [malformed]).change(since: snapshot("a.example", [malformed])) == nil)
    }

    /// Apple's CDN out of this machine's reach on one night: its part is compared on neither side
    /// (as with --no-cdn), so a stale copy is neither recovered nor new; the origin still is.
    @Test func aCDNNotCheckedIsNeitherNewsNorRecovery() {
        let stale = Finding(code: .aasa(.cdnStale), severity: .warning, location: .cdn, message: "older copy")
        let unchecked = Finding(code: .aasa(.cdnUnchecked), severity: .info, location: .cdn, message: "no route")
        let status = Finding(code: .aasa(.httpStatus), severity: .error, location: .wellKnown, message: "404")
        #expect(snapshot("a.example", [unchecked]).change(since: snapshot("a.example", [stale])) == nil)
        #expect(snapshot("a.example", [stale]).change(since: snapshot("a.example", [unchecked])) == nil)
        let broke = snapshot("a.example", [status, unchecked]).change(since: snapshot("a.example", [stale]))
        #expect(broke?.verdict == VerdictChange(from: .pass, to: .fail) && broke?.newFindings == [status])
        #expect(
            snapshot("a.example", [stale]).change(since: snapshot("a.example", [])) != nil, "checked both nights")
    }

    @Test func anInterruptionIsNotAChange() {
        let interrupted = Finding(
            code: .run(.auditInterrupted), severity: .error, location: .domain, message: "interrupted")
        #expect(snapshot("a.example", [interrupted]).change(since: snapshot("a.example", [])) == nil)
        let failing = Finding(code: .aasa(.httpStatus), severity: .error, location: .wellKnown, message: "404")
        #expect(snapshot("a.example", [failing]).change(since: snapshot("a.example", [interrupted])) == nil)
        #expect(snapshot("a.example", [failing]).change(since: snapshot("a.example", [])) != nil)
    }
}
