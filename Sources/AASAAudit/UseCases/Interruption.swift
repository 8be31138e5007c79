import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into cancellation of a running task, so that an audit stops within
/// seconds and still writes what it has. A second signal ends the process at once.
///
/// A `sigaction` handler, not a Dispatch signal source: on Linux a Dispatch source reads the
/// signal through a signalfd and blocks it only in the thread that made the source, so a
/// signal the kernel hands to any other thread (the concurrency pool's, curl's) was discarded
/// by the SIG_IGN the source needs; runs then ignored SIGTERM. The handler runs in whichever
/// thread gets the signal and only writes its number to a pipe; a thread of ours reads it.
/// Made before the task starts, so that a signal that comes first cancels the task as soon as
/// it is attached.
public final class Interruption {
    /// The first signal received and the task to cancel; shared with the reading thread.
    private final class State: Sendable {
        struct Value {
            var signal: Int32?
            var cancel: (@Sendable () -> Void)?
        }

        let value = Mutex(Value())
    }

    private let state = State()

    /// The signal that interrupted the run, if one did.
    var signal: Int32? { state.value.withLock { $0.signal } }

    /// `message`: what the first signal prints (the audit writes its report of what it did).
    public init(
        console: any Console, signals: [Int32] = [SIGINT, SIGTERM],
        message: String = "interrupted; writing the report of what was audited (again to quit at once)"
    ) {
        guard let readEnd = SignalPipe.install(for: signals) else { return }
        let thread = Thread { [state] in
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 {
                let number = Int32(byte)
                let (first, cancel) = state.value.withLock { value in
                    defer { value.signal = value.signal ?? number }
                    return (value.signal == nil, value.cancel)
                }
                guard first else { _exit(128 + number) }
                console.printError("\naasa-audit: \(message)\n")
                cancel?()
            }
        }
        thread.name = "aasa-audit signals"
        thread.start()
    }

    /// Calls `body` on the first signal (at once, when one came already): `serve` drains
    /// rather than cancels.
    public func calls(_ body: @escaping @Sendable () -> Void) {
        let alreadySignalled = state.value.withLock { value in
            value.cancel = body
            return value.signal != nil
        }
        if alreadySignalled { body() }
    }

    /// Cancels `task` on the first signal (at once, when one came already).
    func cancels(_ task: Task<some Sendable, some Error>) {
        calls { task.cancel() }
    }
}

/// The write end of the signal pipe, read by the handler. A constant-initialised global, so the
/// handler touches no lazily initialised state (it must stay async-signal-safe).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

private enum SignalPipe {
    /// Makes the pipe once per process and installs the handler; returns the read end.
    static func install(for signals: [Int32]) -> Int32? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        signalPipeWriteEnd = ends[1]
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        return ends[0]
    }
}
