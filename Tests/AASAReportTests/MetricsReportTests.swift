import AASAModel
import AASAReport
import Foundation
import TestSupport
import Testing

/// The Prometheus text the metrics output is streamed from.
@Suite struct MetricsReportTests {
    @Test func labelValuesAndHelpAreEscapedAsTheFormatSays() {
        let family = MetricsReport.Family(name: "aasa_audit_example", help: "a \\ help\nline")
        #expect(family.header == "# HELP aasa_audit_example a \\\\ help\\nline\n# TYPE aasa_audit_example gauge\n")
        #expect(
            family.sample(1, labels: ["domain": "a\"b\\c\nd"]) == "aasa_audit_example{domain=\"a\\\"b\\\\c\\nd\"} 1\n")
        #expect(family.sample(0.25) == "aasa_audit_example 0.25\n")
    }

    /// Text from a server or a file in every output, cleaned at the scalar level (issue 36,
    /// item 14, and item 11): a CR LF pair (one Character, two scalars) in a label value, NUL,
    /// ESC, BEL and a bidi override in a label, an HTML page and a GitHub annotation.
    @Test func controlsAreCleanedInEveryFormat() async throws {
        let hostile = "a\r\nb\u{0}c\u{1B}[2J\u{7}\u{202E}d"
        let sample = MetricsReport.Family(name: "x", help: "").sample(1, labels: ["code": hostile])
        #expect(sample == "x{code=\"a\u{FFFD}\\nb\u{FFFD}c\u{FFFD}[2J\u{FFFD}\u{FFFD}d\"} 1\n", "\(sample)")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("x.prom")
        try ("# HELP x h\n# TYPE x gauge\n" + sample).write(to: file, atomically: true, encoding: .utf8)
        if PrometheusTextParser.isAvailable {
            // One sample, whose value holds the line feed it escaped (printed raw by the script).
            let parsed = try await PrometheusTextParser.samples(in: file).joined(separator: "\n")
            #expect(parsed == "gauge x{code=a\u{FFFD}\nb\u{FFFD}c\u{FFFD}[2J\u{FFFD}\u{FFFD}d} 1.0", "\(parsed)")
        }
        let finding = Finding(code: .httpStatus, severity: .error, location: .wellKnown, message: hostile)
        let record = LintRecord(file: "f.json", verdict: .fail, appIDs: nil, findings: [finding], error: nil)
        let github = LintLineFormat.github.lines(record)[0]
        #expect(!github.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E }, "\(github)")
        #expect(github.contains(#"a\u{d}%0Ab\u{0}c\u{1b}[2J\u{7}\u{202e}d"#), "\(github)")
    }

    @Test func valuesAreWrittenAsPrometheusReadsThem() {
        let family = MetricsReport.Family(name: "x", help: "")
        #expect(family.sample(3) == "x 3\n")
        #expect(family.sample(-2) == "x -2\n")
        #expect(family.sample(1.5e20) == "x 1.5e+20\n")
        #expect(family.sample(.nan) == "x NaN\n")
        #expect(family.sample(.infinity) == "x +Inf\n")
        #expect(family.sample(-.infinity) == "x -Inf\n")
    }
}
