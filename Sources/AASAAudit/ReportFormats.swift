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
        try JSONReport.writeDocument(tool: run.tool, run: run.run, summary: run.summary, input: run.input, changes: run.changes, records: pieces.forEachInOrder, to: write)
    }
}

/// `report.html`: a domain's piece is its row; a served file is shown in full only in the row
/// of the first domain that served it (`ServedFileRegistry`).
struct HTMLReportFormat: SpooledDocumentFormat {
    let html = HTMLReport()
    let registry = ServedFileRegistry()

    var spoolName: String { ".rows.spool" }

    func render(_ domain: AuditedDomain) -> Data {
        let files = domain.served.map { registry.display($0, domain: domain.report.domain, row: domain.index) }
        return Data(html.row(index: domain.index, report: domain.report, files: files).utf8)
    }

    func write(_ run: FinishedRun, pieces: OrderedSpool, to write: (Data) throws -> Void) throws {
        try write(Data(html.head(tool: run.tool, run: run.run, summary: run.summary, input: run.input, changes: run.changes).utf8))
        try pieces.forEachInOrder(write)
        try write(Data(html.tail(tool: run.tool).utf8))
    }
}

/// JUnit XML (`--junit`): a domain's piece is its test case, failing at `threshold`.
struct JUnitFormat: SpooledDocumentFormat {
    let junit = JUnitReport()
    let threshold: Severity

    var spoolName: String { ".junit.spool" }

    func render(_ domain: AuditedDomain) -> Data {
        Data(junit.testCase(domain.report, threshold: threshold).utf8)
    }

    func write(_ run: FinishedRun, pieces: OrderedSpool, to write: (Data) throws -> Void) throws {
        // A domain's case fails exactly when its verdict fails at the threshold.
        let failures = run.summary.verdicts.fail + (threshold <= .warning ? run.summary.verdicts.warn : 0)
        try write(Data(junit.head(run: run.run, summary: run.summary, failures: failures).utf8))
        try pieces.forEachInOrder(write)
        try write(Data(JUnitReport.tail.utf8))
    }
}
