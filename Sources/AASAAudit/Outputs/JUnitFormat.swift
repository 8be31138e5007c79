import AASAModel
import AASAReport
import Foundation

/// JUnit XML (`--junit`): a domain's piece is its test case, failing at `threshold`.
struct JUnitFormat: SpooledDocumentFormat {
    let junit = JUnitReport()
    let threshold: Severity

    var spoolName: String { ".junit.spool" }

    func render(_ domain: AuditedDomain) -> Data {
        Data(junit.testCase(domain.report, threshold: threshold).utf8)
    }

    func write(_ run: FinishedRun, pieces: OrderedSpool, to write: (Data) throws -> Void) throws {
        // A run this machine could not check properly: every case skipped, with the reason.
        if let problems = run.summary.auditorProblems {
            let reason = "Not checked properly: " + problems.joined(separator: " ")
            try write(
                Data(junit.head(run: run.run, summary: run.summary, failures: 0, skipped: run.summary.domains).utf8))
            try pieces.forEachInOrder { try write(junit.skipped($0, reason: reason)) }
            try write(Data(JUnitReport.tail.utf8))
            return
        }
        // A domain's case fails exactly when its verdict fails at the threshold.
        let failures = run.summary.verdicts.fail + (threshold <= .warning ? run.summary.verdicts.warn : 0)
        try write(Data(junit.head(run: run.run, summary: run.summary, failures: failures).utf8))
        try pieces.forEachInOrder(write)
        try write(Data(JUnitReport.tail.utf8))
    }
}
