import AASAModel
import Foundation

/// What a crash leaves to the runs after it, so that one domain that crashes the process costs
/// that domain, not the night (issue 54). Pure: the previous log's contents in, a plan out.
///
/// - A domain in flight **alone** at a crash crashed the process: a **culprit**. It is not
///   fetched again by this version for `quarantineDays`; each run reports it `audit.crashed`.
/// - Domains in flight **together** at a crash are **suspects**: the run that resumes reports
///   them `audit.crashed` (not fetched again in a process that crashed with them), and the next
///   night audits each alone, before the rest: one that crashes then is a culprit, the others are
///   cleared as they finish.
/// - Rows without the crash marker are a process killed (`kill -9`, the OOM killer): those
///   domains are audited again, as before.
enum CrashCarry {
    enum State: String, Sendable {
        case suspect, culprit
    }

    struct Entry: Equatable, Sendable {
        var domain: String
        var state: State
        /// When the crash that made it one happened (the run's start).
        var since: Date
        /// The version that crashed (`AASAAuditVersion.number`).
        var build: String
    }

    /// A culprit is tried again after this many days, or by another version.
    static let quarantineDays = 7

    struct Plan: Equatable {
        /// Reported `audit.crashed`, not fetched: each with the sentence its finding says.
        var crashed: [String: String] = [:]
        /// Audited one at a time, before the rest.
        var alone: Set<String> = []
        /// What this run's log carries on.
        var carry: [Entry] = []
    }

    /// - Parameters:
    ///   - previous: the log of the run before (`resuming`: of the run being resumed).
    ///   - now: this run's start; `build`: this version.
    static func plan(previous: InFlightLog.Contents?, resuming: Bool, now: Date, build: String) -> Plan {
        var plan = Plan()
        guard let previous else { return plan }
        let fresh = { (entry: Entry) in
            entry.build == build && now.timeIntervalSince(entry.since) < Double(quarantineDays) * 86_400
        }
        for entry in previous.carried {
            switch entry.state {
            case .culprit where fresh(entry):
                plan.crashed[entry.domain] = culpritSentence(since: entry.since, alone: nil)
                plan.carry.append(entry)
            case .culprit, .suspect:
                var suspect = entry
                suspect.state = .suspect
                plan.alone.insert(entry.domain)
                plan.carry.append(suspect)
            }
        }
        guard previous.crashed else { return plan }
        if let blamed = previous.blamed, previous.inFlight[blamed] != nil {
            // The fault named its domain: that one is the culprit; the others in flight with it
            // were only cut short, and are audited again as any domain is.
            plan.carry.removeAll { $0.domain == blamed }
            plan.alone.remove(blamed)
            plan.crashed[blamed] = culpritSentence(since: now, alone: false)
            plan.carry.append(Entry(domain: blamed, state: .culprit, since: now, build: build))
            return plan
        }
        for (domain, alone) in previous.inFlight.sorted(by: { $0.key < $1.key }) {
            plan.carry.removeAll { $0.domain == domain }
            plan.alone.remove(domain)
            if alone {
                plan.crashed[domain] = culpritSentence(since: now, alone: true)
                plan.carry.append(Entry(domain: domain, state: .culprit, since: now, build: build))
            } else if resuming {
                plan.crashed[domain] =
                    "The audit crashed while this domain was in flight with others: it is not fetched again in this run. The next run audits it alone first, to find the domain that crashes the audit."
                plan.carry.append(Entry(domain: domain, state: .suspect, since: now, build: build))
            } else {
                plan.alone.insert(domain)
                plan.carry.append(Entry(domain: domain, state: .suspect, since: now, build: build))
            }
        }
        return plan
    }

    /// - Parameter alone: true when the crash came while it was audited alone, false when the
    ///   fault was in its own work among others, nil when an earlier run found it (either way).
    static func culpritSentence(since: Date, alone: Bool?) -> String {
        let how =
            switch alone {
            case true?: "while auditing this domain alone"
            case false?: "in the work of this domain (the fault named it)"
            case nil: "auditing this domain"
            }
        return
            "The audit crashed \(how) (\(RunFolderName(startedAt: since))): this version does not fetch it again for \(quarantineDays) days, so that it cannot cost the night."
    }

}
