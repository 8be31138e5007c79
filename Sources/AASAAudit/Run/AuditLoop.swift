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
        /// The domain in flight the longest once this one is done, and since when: what the run
        /// waits on (nil when none is left).
        var oldestInFlight: (domain: String, since: ContinuousClock.Instant)?
    }

    /// A domain's outcome rendered for every output; nil when its fetches were cut short.
    /// A plain function, so that its values live on the thread's stack, not in the task's
    /// allocator for as long as the task runs (docs/performance.md, memory per domain).
    @inline(never)
    static func rendered(_ index: Int, _ outcome: DomainOutcome, outputs: [any RunOutput]) -> Completed? {
        if outcome.report.fetches.contains(where: { $0.error?.kind == .cancelled }) { return nil }
        let domain = AuditedDomain(index: index, report: outcome.report, served: outcome.served)
        return Completed(domain: domain, rendered: outputs.map { $0.render(domain) })
    }

    /// A domain audited and rendered, its audit written to the in-flight log around it (a crash
    /// in between leaves its row: `CrashCarry`); with a log, on an executor that names the domain
    /// to the crash handler (`BlamedExecutor`).
    static func audited(
        _ index: Int, _ target: DomainTarget, alone: Bool, auditor: DomainAuditor, outputs: [any RunOutput],
        inFlight: InFlightLog?
    ) async -> Completed? {
        guard let inFlight else {
            return Self.rendered(index, await auditor.audit(target), outputs: outputs)
        }
        inFlight.started(target.domain, alone: alone)
        let completed = await withTaskExecutorPreference(BlamedExecutor(target.domain)) {
            let outcome = await auditor.audit(target)
            TestFault.strike(target.domain)
            return Self.rendered(index, outcome, outputs: outputs)
        }
        inFlight.ended(target.domain)
        if alone, completed != nil { inFlight.cleared(target.domain) }
        return completed
    }

    /// Starts no new domain once the calling task is cancelled; a domain whose fetches were cut
    /// short by the cancellation is not audited, so it is not handed to `completed`.
    /// - Parameters:
    ///   - skipping: positions not to audit (already done: `--resume`).
    ///   - alone: positions audited one at a time, before the rest (an earlier crash's suspects).
    static func run(
        targets: [DomainTarget], skipping: [Bool]? = nil, alone: [Int] = [], concurrency: Int,
        auditor: DomainAuditor, outputs: [any RunOutput], inFlight: InFlightLog? = nil,
        completed: (Completed) -> Void
    ) async {
        for index in alone where !Task.isCancelled {
            let result = await audited(
                index, targets[index], alone: true, auditor: auditor, outputs: outputs, inFlight: inFlight)
            if let result { completed(result) }
        }
        let aloneSet = Set(alone)
        await withTaskGroup(of: Completed?.self) { group in
            var next = 0
            var started: [Int: ContinuousClock.Instant] = [:]
            func addNext() {
                while next < targets.count, skipping?[next] == true || aloneSet.contains(next) { next += 1 }
                guard next < targets.count, !Task.isCancelled else { return }
                let index = next
                next += 1
                started[index] = .now
                group.addTask {
                    await audited(
                        index, targets[index], alone: false, auditor: auditor, outputs: outputs, inFlight: inFlight)
                }
            }
            for _ in 0..<min(max(1, concurrency), targets.count) { addNext() }
            for await result in group {
                if var result {
                    started[result.domain.index] = nil
                    addNext()
                    result.oldestInFlight = started.min { $0.value < $1.value }.map {
                        (targets[$0.key].domain, $0.value)
                    }
                    completed(result)
                } else {
                    addNext()
                }
            }
        }
    }
}
