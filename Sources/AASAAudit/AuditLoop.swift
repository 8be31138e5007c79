import AASAModel
import Foundation

/// The bounded concurrent loop of a run: at most `concurrency` domains in flight, each audited
/// and rendered for every output in a task of its own (so that every core shares that work);
/// the collector gets them one at a time, in completion order.
enum AuditLoop {
    struct Completed: Sendable {
        var domain: AuditedDomain
        /// Each output's piece, in the order of the outputs.
        var rendered: [Data?]
    }

    /// Starts no new domain once the calling task is cancelled; a domain whose fetches were cut
    /// short by the cancellation is not audited, so it is not handed to `completed`.
    static func run(
        targets: [DomainTarget], concurrency: Int, auditor: DomainAuditor, outputs: [any RunOutput],
        completed: (Completed) -> Void
    ) async {
        await withTaskGroup(of: Completed?.self) { group in
            var next = 0
            func addNext() {
                guard next < targets.count, !Task.isCancelled else { return }
                let index = next
                next += 1
                group.addTask {
                    let outcome = await auditor.audit(targets[index])
                    if outcome.report.fetches.contains(where: { $0.error?.kind == .cancelled }) { return nil }
                    let domain = AuditedDomain(index: index, report: outcome.report, served: outcome.served)
                    return Completed(domain: domain, rendered: outputs.map { $0.render(domain) })
                }
            }
            for _ in 0..<min(max(1, concurrency), targets.count) { addNext() }
            for await result in group {
                if let result { completed(result) }
                addNext()
            }
        }
    }
}
