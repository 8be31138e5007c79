import AASAAudit
import AASAReport

/// `/metrics`: the newest run's series (the run's own metrics file prints the same, from the
/// same code) and the server's counters.
extension ServeApp {
    func metrics() -> ServeResponse {
        var text = ""
        if let latest = HistoryQuery.latestRun(output: settings.output) {
            text += MetricsReport.runSection(run: latest.run, summary: latest.summary)
        }
        text += counters.prometheus(activeChecks: activeChecks)
        return ServeResponse(status: 200, type: "text/plain; version=0.0.4; charset=utf-8", text)
    }
}
