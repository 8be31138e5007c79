import AASAModel
import Foundation

/// `history --json`: the fleet over the kept runs (`FleetHistoryRecord`) or one domain's
/// timeline (`DomainTimelineRecord`). Documented in docs/report-format.md, "History".
public struct FleetHistoryRecord: Codable, Sendable, Equatable {
    public var schemaVersion = HistorySchema.version
    public var flapping: FlappingRecord
    /// Oldest first.
    public var runs: [RunRecord]
    /// Every domain of the newest run, in its order.
    public var domains: [StandingRecord]

    public struct FlappingRecord: Codable, Sendable, Equatable {
        public var changes: Int
        public var window: Int
    }

    public struct RunRecord: Codable, Sendable, Equatable {
        public var run: String
        public var startedAt: Date
        public var verdicts: VerdictCounts
        /// Only for a run this machine could not check properly (as in history.json): its counts
        /// are not the sites'.
        public var auditorProblems: [String]?
    }

    public struct StreakRecord: Codable, Sendable, Equatable {
        public var run: String
        public var startedAt: Date
        public var runs: Int
        /// The streak reaches the oldest kept run: it may have begun earlier.
        public var reachesOldestRun: Bool

        init(_ streak: RunHistory.Streak) {
            run = streak.since
            startedAt = streak.sinceDate
            runs = streak.runs
            reachesOldestRun = streak.reachesOldest
        }
    }

    public struct StandingRecord: Codable, Sendable, Equatable {
        public var domain: String
        public var verdict: Verdict
        public var codes: [String]
        /// Since when the verdict has been warn or fail; absent for passing domains.
        public var since: StreakRecord?
        public var verdictChanges: Int
        public var flapping: Bool
        /// Since when `cdn.stale` has been found; absent when it is not now.
        public var cdnStaleSince: StreakRecord?
        public var lastPassedAt: Date?
    }

    public init(_ history: RunHistory) {
        flapping = FlappingRecord(changes: history.flapping.changes, window: history.flapping.window)
        runs = history.runs.map {
            RunRecord(run: $0.run, startedAt: $0.startedAt, verdicts: $0.verdicts, auditorProblems: $0.auditorProblems)
        }
        domains = history.standings().map { standing in
            StandingRecord(
                domain: standing.domain, verdict: standing.verdict, codes: standing.codes,
                since: standing.notPassingSince.map(StreakRecord.init), verdictChanges: standing.changes,
                flapping: standing.flapping,
                cdnStaleSince: standing.cdnStaleSince.map(StreakRecord.init), lastPassedAt: standing.lastPassed)
        }
    }
}

public struct DomainTimelineRecord: Codable, Sendable, Equatable {
    public var schemaVersion = HistorySchema.version
    public var domain: String
    /// Every kept run, oldest first; `verdict` and `codes` absent for runs that did not audit it.
    public var runs: [Entry]

    public struct Entry: Codable, Sendable, Equatable {
        public var run: String
        public var startedAt: Date
        public var verdict: Verdict?
        public var codes: [String]?
        /// The day its TLS certificate expired as that run read it.
        public var certificateExpires: String?
        /// Only for a run this machine could not check properly: its verdict is not the site's.
        public var auditorProblems: [String]?
    }

    public init(domain: String, runs: [Entry]) {
        self.domain = domain
        self.runs = runs
    }

    /// One kept run as the timeline shows it: the domain's verdict and codes in it, if audited.
    public static func entry(_ run: HistoryRun, domain: String) -> Entry {
        let found = run.domains.first { $0.domain == domain }
        return Entry(
            run: run.run, startedAt: run.startedAt, verdict: found?.verdict, codes: found?.codes,
            certificateExpires: found?.certificateExpires, auditorProblems: run.auditorProblems)
    }
}
