import Foundation

/// The version of `history.json`'s line format (`docs/history.schema.json`).
public enum HistorySchema {
    public static let version = 1
}

/// One complete run as the history keeps it: a line of `history.json`.
public struct HistoryRun: Codable, Sendable, Equatable {
    public var schemaVersion = HistorySchema.version
    /// The run's folder under `--out`, e.g. `2026-11-22T031500Z`.
    public var run: String
    public var startedAt: Date
    public var finishedAt: Date
    public var verdicts: VerdictCounts
    /// Every domain of the run, in its input order.
    public var domains: [HistoryDomain]

    public init(run: String, startedAt: Date, finishedAt: Date, domains: [HistoryDomain]) {
        self.run = run
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.domains = domains
        var verdicts = VerdictCounts()
        for domain in domains { verdicts[domain.verdict] += 1 }
        self.verdicts = verdicts
    }

    /// Reads one line of `history.json`. Foundation's JSONSerialization reads a line of 10,000
    /// domains in about half the time JSONDecoder takes, which matters for 90 lines a run.
    public init(line: Data) throws {
        guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any],
              let version = object["schemaVersion"] as? Int, version == HistorySchema.version,
              let run = object["run"] as? String,
              let startedAt = (object["startedAt"] as? String).flatMap(Self.date),
              let finishedAt = (object["finishedAt"] as? String).flatMap(Self.date),
              let domains = object["domains"] as? [Any]
        else { throw HistoryLineError() }
        var entries: [HistoryDomain] = []
        entries.reserveCapacity(domains.count)
        for item in domains {
            guard let fields = item as? [Any], fields.count >= 2, let name = fields[0] as? String,
                  let verdict = (fields[1] as? String).flatMap(Verdict.init(rawValue:))
            else { throw HistoryLineError() }
            var codes: [String] = []
            for field in fields.dropFirst(2) {
                guard let code = field as? String else { throw HistoryLineError() }
                codes.append(code)
            }
            entries.append(HistoryDomain(domain: name, verdict: verdict, codes: codes))
        }
        self.init(run: run, startedAt: startedAt, finishedAt: finishedAt, domains: entries)
    }

    private static func date(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }

    /// Makes this run's strings share storage with `earlier`'s where they are equal (the same
    /// domain at the same position, the same codes): 90 runs of 10,000 domains then hold each
    /// name once instead of 90 times.
    public mutating func shareStrings(with earlier: HistoryRun) {
        for index in domains.indices where index < earlier.domains.count {
            let before = earlier.domains[index]
            if domains[index].domain == before.domain { domains[index].domain = before.domain }
            if domains[index].codes == before.codes { domains[index].codes = before.codes }
        }
    }
}

/// A line of `history.json` that is not a run of this schema.
public struct HistoryLineError: Error {}

/// A domain in one run: its verdict and the codes of its findings. Written as a short array,
/// `["example.com","fail","http.status","cdn.stale"]`, to keep a line of 10,000 domains small.
public struct HistoryDomain: Codable, Sendable, Equatable {
    public var domain: String
    public var verdict: Verdict
    /// The distinct codes of its findings, the most severe first (errors, then warnings, then
    /// info), in the report's order within a severity.
    public var codes: [String]

    public init(domain: String, verdict: Verdict, codes: [String]) {
        self.domain = domain
        self.verdict = verdict
        self.codes = codes
    }

    public init(_ report: DomainReport) {
        self.init(domain: report.domain, verdict: report.verdict, codes: Self.codes(report.findings))
    }

    public init(_ snapshot: DomainSnapshot) {
        self.init(domain: snapshot.domain, verdict: snapshot.verdict, codes: Self.codes(snapshot.findings))
    }

    static func codes(_ findings: [Finding]) -> [String] {
        var seen = Set<String>()
        return findings.enumerated().sorted { ($1.element.severity, $0.offset) < ($0.element.severity, $1.offset) }
            .map(\.element.code.rawValue).filter { seen.insert($0).inserted }
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        domain = try container.decode(String.self)
        verdict = try container.decode(Verdict.self)
        var codes: [String] = []
        while !container.isAtEnd { codes.append(try container.decode(String.self)) }
        self.codes = codes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(domain)
        try container.encode(verdict)
        for code in codes { try container.encode(code) }
    }
}

/// The kept runs of an output folder, oldest first, and what a team reads from them: since when
/// a domain fails, whether it flaps, how long Apple's CDN has served a stale copy, the fleet's
/// trend. Pure: `RunHistoryStore` reads and writes the file.
public struct RunHistory: Sendable, Equatable {
    public var runs: [HistoryRun]

    public init(runs: [HistoryRun]) {
        self.runs = runs
    }

    /// When a domain flaps: its verdict changed at least `changes` times over the last `window`
    /// runs (3 in 10 by default: pass, fail, pass, fail within ten nights).
    public struct FlappingRule: Sendable, Equatable {
        public var changes: Int
        public var window: Int

        public init(changes: Int = 3, window: Int = 10) {
            self.changes = changes
            self.window = window
        }

        public static let standard = FlappingRule()
    }

    /// A stretch of consecutive runs.
    public struct Streak: Sendable, Equatable {
        /// The first run of the stretch, and when it started.
        public var since: String
        public var sinceDate: Date
        /// Runs in the stretch, the newest included.
        public var runs: Int
        /// True when the stretch reaches back to the oldest kept run: it may have begun earlier.
        public var reachesOldest: Bool
    }

    /// A domain of the newest run, and what its history says.
    public struct Standing: Sendable, Equatable {
        public var domain: String
        public var verdict: Verdict
        public var codes: [String]
        /// Since when its verdict has been what it is now, when that is warn or fail.
        public var notPassingSince: Streak?
        /// Verdict changes over the flapping rule's window.
        public var changes: Int
        public var flapping: Bool
        /// Since when its findings have said Apple's CDN copy differs from the origin's file
        /// (`cdn.stale`), when they say so now.
        public var cdnStaleSince: Streak?
        /// The newest earlier run in which it passed, when it does not pass now.
        public var lastPassed: Date?
    }

    public var latest: HistoryRun? { runs.last }

    /// Every domain of the newest run, in its order.
    public func standings(flapping rule: FlappingRule = .standard) -> [Standing] {
        guard let latest = runs.last else { return [] }
        // Where each of the newest run's domains is in each earlier run (-1: not audited then),
        // newest run first. Runs of one list keep its order: a position is checked first, and
        // only a domain found elsewhere costs a lookup by name.
        let earlierRuns = Array(runs.dropLast().reversed())
        let positions: [[Int32]] = earlierRuns.map { run in
            var byName: [String: Int]?
            return latest.domains.indices.map { index in
                let name = latest.domains[index].domain
                if index < run.domains.count, run.domains[index].domain == name { return Int32(index) }
                if byName == nil {
                    byName = Dictionary(run.domains.enumerated().map { ($1.domain, $0) }, uniquingKeysWith: { first, _ in first })
                }
                return byName![name].map(Int32.init) ?? -1
            }
        }
        /// The domain at `position` of the newest run, `age` runs back (0: the newest).
        func entry(_ position: Int, age: Int) -> HistoryDomain? {
            guard age > 0 else { return latest.domains[position] }
            let index = positions[age - 1][position]
            return index < 0 ? nil : earlierRuns[age - 1].domains[Int(index)]
        }
        let stale = FindingCode.cdnStale.rawValue
        return latest.domains.enumerated().map { position, current in
            func streak(while holds: (HistoryDomain) -> Bool) -> Streak? {
                var length = 0
                while length < runs.count, let entry = entry(position, age: length), holds(entry) { length += 1 }
                guard length > 0 else { return nil }
                let first = runs[runs.count - length]
                return Streak(since: first.run, sinceDate: first.startedAt, runs: length, reachesOldest: length == runs.count)
            }
            var changes = 0
            var newer: Verdict?
            for age in 0..<min(rule.window, runs.count) {
                guard let older = entry(position, age: age)?.verdict else { continue }
                if let newer, newer != older { changes += 1 }
                newer = older
            }
            var lastPassed: Date?
            if current.verdict != .pass, let age = (1..<max(runs.count, 1)).first(where: { entry(position, age: $0)?.verdict == .pass }) {
                lastPassed = runs[runs.count - 1 - age].startedAt
            }
            return Standing(
                domain: current.domain, verdict: current.verdict, codes: current.codes,
                notPassingSince: current.verdict == .pass ? nil : streak { $0.verdict == current.verdict },
                changes: changes, flapping: changes >= rule.changes,
                cdnStaleSince: current.codes.contains(stale) ? streak { $0.codes.contains(stale) } : nil,
                lastPassed: lastPassed)
        }
    }

    /// One domain run by run, oldest first; `entry` is nil for runs that did not audit it.
    public func timeline(of domain: String) -> [(run: HistoryRun, entry: HistoryDomain?)] {
        runs.map { run in (run, run.domains.first { $0.domain == domain }) }
    }

    /// Whether any kept run audited the domain.
    public func knows(_ domain: String) -> Bool {
        runs.contains { run in run.domains.contains { $0.domain == domain } }
    }
}
