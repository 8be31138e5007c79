import CCrashNote
import Dispatch

/// The executor a domain's audit runs on in a run (`AuditLoop`): each of its jobs runs on a
/// thread of the shared pool that names the domain to the crash handler while the job runs
/// (`crashnote_blame`). So a fault in that domain's work (a check, a parser, a C library it
/// calls) leaves `blame DOMAIN` in the run's crash marker, and the run after reports that one
/// domain, not every domain that was in flight with it (issue 54, "a crash costs that domain").
///
/// Work the domain hands to other executors (an actor's, libcurl's loop thread) names nothing:
/// a crash there is no one domain's, and `CrashCarry` falls back to the domains in flight.
final class BlamedExecutor: TaskExecutor, Sendable {
    /// The domain's bytes, not NUL-terminated (`crashnote_blame` copies `count` bytes).
    private let name: [CChar]

    init(_ domain: String) {
        name = Array(domain.utf8).map { CChar(bitPattern: $0) }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.global().async {
            // The pointer lives inside the closure only; the handler copied what it needs.
            self.name.withUnsafeBufferPointer { crashnote_blame($0.baseAddress, $0.count) }
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            crashnote_blame(nil, 0)
        }
    }
}
