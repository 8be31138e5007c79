import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into cancellation of a running task, so that an audit stops within
/// seconds and still writes what it has. A second signal ends the process at once.
///
/// Made before the task starts, so that no signal falls between the run's start and the
/// handlers: a signal that comes first cancels the task as soon as it is attached.
final class Interruption {
    /// The first signal received and the task to cancel; shared with the signal handlers.
    private final class State: Sendable {
        struct Value {
            var signal: Int32?
            var cancel: (@Sendable () -> Void)?
        }

        let value = Mutex(Value())
    }

    private let state = State()
    private let sources: [DispatchSourceSignal]

    /// The signal that interrupted the run, if one did.
    var signal: Int32? { state.value.withLock { $0.signal } }

    /// Cancels `task` on the first signal (at once, when one came already).
    func cancels(_ task: Task<some Sendable, some Error>) {
        let alreadySignalled = state.value.withLock { value in
            value.cancel = { task.cancel() }
            return value.signal != nil
        }
        if alreadySignalled { task.cancel() }
    }

    init(console: any Console, signals: [Int32] = [SIGINT, SIGTERM]) {
        var sources: [DispatchSourceSignal] = []
        for number in signals {
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            sources.append(source)
        }
        self.sources = sources
        for (number, source) in zip(signals, sources) {
            source.setEventHandler { [state] in
                let (first, cancel) = state.value.withLock { value in
                    defer { value.signal = value.signal ?? number }
                    return (value.signal == nil, value.cancel)
                }
                if first {
                    console.printError("\naasa-audit: interrupted; writing the report of what was audited (again to quit at once)\n")
                    cancel?()
                } else {
                    _exit(128 + number)
                }
            }
            source.resume()
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }
}
