import AASAReport
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
