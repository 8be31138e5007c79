import AASAModel
import AASAReport
import Foundation
import Synchronization

/// Prometheus metrics (`--metrics`), streamed: each domain's verdict samples go to the file as
/// it completes, its fetch durations to a second file beside it (a family's samples must stay
/// together), which is appended when the run finishes, followed by the run's families (from the
/// run's summary, as `serve` prints them).
final class MetricsOutput: RunOutput {
    private struct Open {
        var writer: AtomicFileWriter
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
            do {
                let durations = try AtomicFileWriter.spool(named: "aasa-audit-metrics-durations")
                try writer.write(MetricsReport.domainVerdict.header)
                try durations.write(MetricsReport.fetchDuration.header)
                open = Open(writer: writer, durations: durations)
            } catch {
                writer.abandon()
                throw error
            }
        }
    }

    func render(_ domain: AuditedDomain) -> Data? { nil }

    func add(_ domain: AuditedDomain, rendered: Data?) throws {
        try state.withLock { open in
            guard open != nil else { return }
            try open!.writer.write(MetricsReport.verdictSamples(domain.report))
            try open!.durations.write(MetricsReport.fetchSamples(domain.report))
        }
    }

    func finish(_ run: FinishedRun) throws -> URL {
        try state.withLock { open in
            guard let current = open else { throw CocoaError(.fileWriteUnknown) }
            open = nil
            defer { current.durations.abandon() }
            return try current.writer.complete { writer in
                try current.durations.copyWritten(to: writer)
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
            open?.durations.abandon()
            open = nil
        }
    }
}
