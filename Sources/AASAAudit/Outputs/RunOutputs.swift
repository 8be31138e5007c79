import AASAModel
import Foundation

/// The outputs of a run: the JSON and HTML reports always (the JSON report's spool is the run's
/// stream of records, `domains.jsonl`), JUnit and metrics when asked for.
struct Outputs {
    let json = SpooledDocumentOutput(JSONReportFormat(), to: .runFile(OutputFolderLayout.runJSON))
    let html: SpooledDocumentOutput<HTMLReportFormat>
    let junit: (any RunOutput)?
    /// Finished last, after the notification, whose outcome it counts.
    let metrics: (any RunOutput)?

    init(settings: AuditSettings) {
        html = SpooledDocumentOutput(
            HTMLReportFormat(listsEveryDomainUpTo: settings.htmlListsEveryDomainUpTo),
            to: .runFile(OutputFolderLayout.runHTML))
        junit = settings.junitFile.map {
            SpooledDocumentOutput(JUnitFormat(threshold: settings.failOn), to: .file($0, option: "\(OptionName.junit)"))
        }
        metrics = settings.metricsFile.map { MetricsOutput(to: $0) }
    }

    var all: [any RunOutput] { [json, html] + [junit, metrics].compactMap { $0 } }

    /// Opens every output before any fetch: one that cannot be written is a usage error naming
    /// its option and path ("cannot write --metrics FILE: Permission denied").
    func start(_ run: RunStart) throws(AuditRunError) {
        var started: [any RunOutput] = []
        for output in all {
            do {
                try output.start(run)
                started.append(output)
            } catch {
                started.forEach { $0.discard() }
                throw .reports("cannot write \(output.name): \(OutputWriting.describe(error))")
            }
        }
    }

    /// A domain's JSON record (its `domains.jsonl` line), from its rendered pieces: the JSON
    /// report is the first output.
    func jsonRecord(_ rendered: [Data?]) -> Data? { rendered.first ?? nil }

    func add(_ domain: AuditedDomain, rendered: [Data?]) throws {
        for (output, piece) in zip(all, rendered) { try output.add(domain, rendered: piece) }
    }

    /// Writes the reports (JSON, HTML, JUnit); returns the JSON and HTML reports' files.
    func finishReports(_ run: FinishedRun) throws(OutputWriting) -> (json: URL, html: URL) {
        let written = (json: try finish(json, run), html: try finish(html, run))
        if let junit { try finish(junit, run) }
        return written
    }

    /// Writes the metrics, once the notification (if any) was made.
    func finishMetrics(_ run: FinishedRun) throws(OutputWriting) {
        if let metrics { try finish(metrics, run) }
    }

    @discardableResult
    private func finish(_ output: any RunOutput, _ run: FinishedRun) throws(OutputWriting) -> URL {
        do { return try output.finish(run) } catch { throw OutputWriting(output: output.name, error: error) }
    }

    func discard() {
        all.forEach { $0.discard() }
    }
}

/// An output that could not be written once the run had begun (a full disk): which, and why,
/// in words (the system's, not Foundation's error dump).
struct OutputWriting: Error, CustomStringConvertible {
    var output: String
    var reason: String

    init(output: String, error: Error) {
        self.output = output
        reason = Self.describe(error)
    }

    var description: String { "cannot write \(output): \(reason)" }

    /// The system's words for a file error ("No space left on device"), else the error's own.
    static func describe(_ error: Error) -> String {
        if let writing = error as? OutputWriting { return writing.reason }
        return BoundedFileReader.describe(error)
    }
}
