import Foundation

/// The outputs of a run: the JSON and HTML reports always, JUnit and metrics when asked for.
struct Outputs {
    let json = SpooledDocumentOutput(JSONReportFormat(), to: .runFile("report.json"))
    let html = SpooledDocumentOutput(HTMLReportFormat(), to: .runFile("report.html"))
    let others: [any RunOutput]

    init(settings: AuditSettings) {
        var others: [any RunOutput] = []
        if let junit = settings.junitFile { others.append(SpooledDocumentOutput(JUnitFormat(threshold: settings.failOn), to: .file(junit))) }
        if let metrics = settings.metricsFile { others.append(MetricsOutput(to: metrics)) }
        self.others = others
    }

    var all: [any RunOutput] { [json, html] + others }

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

    func add(_ domain: AuditedDomain, rendered: [Data?]) throws {
        for (output, piece) in zip(all, rendered) { try output.add(domain, rendered: piece) }
    }

    /// Writes every output; returns the JSON and HTML reports' files.
    func finish(_ run: FinishedRun) throws -> (json: URL, html: URL) {
        let written = (json: try json.finish(run), html: try html.finish(run))
        for output in others { try output.finish(run) }
        return written
    }

    func discard() {
        all.forEach { $0.discard() }
    }
}
