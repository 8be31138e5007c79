import AASAReport
import Testing

@testable import AASAModel

@Suite struct TerminalReportTests {
    /// What a file or server says reaches the terminal only with its controls made visible:
    /// C0, DEL, C1, and the bidirectional overrides and isolates that reorder a line.
    @Test(arguments: [
        "\u{1B}[2J", "\u{7F}", "\u{85}", "\u{9B}31m", "\u{202E}", "\u{2066}", "\u{200F}", "\u{2028}", "\u{061C}",
    ])
    func controlsAndBidiOverridesAreMadeVisible(hostile: String) {
        let cleaned = TerminalReport(colour: false).clean("key\(hostile)end")
        #expect(
            cleaned.unicodeScalars.allSatisfy {
                $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) && $0.isASCII
            })
        #expect(cleaned.hasPrefix("key\\u{") && cleaned.hasSuffix("end"))
    }

    @Test func printsEachLocationTheAppIDsAndExplainedFindings() {
        var wellKnown = FetchRecord(
            location: .wellKnown, url: "https://example.com/.well-known/apple-app-site-association", status: 301,
            httpVersion: "1.1")
        wellKnown.redirectTarget = "https://www.example.com/"
        let report = DomainReport(
            domain: "example.com", inputLine: nil, expectedAppIDs: ["ABCDE12346.a.b"],
            fetches: [
                wellKnown,
                FetchRecord(location: .root, url: "https://example.com/apple-app-site-association", status: 404),
            ],
            appIDs: ServiceAppIDs(),
            findings: [
                Finding(
                    code: .aasa(.httpRedirect), severity: .error, location: .wellKnown,
                    message: "HTTP 301 redirect to https://www.example.com/.")
            ])
        let text = TerminalReport(colour: false).domain(report)
        #expect(text.hasPrefix("example.com  FAIL\n"))
        #expect(text.contains(".well-known  301  → https://www.example.com/"))
        #expect(text.contains("error   http.redirect (well-known)"))
        #expect(text.contains("Why: The server answered with a redirect."))
        #expect(text.contains("Fix: "))
        #expect(!text.contains("\u{1B}["))
        let coloured = TerminalReport(colour: true).domain(report)
        #expect(coloured.contains("\u{1B}[31mFAIL\u{1B}[0m"))
        // The fix is what the reader acts on: not dimmed. No file at the root is harmless: not red.
        #expect(coloured.contains("\n          Fix: ") && !coloured.contains("\u{1B}[2m          Fix: "))
        #expect(coloured.contains("\u{1B}[2m404\u{1B}[0m") && coloured.contains("\u{1B}[31m301\u{1B}[0m"))
    }

    @Test func neutralisesTerminalEscapesFromServers() {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
        let report = DomainReport(
            domain: "example.com", inputLine: nil, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
            findings: [Finding(code: .transfer(.netOther), severity: .error, location: .wellKnown, message: hostile)])
        let text = TerminalReport(colour: false).domain(report)
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("\\u{1b}]0;pwned\\u{7}"))
    }

    @Test func summarisesARun() {
        var summary = ReportSummary()
        summary.domains = 3
        summary.verdicts.pass = 1
        summary.verdicts.warn = 1
        summary.verdicts.fail = 1
        let failing = FlaggedDomain(
            DomainReport(
                domain: "bad.example", inputLine: 1, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
                findings: [
                    Finding(code: .aasa(.httpStatus), severity: .error, location: .wellKnown, message: ""),
                    Finding(code: .aasa(.httpContentType), severity: .warning, location: .root, message: ""),
                ]))!
        let text = TerminalReport(colour: false).runSummary(
            summary: summary, flagged: [failing], problems: [Samples.problem()], seconds: 1.25, complete: true)
        #expect(text.contains("Audited 3 domains in 1.2 s: 1 pass, 1 warn, 1 fail"))
        #expect(text.contains("FAIL bad.example  http.status"))
        #expect(text.contains("domains.txt:7: \"https://x\" is a URL"))
    }
}

@Suite struct RunSummaryTests {
    @Test func anInterruptedRunCountsWhatItDidNotAuditApart() {
        var summary = ReportSummary()
        summary.domains = 300
        summary.verdicts.pass = 16
        summary.verdicts.fail = 284
        let interrupted = (0..<284).compactMap {
            FlaggedDomain(
                DomainReport(
                    domain: "d\($0).example", inputLine: nil, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
                    findings: [
                        Finding(
                            code: .run(.auditInterrupted), severity: .error, location: .domain, message: "Not audited.")
                    ]))
        }
        let text = TerminalReport(colour: false).runSummary(
            summary: summary, flagged: interrupted, problems: [], seconds: 2.1, complete: false)
        #expect(
            text.hasPrefix(
                "Interrupted after 2.1 s: 16 of 300 domains audited (16 pass, 0 warn, 0 fail); 284 not audited."),
            "\(text)")
        #expect(!text.contains("Failing:"))
    }

    @Test func aDomainThisMachineCouldNotCheckIsListedApartNotAsFailing() {
        var summary = ReportSummary()
        summary.domains = 3
        summary.verdicts.pass = 1
        summary.verdicts.fail = 2
        let unchecked = FlaggedDomain(
            DomainReport(
                domain: "oom.example", inputLine: nil, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
                findings: [
                    Finding(
                        code: .run(.auditUnchecked), severity: .error, location: .wellKnown, message: "Out of memory")
                ]))!
        let failing = FlaggedDomain(
            DomainReport(
                domain: "bad.example", inputLine: nil, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
                findings: [Finding(code: .aasa(.httpStatus), severity: .error, location: .wellKnown, message: "")]))!
        let text = TerminalReport(colour: false).runSummary(
            summary: summary, flagged: [unchecked, failing], problems: [], seconds: 1, complete: true)
        #expect(text.contains("1 pass, 0 warn, 1 fail, 1 not checked"), "\(text)")
        #expect(text.contains("Failing:\n  FAIL bad.example"), "\(text)")
        #expect(!text.contains("FAIL oom.example"))
        #expect(
            text.contains(
                "Not checked (held by this audit's own limits or this machine: each finding names which; see audit.unchecked in the report):\n  oom.example"
            ), "\(text)")
    }

    /// Every domain not checked is counted, the list says how many it leaves out, and each
    /// cause has its own heading (issue 56: 26 of 40 unchecked read "14 pass, 0 warn, 0 fail"
    /// and listed 25; issue 54: a crash's domains).
    @Test func notCheckedDomainsAreCountedListedAndNamedByCause() {
        func flagged(_ name: String, _ code: FindingCode) -> FlaggedDomain {
            FlaggedDomain(
                DomainReport(
                    domain: name, inputLine: nil, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
                    findings: [Finding(code: code, severity: .error, location: .domain, message: "why")]))!
        }
        var summary = ReportSummary()
        summary.domains = 45
        summary.verdicts.pass = 14
        summary.verdicts.fail = 31
        let held = (1...30).map { flagged("held-by-the-rate-limit-\($0).example", .run(.auditUnchecked)) }
        let crashed = flagged("a-domain-that-crashed-the-audit.example", .run(.auditCrashed))
        let text = TerminalReport(colour: false).runSummary(
            summary: summary, flagged: held + [crashed], problems: [], seconds: 1, complete: true)
        #expect(text.contains("14 pass, 0 warn, 0 fail, 31 not checked"), "\(text)")
        #expect(text.contains("held-by-the-rate-limit-26.example") == false, "the list is bounded")
        #expect(text.contains(" … and 5 more"), "\(text)")
        #expect(
            text.contains(
                "Not checked (the audit crashed while they were in flight: not fetched again; see audit.crashed in the report):\n  a-domain-that-crashed-the-audit.example"
            ), "\(text)")
    }

    /// A run this machine could not check properly (its DNS cut off from the internet: NXDOMAIN
    /// for every name) lists what it saw as such, never as the sites' failures (issue 54: the
    /// README's first command printed "8 fail" and told each site to publish its DNS records).
    @Test func anUnsoundRunSaysItsListsAreWhatThisMachineSaw() {
        var summary = ReportSummary()
        summary.domains = 1
        summary.verdicts.fail = 1
        summary.auditorProblems = ["No host name resolved on this machine (1 of 1 domains failed to resolve)."]
        let flagged = FlaggedDomain(
            DomainReport(
                domain: "www.an-ordinary-shop-name.com", inputLine: nil, expectedAppIDs: [], fetches: [],
                appIDs: ServiceAppIDs(),
                findings: [
                    Finding(code: .transfer(.netDNS), severity: .error, location: .wellKnown, message: "NXDOMAIN")
                ]))!
        let text = TerminalReport(colour: false).runSummary(
            summary: summary, flagged: [flagged], problems: [], seconds: 1, complete: true)
        #expect(text.hasPrefix("Not checked properly: No host name resolved"), "\(text)")
        #expect(
            text.contains("not checked properly (above); as seen from this machine: 0 pass, 0 warn, 1 fail"), "\(text)")
        #expect(text.contains("Failing as seen from this machine (not the sites' verdicts):"), "\(text)")
        #expect(!text.contains("\nFailing:"))
    }

    @Test func theMachinesOwnProblemsComeFirst() {
        var summary = ReportSummary()
        summary.domains = 8
        summary.verdicts.pass = 8
        summary.findingsByCode["cdn.unchecked"] = 8
        summary.partlyChecked = AuditorProblems.notices(summary, resolver: .init(nameResolved: true)).partial
        let text = TerminalReport(colour: false).runSummary(
            summary: summary, flagged: [], problems: [], seconds: 1, complete: true)
        #expect(
            text.hasPrefix("Partly checked: Apple's CDN could not be reached from this machine for 8 of 8 domains"),
            "\(text)")
    }
}

@Suite struct AuditorProblemsTests {
    func summary(domains: Int, codes: [String: Int]) -> ReportSummary {
        var summary = ReportSummary()
        summary.domains = domains
        summary.findingsByCode = codes
        return summary
    }

    @Test func halfTheDomainsOrMoreWithoutApplesCDNArePartlyChecked() {
        let answers = AuditorProblems.ResolverEvidence(nameResolved: true)
        #expect(
            AuditorProblems.notices(summary(domains: 10, codes: ["cdn.unchecked": 4]), resolver: answers) == ([], []))
        #expect(
            AuditorProblems.notices(summary(domains: 10, codes: ["cdn.unchecked": 5]), resolver: answers).partial.count
                == 1)
        #expect(
            AuditorProblems.notices(summary(domains: 1, codes: ["cdn.unchecked": 1]), resolver: answers).unsound.isEmpty
        )
    }

    /// DNS by evidence, for any fleet down to one domain: the machine's when no name resolved and
    /// no canary did; the sites' whenever the resolver answered, however many names fail.
    @Test func dnsIsTheMachinesOnlyWhenNothingResolved() {
        func notices(domains: Int, dns: Int, _ resolver: AuditorProblems.ResolverEvidence) -> (
            unsound: [String], partial: [String]
        ) {
            var counts = summary(domains: domains, codes: ["net.dns": dns, "cdn.unchecked": domains])
            counts.causesByCode = ["net.dns": dns]
            return AuditorProblems.notices(counts, resolver: resolver)
        }
        let down = AuditorProblems.ResolverEvidence(
            nameResolved: false, canaryResolved: false, canaries: [AuditorProblems.defaultCanary])
        let one = notices(domains: 1, dns: 1, down)
        #expect(one.unsound.count == 1 && one.unsound[0].contains("DNS is not working"), "\(one)")
        // Apple's CDN failing too follows from the same cause: the notice is about DNS only.
        #expect(one.partial.isEmpty && !one.unsound[0].contains("--no-cdn"))
        // Names that do not exist, while the canary resolves: the sites' failures.
        let canaryAnswers = AuditorProblems.ResolverEvidence(nameResolved: false, canaryResolved: true)
        #expect(notices(domains: 8, dns: 8, canaryAnswers).unsound.isEmpty)
        // Half a fleet that does not exist, the other half resolving: the sites'.
        #expect(notices(domains: 10, dns: 6, AuditorProblems.ResolverEvidence(nameResolved: true)).unsound.isEmpty)
        #expect(AuditorProblems.needsCanary(summary(domains: 3, codes: [:]), nameResolved: false) == false)
    }
}

/// Causes lead, what follows from them is listed under them: terminal, HTML and JUnit.
@Suite struct CauseGroupingTests {
    static let cause = Finding(
        code: .aasa(.httpStatus), severity: .error, location: .wellKnown, message: "HTTP 404 at .well-known.")
    static var findings: [Finding] {
        var none = Finding(
            code: .aasa(.locationNone), severity: .error, location: .domain, message: "Neither location.")
        none.causedBy = FindingCause(cause)
        var cdn = Finding(code: .aasa(.cdnMissing), severity: .error, location: .cdn, message: "No CDN copy.")
        cdn.causedBy = FindingCause(cause)
        return [cause, none, cdn]
    }

    @Test func theTerminalShowsTheCauseWithItsFixAndWhatFollowsBeneath() {
        let report = Samples.domain("missing.example", findings: Self.findings)
        let text = TerminalReport(colour: false).domain(report)
        #expect(text.components(separatedBy: "Fix:").count - 1 == 1, "\(text)")
        #expect(
            text.contains(
                "Fix: \(FindingCode.aasa(.httpStatus).definition.fix)\n          ↳ follows: location.none (domain) Neither location.\n          ↳ follows: cdn.missing (cdn) No CDN copy."
            ), "\(text)")
    }

    @Test func htmlAndJUnitLeadWithTheCause() {
        let report = Samples.domain("missing.example", findings: Self.findings)
        let html = HTMLReport().row(index: 0, report: report, files: [])
        #expect(html.components(separatedBy: "<div class=\"fix\">").count - 1 == 1, "\(html)")
        #expect(html.contains(#"<li>↳ follows: <code>location.none</code> Neither location."#))
        let junit = JUnitReport().testCase(report, threshold: .error)
        #expect(junit.contains(#"<failure type="http.status" message="HTTP 404 at .well-known.">"#), "\(junit)")
        #expect(
            junit.contains("error http.status (well-known): HTTP 404 at .well-known.\n  follows: error location.none"))
    }
}
