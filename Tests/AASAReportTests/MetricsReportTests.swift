import AASAReport
import Foundation
import TestSupport
import Testing

@testable import AASAModel

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
    @Test(.live, .tags(.live)) func controlsAreCleanedInEveryFormat() async throws {
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
        let finding = Finding(code: .aasa(.httpStatus), severity: .error, location: .wellKnown, message: hostile)
        let record = LintRecord(file: "f.json", verdict: .fail, appIDs: nil, findings: [finding], error: nil)
        let github = LintLineFormat.github.lines(record)[0]
        #expect(!github.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E }, "\(github)")
        #expect(github.contains(#"a\u{d}%0Ab\u{0}c\u{1b}[2J\u{7}\u{202e}d"#), "\(github)")
    }

    /// Each association file a domain was audited for has its own verdict, from the findings
    /// about it: a failing assetlinks.json beside a good AASA says which platform fails; a
    /// domain that serves no AASA has no `aasa` sample.
    @Test func eachFileOfADomainHasItsOwnVerdict() {
        var report = Samples.domain(findings: [
            Finding(code: .assetLinks(.status), severity: .error, location: .assetlinks, message: "m"),
            Finding(code: .webAuthn(.entryRead), severity: .info, location: .webauthn, message: "m"),
            Finding(code: .aasa(.httpContentType), severity: .warning, location: .root, message: "m"),
        ])
        report.fetches = [
            FetchRecord(location: .wellKnown, url: "https://example.com/.well-known/apple-app-site-association"),
            FetchRecord(location: .assetlinks, url: "https://example.com/.well-known/assetlinks.json"),
            FetchRecord(location: .webauthn, url: "https://example.com/.well-known/webauthn"),
        ]
        let samples = MetricsReport.fileVerdictSamples(report).split(separator: "\n").map(String.init)
        #expect(
            samples == [
                #"aasa_audit_domain_file_verdict{domain="example.com",file="aasa",verdict="warn"} 1"#,
                #"aasa_audit_domain_file_verdict{domain="example.com",file="assetlinks",verdict="fail"} 1"#,
                #"aasa_audit_domain_file_verdict{domain="example.com",file="webauthn",verdict="pass"} 1"#,
            ], "\(samples)")
        report.ios = AASAWant.iosNone
        #expect(!MetricsReport.fileVerdictSamples(report).contains(#"file="aasa""#))
    }

    /// A domain failing only through what the team acknowledged says so, with the verdict it has
    /// without it; a domain with an open failure beside an acknowledged one does not (issue 46,
    /// item 4). Each fetch is its own series: the `.json` probe and an include's fetches have
    /// labels of their own (item 6).
    @Test func acknowledgedDomainsAndEveryFetchAreTheirOwnSeries() {
        let mark = AcknowledgementMark(
            Acknowledgement(
                domain: "example.com", codes: nil, until: Samples.finished.addingTimeInterval(86400), reason: "vendor",
                by: "ana", at: Samples.started))
        func finding(_ severity: Severity, acknowledged: Bool) -> Finding {
            var finding = Finding(code: .aasa(.httpStatus), severity: severity, location: .wellKnown, message: "m")
            finding.acknowledged = acknowledged ? mark : nil
            return finding
        }
        let covered = Samples.domain(findings: [
            finding(.error, acknowledged: true), finding(.warning, acknowledged: false),
        ])
        #expect(
            MetricsReport.acknowledgedSamples(covered)
                == #"aasa_audit_domain_acknowledged{domain="example.com",open_verdict="warn"} 1"# + "\n")
        let open = Samples.domain(findings: [finding(.error, acknowledged: true), finding(.error, acknowledged: false)])
        #expect(MetricsReport.acknowledgedSamples(open).isEmpty)
        #expect(MetricsReport.acknowledgedSamples(Samples.domain(findings: [])).isEmpty)

        var report = Samples.domain(findings: [])
        var json = FetchRecord(
            location: .wellKnown, url: "https://example.com/.well-known/apple-app-site-association.json")
        json.status = 200
        var browser = FetchRecord(
            location: .wellKnown, url: "https://example.com/.well-known/apple-app-site-association")
        browser.agent = .browser
        let links = (1...3).map { FetchRecord(location: .assetlinks, url: "https://example.com/\($0).json") }
        report.fetches += [json, browser] + links
        let names = MetricsReport.fetchSamples(report).split(separator: "\n").map { $0.prefix { $0 != " " } }
        #expect(Set(names).count == names.count, "\(names)")
        #expect(
            names.map { $0.components(separatedBy: "fetch=\"").last ?? "" } == [
                "well-known\"}", "root\"}", "well-known-json\"}", "well-known-browser\"}", "assetlinks\"}",
                "assetlinks-2\"}", "assetlinks-3\"}",
            ])
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
