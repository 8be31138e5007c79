import AASAModel
import AASAReport
import Foundation
import Synchronization

/// Prometheus metrics (`--metrics`), streamed: each domain's samples of each per-domain family
/// (`MetricsReport.domainFamilies`) go to a spool per family as it completes (a family's samples
/// must stay together), which are copied into the file when the run finishes, followed by the run's families (from the
/// run's summary, as `serve` prints them). A run this machine could not check properly gives
/// no per-domain series: its failures are not the sites'.
final class MetricsOutput: RunOutput {
    private struct Open {
        var writer: AtomicFileWriter
        /// One per family of `MetricsReport.domainFamilies`, in its order.
        var spools: [AtomicFileWriter]
    }

    let destination: URL
    var name: String { "\(OptionName.metrics) \(destination.path)" }
    private let state = Mutex<Open?>(nil)

    init(to destination: URL) {
        self.destination = destination
    }

    func start(_ run: RunStart) throws {
        try state.withLock { open in
            let writer = try AtomicFileWriter(destination: destination)
            var spools: [AtomicFileWriter] = []
            do {
                for (family, _) in MetricsReport.domainFamilies {
                    let spool = try AtomicFileWriter.spool(named: "aasa-audit-metrics")
                    spools.append(spool)
                    try spool.write(family.header)
                }
                open = Open(writer: writer, spools: spools)
            } catch {
                writer.abandon()
                spools.forEach { $0.abandon() }
                throw error
            }
        }
    }

    func render(_ domain: AuditedDomain) -> Data? { nil }

    func add(_ domain: AuditedDomain, rendered: Data?) throws {
        try state.withLock { open in
            guard let spools = open?.spools else { return }
            for (spool, family) in zip(spools, MetricsReport.domainFamilies) {
                try spool.write(family.samples(domain.report))
            }
        }
    }

    func finish(_ run: FinishedRun) throws -> URL {
        try state.withLock { open in
            guard let current = open else { throw CocoaError(.fileWriteUnknown) }
            open = nil
            defer { current.spools.forEach { $0.abandon() } }
            return try current.writer.complete { writer in
                if run.summary.auditorProblems == nil {
                    for spool in current.spools { try spool.copyWritten(to: writer) }
                }
                try writer.write(MetricsReport.runSection(run: run.run, summary: run.summary))
                if let notification = run.notification {
                    try writer.write(
                        MetricsReport.notificationSection(
                            state: notification.state.rawValue, attempts: notification.attempts.count))
                }
            }
        }
    }

    func discard() {
        state.withLock { open in
            open?.writer.abandon()
            open?.spools.forEach { $0.abandon() }
            open = nil
        }
    }
}
