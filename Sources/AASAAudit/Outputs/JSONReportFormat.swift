import AASAModel
import AASAReport
import Foundation

/// `report.json`: a domain's piece is its compact record, one a line (`JSONReport`). The spool
/// of those lines, in the order the domains finish, is kept as the run's `domains.jsonl`: the
/// stream `tail -f` and DuckDB read while the run goes on, written once for both.
struct JSONReportFormat: SpooledDocumentFormat {
    static let streamName = OutputFolderLayout.domainStream
    var spoolName: String { Self.streamName }
    var keepsSpool: Bool { true }

    func render(_ domain: AuditedDomain) -> Data {
        var line = JSONReport.encodeRecord(domain.report)
        line.append(0x0A)
        return line
    }

    func write(_ run: FinishedRun, pieces: OrderedSpool, to write: (Data) throws -> Void) throws {
        try JSONReport.writeDocument(
            tool: run.tool, run: run.run, summary: run.summary, input: run.input, changes: run.changes,
            records: { body in try pieces.forEachInOrder { try body($0.dropLast()) } }, to: write)
    }
}
