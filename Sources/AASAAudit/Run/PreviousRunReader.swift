import AASAReport
import Foundation
import Synchronization

/// The previous complete run, read from `latest.json` in a thread of its own while the audit
/// starts: the report of a million domains takes seconds to read, and the first request does
/// not wait for it. Its domains go to a scratch database (`PreviousRunRecords`), not memory;
/// the run's changes are gathered once it is read (`RunAccumulator`).
final class PreviousRunReader: Sendable {
    /// The previous run, read.
    struct Run: Sendable {
        var startedAt: Date
        var records: PreviousRunRecords
    }

    private enum State {
        case reading
        /// Nil when there was no readable complete run.
        case read(Run?)
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
            let run = load(handle)
            state.withLock { $0 = .read(run) }
            done.signal()
        }
        thread.name = "aasa-audit previous run"
        thread.start()
    }

    /// Reads the report into a store on disk; where that fails (no temporary file can be made
    /// or written), into one in memory. Nil when there is no readable complete report.
    private func load(_ handle: FileHandle) -> Run? {
        for inMemory in [false, true] {
            // Read again from the start for the second try (a pipe, which cannot be, has one try).
            if inMemory { guard (try? handle.seek(toOffset: 0)) != nil else { return nil } }
            let lines = LineReader(handle: handle, maximumLineBytes: RunHistoryStore.maximumReportLineBytes)
            do {
                let records = try PreviousRunRecords(inMemory: inMemory)
                // A run cut short stops the reading: the sequence ends, the report reads as incomplete.
                guard
                    let snapshot = try JSONReport.snapshot(
                        lines: lines.lazy.prefix { _ in !self.cancelled.load(ordering: .relaxed) },
                        each: { try records.add($0) })
                else { return nil }
                try records.finishLoading()
                return Run(startedAt: snapshot.startedAt, records: records)
            } catch {
                continue
            }
        }
        return nil
    }

    /// The previous run once read (nil inside when there is none), without waiting; nil while
    /// it is still being read. Hands it over once.
    func takeIfRead() -> Run?? {
        state.withLock { state in
            guard case .read(let snapshot) = state else { return nil }
            state = .taken
            return .some(snapshot)
        }
    }

    /// Waits until it is read, then hands it over (nil when there was none, or it was taken).
    func take() -> Run? {
        done.wait()
        done.signal()
        return takeIfRead() ?? nil
    }

    /// Stops the reading (an interrupted run does not wait for it).
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }
}
