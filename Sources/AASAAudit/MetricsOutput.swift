import AASAModel
import AASAReport
import Foundation
import Synchronization

/// Prometheus metrics (`--metrics`): each domain is added to the metrics as it completes; the
/// exposition text is written when the run finishes.
final class MetricsOutput: RunOutput {
    private struct Open {
        var writer: AtomicFileWriter
        var metrics: MetricsReport
    }

    let destination: URL
    private let state = Mutex<Open?>(nil)

    init(to destination: URL) {
        self.destination = destination
    }

    func start(_ run: RunStart) throws {
        try state.withLock { $0 = Open(writer: try AtomicFileWriter(destination: destination), metrics: MetricsReport()) }
    }

    func render(_ domain: AuditedDomain) -> Data? { nil }

    func add(_ domain: AuditedDomain, rendered: Data?) throws {
        state.withLock { $0?.metrics.add(domain.report) }
    }

    func finish(_ run: FinishedRun) throws -> URL {
        try state.withLock { open in
            guard let current = open else { throw CocoaError(.fileWriteUnknown) }
            open = nil
            return try current.writer.complete { try $0.write(Data(current.metrics.render(run: run.run, summary: run.summary).utf8)) }
        }
    }

    func discard() {
        state.withLock { open in
            open?.writer.abandon()
            open = nil
        }
    }
}
