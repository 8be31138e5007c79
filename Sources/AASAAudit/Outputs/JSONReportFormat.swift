import AASAModel
import AASAReport
import Foundation

/// `report.json`: a domain's piece is its compact record, one a line (`JSONReport`).
struct JSONReportFormat: SpooledDocumentFormat {
    var spoolName: String { ".records.spool" }

    func render(_ domain: AuditedDomain) -> Data {
        JSONReport.encodeRecord(domain.report)
    }

    func write(_ run: FinishedRun, pieces: OrderedSpool, to write: (Data) throws -> Void) throws {
        try JSONReport.writeDocument(
            tool: run.tool, run: run.run, summary: run.summary, input: run.input, changes: run.changes,
            records: pieces.forEachInOrder, to: write)
    }
}
