import AASAModel
import Foundation
import Mustache

/// JUnit XML for CI servers: one test case per domain, failing (with its findings) when its
/// verdict fails the run. Rendered in parts like the HTML report, through Mustache's escaping;
/// characters XML 1.0 cannot hold are replaced first.
public struct JUnitReport: Sendable {
    private let headTemplate: MustacheTemplate
    private let caseTemplate: MustacheTemplate
    private let skippedTemplate = try! MustacheTemplate(string: "\n<skipped message=\"{{reason}}\"/>\n</testcase>\n")

    public init() {
        headTemplate = try! MustacheTemplate(
            string: """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="aasa-audit" tests="{{tests}}" failures="{{failures}}" time="{{time}}">
                <testsuite name="{{name}}" tests="{{tests}}" failures="{{failures}}" errors="0" skipped="{{skipped}}" time="{{time}}" timestamp="{{timestamp}}">

                """)
        caseTemplate = try! MustacheTemplate(
            string: """
                <testcase classname="aasa-audit" name="{{domain}}" time="{{time}}">{{#failure}}
                <failure type="{{type}}" message="{{message}}">{{details}}</failure>{{/failure}}{{#output}}
                <system-out>{{output}}</system-out>{{/output}}
                </testcase>

                """)
    }

    public static let tail = "</testsuite>\n</testsuites>\n"

    /// - Parameter skipped: test cases skipped (every one of a run this machine could not check).
    public func head(run: RunInfo, summary: ReportSummary, failures: Int, skipped: Int = 0) -> String {
        let timestamp = run.startedAt.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        return headTemplate.render(
            [
                "name": "aasa-audit \(run.options.inputFiles.joined(separator: ", "))",
                "tests": String(summary.domains),
                "failures": String(failures), "skipped": String(skipped),
                "time": String(format: "%.3f", run.durationSeconds),
                "timestamp": timestamp,
            ] as [String: Any])
    }

    /// A domain's test case; it fails when its verdict fails at `threshold`.
    public func testCase(_ report: DomainReport, threshold: Severity) -> String {
        let seconds = (report.fetches.map(\.timings.totalMs).max() ?? 0) / 1000
        let fails = report.verdict.fails(at: threshold)
        // Causes first, each with what follows from it indented beneath.
        let lines = FindingGroups(report.findings).groups.flatMap { group in
            [
                "\(group.cause.severity.rawValue) \(group.cause.code.rawValue) (\(group.cause.location.rawValue)): \(group.cause.message)"
            ]
                + group.consequences.map {
                    "  follows: \($0.severity.rawValue) \($0.code.rawValue) (\($0.location.rawValue)): \($0.message)"
                }
        }
        var context: [String: Any] = ["domain": Self.xmlSafe(report.domain), "time": String(format: "%.3f", seconds)]
        if fails,
            let worst = report.findings.filter({ $0.causedBy == nil && $0.severity >= threshold })
                .max(by: { $0.severity < $1.severity })
        {
            context["failure"] = [
                "type": worst.code.rawValue, "message": Self.xmlSafe(worst.message),
                "details": Self.xmlSafe(lines.joined(separator: "\n")),
            ]
        } else if !lines.isEmpty {
            context["output"] = Self.xmlSafe(lines.joined(separator: "\n"))
        }
        return caseTemplate.render(context)
    }

    /// A domain's test case (`testCase`'s text) as skipped, for a run this machine could not check
    /// properly: its opening line kept, its verdict replaced by the reason.
    public func skipped(_ testCase: Data, reason: String) -> Data {
        let opening = testCase.prefix { $0 != UInt8(ascii: "\n") }
        let skipped = skippedTemplate.render(["reason": Self.xmlSafe(reason)])
        return opening + Data(skipped.utf8)
    }

    /// The text with characters XML 1.0 forbids (most control characters) replaced by U+FFFD.
    static func xmlSafe(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    switch scalar.value {
                    case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: scalar
                    default: "\u{FFFD}"
                    }
                }))
    }
}
