import AASAReport
import Foundation
import Synchronization

/// The previous complete run, read from `latest.json` in a thread of its own while the audit
/// starts: the report of a million domains takes seconds to read, and the first request does
/// not wait for it. The run's changes are gathered once it is read (`RunAccumulator`).
final class PreviousRunReader: Sendable {
    private enum State {
        case reading
        /// Nil when there was no readable complete run.
        case read(ReportSnapshot?)
        /// Handed over (or given up); what it held is the accumulator's now.
        case taken
    }

    private let state = Mutex(State.reading)
    private let cancelled = Atomic(false)
    private let done = DispatchSemaphore(value: 0)

    /// Reads `handle` (closed when done); nil reads nothing.
    init(_ handle: FileHandle?) {
        guard let handle else {
            state.withLock { $0 = .read(nil) }
            done.signal()
            return
        }
        let thread = Thread { [self] in
            defer { try? handle.close() }
            let lines = LineReader(handle: handle, maximumLineBytes: RunHistoryStore.maximumReportLineBytes)
            // A run cut short stops the reading: the sequence ends, the report reads as incomplete.
            let snapshot = JSONReport.snapshot(
                lines: lines.lazy.prefix { _ in !self.cancelled.load(ordering: .relaxed) })
            state.withLock { $0 = .read(snapshot) }
            done.signal()
        }
        thread.name = "aasa-audit previous run"
        thread.start()
    }

    /// The previous run once read (nil inside when there is none), without waiting; nil while
    /// it is still being read. Hands it over once.
    func takeIfRead() -> ReportSnapshot?? {
        state.withLock { state in
            guard case .read(let snapshot) = state else { return nil }
            state = .taken
            return .some(snapshot)
        }
    }

    /// Waits until it is read, then hands it over (nil when there was none, or it was taken).
    func take() -> ReportSnapshot? {
        done.wait()
        done.signal()
        return takeIfRead() ?? nil
    }

    /// Stops the reading (an interrupted run does not wait for it).
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }
}
