import AASAModel
import AASAReport
import Foundation
import Synchronization

/// Prometheus metrics (`--metrics`), streamed: each domain's verdict samples and its fetch
/// durations go to two spools as it completes (a family's samples must stay together), which
/// are copied into the file when the run finishes, followed by the run's families (from the
/// run's summary, as `serve` prints them). A run this machine could not check properly gives
/// no per-domain series: its failures are not the sites'.
final class MetricsOutput: RunOutput {
    private struct Open {
        var writer: AtomicFileWriter
        var verdicts: AtomicFileWriter
        var durations: AtomicFileWriter
    }

    let destination: URL
    private let state = Mutex<Open?>(nil)

    init(to destination: URL) {
        self.destination = destination
    }

    func start(_ run: RunStart) throws {
        try state.withLock { open in
            let writer = try AtomicFileWriter(destination: destination)
            var spools: [AtomicFileWriter] = []
            do {
                spools.append(try AtomicFileWriter.spool(named: "aasa-audit-metrics-verdicts"))
                spools.append(try AtomicFileWriter.spool(named: "aasa-audit-metrics-durations"))
                try spools[0].write(MetricsReport.domainVerdict.header)
                try spools[1].write(MetricsReport.fetchDuration.header)
                open = Open(writer: writer, verdicts: spools[0], durations: spools[1])
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
            guard open != nil else { return }
            try open!.verdicts.write(MetricsReport.verdictSamples(domain.report))
            try open!.durations.write(MetricsReport.fetchSamples(domain.report))
        }
    }

    func finish(_ run: FinishedRun) throws -> URL {
        try state.withLock { open in
            guard let current = open else { throw CocoaError(.fileWriteUnknown) }
            open = nil
            defer {
                current.verdicts.abandon()
                current.durations.abandon()
            }
            return try current.writer.complete { writer in
                if run.summary.auditorProblems == nil {
                    try current.verdicts.copyWritten(to: writer)
                    try current.durations.copyWritten(to: writer)
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
            open?.verdicts.abandon()
            open?.durations.abandon()
            open = nil
        }
    }
}
