import Foundation

/// Turns SIGINT and SIGTERM into cancellation of a running task, so that an audit stops within
/// seconds and still writes what it has. A second signal ends the process at once.
final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var received: Int32?
    private var sources: [DispatchSourceSignal] = []

    /// The signal that interrupted the run, if one did.
    var signal: Int32? { lock.withLock { received } }

    /// The exit status of a process ended by the signal: 128 + its number (130, 143).
    var exitStatus: Int32? { signal.map { 128 + $0 } }

    init(cancelling task: Task<some Sendable, some Error>, signals: [Int32] = [SIGINT, SIGTERM]) {
        for number in signals {
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                let first = lock.withLock {
                    defer { received = received ?? number }
                    return received == nil
                }
                if first {
                    Terminal.printError("\naasa-audit: interrupted; writing the report of what was audited (again to quit at once)\n")
                    task.cancel()
                } else {
                    _exit(128 + number)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }
}
