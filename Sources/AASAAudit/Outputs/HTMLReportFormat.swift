import AASAModel
import AASAReport
import Foundation
import Synchronization

/// `report.html`: a domain's piece is its row; a served file is shown in full only in the row
/// of the first domain that served it (`ServedFileRegistry`). Above `listsEveryDomainUpTo`
/// domains, passing domains without findings get no row and are counted instead.
struct HTMLReportFormat: SpooledDocumentFormat {
    let html = HTMLReport()
    let registry = ServedFileRegistry()
    let listsEveryDomainUpTo: Int
    private let fleet = Fleet()

    /// Whether this run's page lists every domain, and how many it left out.
    final class Fleet: Sendable {
        let listsEveryDomain = Atomic(true)
        let unlisted = Atomic(0)
    }

    init(listsEveryDomainUpTo: Int = HTMLReport.fleetThreshold) {
        self.listsEveryDomainUpTo = listsEveryDomainUpTo
    }

    var spoolName: String { ".rows.spool" }

    func start(_ run: RunStart) {
        fleet.listsEveryDomain.store(run.domainCount <= listsEveryDomainUpTo, ordering: .relaxed)
        fleet.unlisted.store(0, ordering: .relaxed)
    }

    func render(_ domain: AuditedDomain) -> Data {
        if HTMLReport.isCompact(domain.report), !fleet.listsEveryDomain.load(ordering: .relaxed) {
            fleet.unlisted.add(1, ordering: .relaxed)
            return Data()
        }
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
        try write(
            Data(
                html.unlistedNotice(count: fleet.unlisted.load(ordering: .relaxed), threshold: listsEveryDomainUpTo)
                    .utf8))
        try pieces.forEachInOrder(write)
        try write(Data(html.tail(tool: run.tool).utf8))
    }
}
