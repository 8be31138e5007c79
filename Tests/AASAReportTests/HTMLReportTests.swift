import AASAReport
import Foundation
import Testing

@testable import AASAModel

@Suite struct HTMLReportTests {
    static let markup = #"<script>alert(1)</script><img src=x onerror=alert(2)>"'&"#

    func page(
        domains: [DomainReport], files: [[ServedFileDisplay]], problems: [InputProblem] = [Samples.problem()],
        complete: Bool = true
    ) -> String {
        let html = HTMLReport()
        let tool = ToolInfo(version: "0.1.0")
        var page = html.head(
            tool: tool, run: Samples.run(complete: complete), summary: Samples.summary(of: domains),
            input: InputInfo(problems: problems))
        for (index, domain) in domains.enumerated() {
            page += html.row(index: index, report: domain, files: files[index])
        }
        return page + html.tail(tool: tool)
    }

    @Test func showsTheSummaryAndARowPerDomain() {
        let pass = DomainReport(
            domain: "good.example", inputLine: 1, expectedAppIDs: [], fetches: [],
            appIDs: ServiceAppIDs(applinks: ["ABCDE12346.a.b"]), findings: [])
        let fail = Samples.domain("bad.example")
        let text = page(domains: [pass, fail], files: [[], []])
        #expect(text.hasPrefix("<!DOCTYPE html>"))
        // A passing domain is one compact line; anchors are the domains' names.
        #expect(
            text.contains(
                ##"<section class="domain pass compact" id="good.example" data-verdict="pass" data-domain="good.example" data-rank="0" data-causes="0" data-line="1"><div class="row"><span class="badge pass">pass</span><a class="name" href="#good.example">good.example</a>"##
            ))
        #expect(
            text.contains(
                #"<section class="domain fail" id="bad.example" data-verdict="fail" data-codes="net.connect net.timeout"#
            ))
        // Failures first: the fail filter is chosen when there are failures.
        #expect(text.contains(#"value="fail" checked>"#))
        #expect(text.contains(#"<div class="fix"><b>Fix:</b> "#))
        #expect(text.contains("<b>2</b>domains"))
        #expect(text.contains("<b>1</b>fail"))
        #expect(text.contains("<code>appid.missing</code>"))
        #expect(text.hasSuffix("</html>\n"))
        #expect(!text.contains("This run was interrupted"))
        #expect(self.page(domains: [], files: [], complete: false).contains("This run was interrupted"))
    }

    /// report.html says first what the terminal, the JSON and index.html say: a run not checked
    /// properly, or partly checked (issue 54, item 4; issue 56, item 3). Escaped like the rest.
    @Test func saysFirstWhenThisMachineCouldNotCheckProperly() {
        let html = HTMLReport()
        let tool = ToolInfo(version: "0.1.0")
        var summary = Samples.summary(of: [Samples.domain("bad.example")])
        summary.auditorProblems = ["No host name resolved on this machine <b>(8 of 8)</b>."]
        summary.partlyChecked = ["Apple's CDN could not be reached."]
        let head = html.head(
            tool: tool, run: Samples.run(complete: true), summary: summary, input: InputInfo(problems: []))
        let notice = head.range(of: "Not checked properly: No host name resolved")
        let tiles = head.range(of: #"<div class="tiles">"#)
        #expect(notice != nil && tiles != nil && notice!.lowerBound < tiles!.lowerBound, "before the counts")
        #expect(head.contains("&lt;b&gt;(8 of 8)&lt;/b&gt;"), "escaped")
        #expect(head.contains("Partly checked: Apple"))
        let sound = html.head(
            tool: tool, run: Samples.run(complete: true), summary: Samples.summary(of: []),
            input: InputInfo(problems: []))
        #expect(!sound.contains("Not checked properly") && !sound.contains("Partly checked"))
    }

    @Test func aSeverityChangedByPolicySaysWhatItWas() {
        var finding = Finding(code: .aasa(.cdnStale), severity: .info, location: .cdn, message: "differs")
        finding.overriddenFrom = .warning
        let domain = DomainReport(
            domain: "stale.example", inputLine: 1, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
            findings: [finding])
        let text = page(domains: [domain], files: [[]])
        #expect(
            text.contains(
                #"<span class="badge info">info</span><br><span class="where" title="changed by --severity">was warning</span>"#
            ), "\(text.suffix(3000))")
    }

    @Test func showsChangesAtTheTop() {
        let html = HTMLReport()
        let tool = ToolInfo(version: "0.1.0")
        let change = DomainChange(
            domain: "a.example", verdict: VerdictChange(from: .pass, to: .fail),
            newFindings: [
                Finding(
                    code: .aasa(.httpRedirect), severity: .error, location: .wellKnown,
                    message: "HTTP 301 redirect to <x>")
            ], resolvedFindings: [])
        let changed = RunChanges(
            previousRunStartedAt: Samples.started, domains: [change], addedDomains: [], removedDomains: ["gone.example"]
        )
        let text = html.head(
            tool: tool, run: Samples.run(), summary: Samples.summary(of: []), input: InputInfo(problems: []),
            changes: changed)
        #expect(text.contains("Changes since the run of 2026-11-18 11:06:40 UTC"))
        #expect(text.contains("<code>http.redirect</code> HTTP 301 redirect to &lt;x&gt;"))
        #expect(text.contains("No longer audited: gone.example"))
        #expect(!text.contains("New domains:"))
        let unchanged = RunChanges(
            previousRunStartedAt: Samples.started, domains: [], addedDomains: [], removedDomains: [])
        let quiet = html.head(
            tool: tool, run: Samples.run(), summary: Samples.summary(of: []), input: InputInfo(problems: []),
            changes: unchanged)
        #expect(quiet.contains("No changes since the run of"))
        #expect(!quiet.contains("No longer audited"))
    }

    @Test func isSelfContained() {
        let text = page(domains: [Samples.domain()], files: [[]])
        #expect(!text.contains("<link"))
        #expect(!text.contains("src="))
        #expect(!text.contains("@import"))
        #expect(!text.contains("url("))
    }

    @Test func escapesEverythingFromServersAndInput() {
        let hostile = Samples.domain("example.com", text: Self.markup)
        let files = [
            [
                ServedFileDisplay(
                    location: .wellKnown, sha256: "ab", content: .text("{\"applinks\": \"\(Self.markup)\"}")),
                ServedFileDisplay(location: .root, sha256: "cd", content: .sameAs(domain: Self.markup, row: 9)),
            ]
        ]
        let text = page(domains: [hostile], files: files, problems: [Samples.problem(text: Self.markup)])
        // The page's own single script, and none from the data.
        #expect(text.components(separatedBy: "<script").count == 2)
        #expect(!text.contains("<img"))
        #expect(!text.contains("onerror=alert(2)>"))
        #expect(
            text.contains("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;"))
    }

    /// Mustache's built-in escaping compares whole Characters, so a quote or `<` that a
    /// combining mark follows is a different Character and passed through as it was.
    @Test func escapesMarkupFollowedByCombiningMarks() {
        let combined = "\"\u{301} onmouseover=alert(3) x=\"\u{301}<\u{301}script>'\u{301}&\u{301}"
        let text = page(
            domains: [Samples.domain("example.com", text: combined)], files: [[]],
            problems: [Samples.problem(text: combined)])
        let scalars = Array(text.unicodeScalars)
        let unescaped = scalars.indices.dropFirst().filter {
            scalars[$0] == "\u{301}" && "\"<'&".unicodeScalars.contains(scalars[$0 - 1])
        }
        #expect(
            unescaped.isEmpty, "\(unescaped.count) markup characters before a combining mark went through unescaped")
        #expect(
            text.contains(
                "&quot;\u{301} onmouseover=alert(3) x=&quot;\u{301}&lt;\u{301}script&gt;&#39;\u{301}&amp;\u{301}"))
    }

    /// NUL, ESC, BEL and bidi overrides from a server are made visible, as in every output;
    /// line breaks and tabs of a served file stay text (issue 36, item 14).
    @Test func showsControlsFromServersVisibly() {
        let hostile = "a\u{0}b\u{1B}[2Jc\u{7}d\u{202E}e"
        let files = [[ServedFileDisplay(location: .wellKnown, sha256: "ab", content: .text("{\n\t\"k\": 1\n}"))]]
        let text = page(domains: [Samples.domain("example.com", text: hostile)], files: files)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && ![9, 10, 13].contains($0.value) })
        #expect(!text.unicodeScalars.contains { $0.value == 0x202E })
        #expect(text.contains(#"a\u{0}b\u{1b}[2Jc\u{7}d\u{202e}e"#))
        #expect(text.contains("{\n\t&quot;k&quot;: 1\n}"))
    }

    @Test func leavesTextWithoutMarkupAsItIs() {
        let plain = "café – ✓ 日本語 👩🏽‍💻 e\u{301}"
        let text = page(domains: [Samples.domain("example.com", text: plain)], files: [[]])
        #expect(text.contains("com.example.\(plain)"))
    }

    @Test func pointsAtAnEarlierRowForAFileServedAgain() {
        let files = [
            [ServedFileDisplay(location: .wellKnown, sha256: "ab", content: .text("{}"))],
            [
                ServedFileDisplay(
                    location: .wellKnown, sha256: "ab", content: .sameAs(domain: "first.example", row: 0)),
                ServedFileDisplay(location: .root, sha256: "ab", content: .sameAs(domain: "second.example", row: 1)),
            ],
        ]
        // Rows with a finding: a passing row without one is compact and shows no file.
        let warned = DomainReport(
            domain: "bare.example", inputLine: nil, expectedAppIDs: [], fetches: [], appIDs: ServiceAppIDs(),
            findings: [
                Finding(code: .aasa(.httpContentType), severity: .warning, location: .wellKnown, message: "text/plain")
            ]
        )
        let text = page(domains: [warned, warned], files: files)
        #expect(text.contains(#"<pre class="file">{}</pre>"#))
        #expect(text.contains(##"Identical to the file served by <a href="#first.example">first.example</a>"##))
        #expect(text.contains("Identical to the file above"))
    }
}

/// The served file in the HTML is marked where each finding about a place in it stands.
@Suite struct HTMLMarkedFileTests {
    @Test func eachPlacedFindingIsMarkedInTheFileShown() {
        let pretty =
            "{\n  \"applinks\": {\n    \"details\": [\n      {\n        \"appIDs\": [\"A.b\"],\n        \"pth\": \"/x\"\n      }\n    ]\n  }\n}"
        var unknown = Finding(
            code: .aasa(.entryUnknownKey), severity: .warning, location: .wellKnown,
            message: "Unknown key \"pth\" in applinks.details[0]")
        // The position in the bytes served (minified), which the pretty text does not share.
        unknown.position = FilePosition(pointer: "/applinks/details/0/pth", line: 1, column: 60)
        let report = Samples.domain("marked.example", findings: [unknown])
        let html = HTMLReport().row(
            index: 0, report: report,
            files: [ServedFileDisplay(location: .wellKnown, sha256: "00", content: .text(pretty))])
        #expect(
            html.contains(
                #"        &quot;pth&quot;: <mark title="line 6, column 16: entry.unknown-key: Unknown key &quot;pth&quot; in applinks.details[0]">&quot;/x&quot;</mark>"#
            ), "\(html)")
        #expect(html.components(separatedBy: "<mark").count - 1 == 1)
    }
}

/// The report and the history page are titled for every kind, not the AASA alone (issue 56,
/// item 5: "AASA audit", "Universal links audit").
@Suite struct ReportTitleTests {
    @Test func theRunReportIsTitledForEveryKind() {
        let head = HTMLReport().head(
            tool: ToolInfo(version: "0.1.0"), run: Samples.run(complete: true), summary: Samples.summary(of: []),
            input: InputInfo(problems: []))
        #expect(head.contains("<title>\(AssociationKinds.auditedTitle) audit "), "\(head.prefix(400))")
        #expect(head.contains("<h1>\(AssociationKinds.auditedTitle) audit</h1>"))
        #expect(!head.contains("Universal links audit") && !head.contains("AASA audit"))
    }
}
