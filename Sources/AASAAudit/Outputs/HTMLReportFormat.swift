import AASAModel
import AASAReport
import Foundation

/// `report.html`: a domain's piece is its row; a served file is shown in full only in the row
/// of the first domain that served it (`ServedFileRegistry`).
struct HTMLReportFormat: SpooledDocumentFormat {
    let html = HTMLReport()
    let registry = ServedFileRegistry()

    var spoolName: String { ".rows.spool" }

    func render(_ domain: AuditedDomain) -> Data {
        // A compact (passing) row shows no file, so it registers none: the first full row that
        // serves the same bytes shows them.
        let files =
            HTMLReport.isCompact(domain.report)
            ? [] : domain.served.map { registry.display($0, domain: domain.report.domain, row: domain.index) }
        return Data(html.row(index: domain.index, report: domain.report, files: files).utf8)
    }

    func write(_ run: FinishedRun, pieces: OrderedSpool, to write: (Data) throws -> Void) throws {
        try write(
            Data(
                html.head(tool: run.tool, run: run.run, summary: run.summary, input: run.input, changes: run.changes)
                    .utf8))
        try pieces.forEachInOrder(write)
        try write(Data(html.tail(tool: run.tool).utf8))
    }
}
