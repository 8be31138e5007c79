import Foundation

/// The outputs of a run: the JSON and HTML reports always (the JSON report's spool is the run's
/// stream of records, `domains.jsonl`), JUnit and metrics when asked for.
struct Outputs {
    let json = SpooledDocumentOutput(JSONReportFormat(), to: .runFile("report.json"))
    let html: SpooledDocumentOutput<HTMLReportFormat>
    let junit: (any RunOutput)?
    /// Finished last, after the notification, whose outcome it counts.
    let metrics: (any RunOutput)?

    init(settings: AuditSettings) {
        html = SpooledDocumentOutput(
            HTMLReportFormat(listsEveryDomainUpTo: settings.htmlListsEveryDomainUpTo), to: .runFile("report.html"))
        junit = settings.junitFile.map { SpooledDocumentOutput(JUnitFormat(threshold: settings.failOn), to: .file($0)) }
        metrics = settings.metricsFile.map { MetricsOutput(to: $0) }
    }

    var all: [any RunOutput] { [json, html] + [junit, metrics].compactMap { $0 } }

    func start(_ run: RunStart) throws(AuditRunError) {
        var started: [any RunOutput] = []
        do {
            for output in all {
                try output.start(run)
                started.append(output)
            }
        } catch {
            started.forEach { $0.discard() }
            throw .reports("cannot write the reports: \(error)")
        }
    }

    /// A domain's JSON record (its `domains.jsonl` line), from its rendered pieces: the JSON
    /// report is the first output.
    func jsonRecord(_ rendered: [Data?]) -> Data? { rendered.first ?? nil }

    func add(_ domain: AuditedDomain, rendered: [Data?]) throws {
        for (output, piece) in zip(all, rendered) { try output.add(domain, rendered: piece) }
    }

    /// Writes the reports (JSON, HTML, JUnit); returns the JSON and HTML reports' files.
    func finishReports(_ run: FinishedRun) throws -> (json: URL, html: URL) {
        let written = (json: try json.finish(run), html: try html.finish(run))
        try junit?.finish(run)
        return written
    }

    /// Writes the metrics, once the notification (if any) was made.
    func finishMetrics(_ run: FinishedRun) throws {
        try metrics?.finish(run)
    }

    func discard() {
        all.forEach { $0.discard() }
    }
}
