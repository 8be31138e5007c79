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
    /// Why the run could not check properly (`AuditorProblems`: this machine's DNS, Apple's CDN
    /// out of reach); absent for a sound run. Such a run counts for nothing in since-when,
    /// flapping, recoveries and trends.
    public var auditorProblems: [String]?
    /// The day each domain's TLS certificate expires, as the positions in `domains` of the
    /// domains whose certificate expires that day (`{"2026-12-04":[0,17]}`): a few bytes a
    /// domain. Made from `domains` when the run is made; absent when no certificate was read.
    public var certificateExpiry: [String: [Int]]?
    /// The platforms each domain's verdict speaks for, where not iOS alone: the positions in
    /// `domains` of the domains of each set (`LinkPlatform.historyKey`).
    public var platforms: [String: [Int]]?
    /// The `--alert-after` its alerts were decided with (`--notify`, `--alertmanager`); absent
    /// when it alerted no one, or was written before this was kept. What a team has heard is
    /// what was sent under each run's own setting, whatever the setting is now.
    public var alertAfter: Int?

    public init(
        run: String, startedAt: Date, finishedAt: Date, domains: [HistoryDomain], auditorProblems: [String]? = nil
    ) {
        self.init(
            run: run, startedAt: startedAt, finishedAt: finishedAt, counting: HistoryDomainList(domains),
            auditorProblems: auditorProblems)
        self.domains = domains
    }

    /// A run without its domains (`domains` empty), its counts and certificate days those of
    /// `domains`: a run whose domains are kept elsewhere (`HistoryDomainList`).
    public init(
        run: String, startedAt: Date, finishedAt: Date, counting domains: HistoryDomainList,
        auditorProblems: [String]? = nil
    ) {
        self.run = run
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.domains = []
        self.auditorProblems = auditorProblems
        var verdicts = VerdictCounts()
        var expiry: [String: [Int]] = [:]
        var platforms: [String: [Int]] = [:]
        for index in 0..<domains.count {
            let domain = domains[index]
            verdicts[domain.verdict] += 1
            if let day = domain.certificateExpires { expiry[day, default: []].append(index) }
            if let key = domain.platforms { platforms[key, default: []].append(index) }
        }
        self.verdicts = verdicts
        certificateExpiry = expiry.isEmpty ? nil : expiry
        self.platforms = platforms.isEmpty ? nil : platforms
    }

    private enum CodingKeys: String, CodingKey {
        case schemaVersion, run, startedAt, finishedAt, verdicts, domains, auditorProblems, certificateExpiry
        case alertAfter, platforms
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        run = try container.decode(String.self, forKey: .run)
        startedAt = try container.decode(Date.self, forKey: .startedAt)
        finishedAt = try container.decode(Date.self, forKey: .finishedAt)
        verdicts = try container.decode(VerdictCounts.self, forKey: .verdicts)
        domains = try container.decode([HistoryDomain].self, forKey: .domains)
        auditorProblems = try container.decodeIfPresent([String].self, forKey: .auditorProblems)
        certificateExpiry = try container.decodeIfPresent([String: [Int]].self, forKey: .certificateExpiry)
        alertAfter = try container.decodeIfPresent(Int.self, forKey: .alertAfter)
        platforms = try container.decodeIfPresent([String: [Int]].self, forKey: .platforms)
        Self.spread(certificateExpiry, over: &domains, \.certificateExpires)
        Self.spread(platforms, over: &domains, \.platforms)
    }

    /// Gives each domain its value from one of the line's maps of positions
    /// (`certificateExpiry`, `platforms`); positions outside the list are ignored.
    static func spread(
        _ map: [String: [Int]]?, over domains: inout [HistoryDomain], _ field: WritableKeyPath<HistoryDomain, String?>
    ) {
        guard let map else { return }
        for (value, positions) in map {
            for position in positions where domains.indices.contains(position) {
                domains[position][keyPath: field] = value
            }
        }
    }

    /// Reads one line of `history.json`. Foundation's JSONSerialization reads a line of 10,000
    /// domains in about half the time JSONDecoder takes, which matters for 90 lines a run.
    public init(line: Data) throws {
        // The list of domains read straight into values (`HistoryLine`), the rest the slow way.
        if let parts = HistoryLine.split(line) {
            guard let object = try JSONSerialization.jsonObject(with: parts.rest) as? [String: Any],
                let version = object["schemaVersion"] as? Int, version == HistorySchema.version,
                let run = object["run"] as? String,
                let startedAt = (object["startedAt"] as? String).flatMap(Self.date),
                let finishedAt = (object["finishedAt"] as? String).flatMap(Self.date),
                (object["domains"] as? [Any])?.isEmpty == true
            else { throw HistoryLineError() }
            self.init(
                run: run, startedAt: startedAt, finishedAt: finishedAt, domains: parts.domains,
                auditorProblems: object["auditorProblems"] as? [String])
            readAdditions(object)
            return
        }
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
        self.init(
            run: run, startedAt: startedAt, finishedAt: finishedAt, domains: entries,
            auditorProblems: object["auditorProblems"] as? [String])
        readAdditions(object)
    }

    /// The fields added since the format began (`certificateExpiry`, `alertAfter`) as
    /// JSONSerialization gives them; a value of another shape is left out (a line without
    /// them is whole).
    private mutating func readAdditions(_ line: [String: Any]) {
        if let number = line["alertAfter"] as? NSNumber, (1...AlertPolicy.maximumAlertAfter).contains(number.intValue) {
            alertAfter = number.intValue
        }
        func positions(_ value: Any?) -> [String: [Int]]? {
            guard let object = value as? [String: Any] else { return nil }
            var map: [String: [Int]] = [:]
            for (key, positions) in object {
                guard let list = positions as? [Any] else { continue }
                map[key] = list.compactMap { ($0 as? NSNumber)?.intValue }
            }
            return map.isEmpty ? nil : map
        }
        certificateExpiry = positions(line["certificateExpiry"])
        platforms = positions(line["platforms"])
        Self.spread(certificateExpiry, over: &domains, \.certificateExpires)
        Self.spread(platforms, over: &domains, \.platforms)
    }

    private static func date(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }

}

/// A line of `history.json` that is not a run of this schema.
public struct HistoryLineError: Error {}

/// A run's domains as the history reads them, one at a time by position: a list, or made on
/// demand from where a run keeps them (an audit's own run: its targets' names and its compact
/// columns), so that a million of them need not be a list of `HistoryDomain`s.
public struct HistoryDomainList: Sendable, Equatable {
    public let count: Int
    private let element: @Sendable (Int) -> HistoryDomain

    public init(count: Int, element: @escaping @Sendable (Int) -> HistoryDomain) {
        self.count = count
        self.element = element
    }

    public init(_ domains: [HistoryDomain]) {
        self.init(count: domains.count) { domains[$0] }
    }

    public subscript(position: Int) -> HistoryDomain { element(position) }

    public static func == (a: HistoryDomainList, b: HistoryDomainList) -> Bool {
        a.count == b.count && (0..<a.count).allSatisfy { a[$0] == b[$0] }
    }
}

/// A domain in one run: its verdict and the codes of its findings. Written as a short array,
/// `["example.com","fail","http.status","cdn.stale"]`, to keep a line of 10,000 domains small.
public struct HistoryDomain: Codable, Sendable, Equatable {
    public var domain: String
    public var verdict: Verdict
    /// The distinct codes of its errors and warnings, the most severe first, in the report's
    /// order within a severity (notes are left out).
    public var codes: [String]
    /// The day (UTC, `2026-12-04`) its TLS certificate expires, when it was read. Kept in the
    /// line's `certificateExpiry`, not in the domain's array.
    public var certificateExpires: String?
    /// The platforms its verdict speaks for (`LinkPlatform.historyKey`), nil for iOS alone.
    /// Kept in the line's `platforms`, not in the domain's array.
    public var platforms: String?

    public init(
        domain: String, verdict: Verdict, codes: [String], certificateExpires: String? = nil, platforms: String? = nil
    ) {
        self.domain = domain
        self.verdict = verdict
        self.codes = codes
        self.certificateExpires = certificateExpires
        self.platforms = platforms
    }

    public init(_ report: DomainReport) {
        self.init(
            domain: report.domain, verdict: report.verdict, codes: Self.codes(report.findings),
            certificateExpires: Self.day(report.certificateExpires),
            platforms: LinkPlatform.historyKey(report.linkPlatforms))
    }

    static func day(_ date: Date?) -> String? {
        date.map { UTCCalendar.date(Int($0.timeIntervalSince1970.rounded(.down))) }
    }

    /// Whether the run did not check it (`FindingCode.notChecked(headlines:)`: its codes are the
    /// headline ones): such an entry is neither a failure nor a pass in since-when, flapping and
    /// trends.
    public var notChecked: Bool {
        codes.allSatisfy { FindingCode(rawValue: $0) != nil }
            && FindingCode.notChecked(headlines: codes.lazy.compactMap(FindingCode.init(rawValue:)))
    }

    public init(_ snapshot: DomainSnapshot) {
        self.init(
            domain: snapshot.domain, verdict: snapshot.verdict, codes: Self.codes(snapshot.findings),
            certificateExpires: Self.day(snapshot.certificateExpires),
            platforms: LinkPlatform.historyKey(snapshot.linkPlatforms))
    }

    /// Notes (info findings) and consequences of another finding are left out: a history's
    /// codes are the causes that need fixing.
    static func codes(_ findings: [Finding]) -> [String] {
        var seen = Set<String>()
        return findings.enumerated().filter(\.element.isHeadline)
            .sorted { ($1.element.severity, $0.offset) < ($0.element.severity, $1.offset) }
            .map(\.element.code.rawValue).filter { seen.insert($0).inserted }
    }

    /// The array form, `["example.com","warn","tls.expiring"]`; the certificate's day is the
    /// line's (`HistoryRun.certificateExpiry`).
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

/// What a team reads from the kept runs of an output folder: since when a domain fails,
/// whether it flaps, how long Apple's CDN has served a stale copy, the fleet's trend. Pure, and
/// built by adding the runs oldest first, one at a time: it keeps a small state per domain, not
/// the runs, so that 90 runs of 100,000 domains take the memory of one run and those states.
/// `RunHistoryStore` reads the file and feeds it.
public struct RunHistory: Sendable, Equatable {
    /// One kept run, without its domains.
    public struct Run: Sendable, Equatable {
        public var run: String
        public var startedAt: Date
        public var finishedAt: Date
        public var verdicts: VerdictCounts
        public var domainCount: Int
        /// Why it could not check properly; nil for a sound run.
        public var auditorProblems: [String]? = nil
        /// The `--alert-after` its alerts were decided with, when it kept one.
        public var alertAfter: Int? = nil

        /// Whether its verdicts count (since when, flapping, recoveries, trends).
        public var isSound: Bool { auditorProblems == nil }
    }

    /// When a domain flaps: its verdict changed at least `changes` times over the last `window`
    /// runs (3 in 10 by default: pass, fail, pass, fail within ten nights).
    public struct FlappingRule: Sendable, Equatable {
        public var changes: Int
        public var window: Int

        /// - Parameter window: at most 64 runs (what a domain's state keeps).
        public init(changes: Int = 3, window: Int = 10) {
            self.changes = changes
            self.window = min(max(1, window), RecentVerdicts.capacity)
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
        /// When the run that first alerted of it started (the first whose stretch had lasted
        /// that run's `--alert-after`), the newest run included; nil while none has.
        public var heardAt: Date? = nil
        /// Whether a run before the newest alerted of it: it is not news now.
        public var heardBefore = false
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
        /// How many runs its verdict before the current one lasted (run after run up to this
        /// streak), when the kept runs say.
        public var previousVerdictRuns: Int? = nil
        /// Its verdict before the current one, and how many sound runs the current one has
        /// lasted (a run that did not check it carries it on): a verdict that changed in the
        /// newest run, across such a run too, has `verdictRuns` 1.
        public var previousVerdict: Verdict? = nil
        public var verdictRuns = 1
        /// Whether a run alerted of its previous verdict (a warn or fail stretch that lasted
        /// some run's `--alert-after`): its end is news then, and only then.
        public var previousHeard: Bool? = nil
    }

    /// What is kept of a domain between runs (run numbers count from 0, the oldest run).
    /// A domain's state through the kept runs: one per domain of a fleet, so kept small (run
    /// numbers in 32 bits, its recent verdicts inline instead of an array of its own).
    public struct DomainState: Sendable, Equatable {
        var lastSeen: Int32
        var verdict: Verdict
        var verdictSince: Int32
        var staleSince: Int32?
        var lastPassed: Int32?
        /// Its verdicts in the runs of the flapping window that audited it.
        var recent: RecentVerdicts
        /// How many runs its verdict before the current one lasted, when it had one.
        var previousRuns: Int32? = nil
        var previousVerdict: Verdict? = nil
        /// The run that first alerted of the current verdict (warn or fail), when one has.
        var heardIn: Int32? = nil
        /// Whether a run alerted of the previous verdict, when it had one.
        var previousHeard: Bool? = nil

        /// The state in `packedSize` bytes (a store's value).
        public var packed: [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Self.packedSize)
            for number in [
                lastSeen, verdictSince, staleSince ?? -1, lastPassed ?? -1, previousRuns ?? -1, heardIn ?? -1,
            ] {
                withUnsafeBytes(of: number.littleEndian) { bytes.append(contentsOf: $0) }
            }
            bytes.append(UInt8(RecentVerdicts.code(verdict)))
            bytes.append(previousVerdict.map { UInt8(RecentVerdicts.code($0)) } ?? 0xFF)
            bytes.append(previousHeard.map { $0 ? 1 : 0 } ?? 0xFF)
            recent.pack(into: &bytes)
            return bytes
        }

        public static let packedSize = 6 * 4 + 3 + RecentVerdicts.packedSize

        /// Nil when `bytes` are not a packed state.
        public init?(packed bytes: some Collection<UInt8>) {
            let bytes = Array(bytes)
            guard bytes.count == Self.packedSize, let verdict = RecentVerdicts.verdict(Int(bytes[24])),
                let recent = RecentVerdicts(packed: bytes[27...])
            else { return nil }
            func number(_ index: Int) -> Int32 {
                bytes[(index * 4)..<(index * 4 + 4)].reversed().reduce(0) { $0 << 8 | Int32($1) }
            }
            func optional(_ index: Int) -> Int32? { number(index) < 0 ? nil : number(index) }
            self.init(
                lastSeen: number(0), verdict: verdict, verdictSince: number(1), staleSince: optional(2),
                lastPassed: optional(3), recent: recent, previousRuns: optional(4),
                previousVerdict: bytes[25] == 0xFF ? nil : RecentVerdicts.verdict(Int(bytes[25])))
            heardIn = optional(5)
            previousHeard = bytes[26] == 0xFF ? nil : bytes[26] == 1
        }

        init(
            lastSeen: Int32, verdict: Verdict, verdictSince: Int32, staleSince: Int32?, lastPassed: Int32?,
            recent: RecentVerdicts, previousRuns: Int32? = nil, previousVerdict: Verdict? = nil
        ) {
            (self.lastSeen, self.verdict, self.verdictSince) = (lastSeen, verdict, verdictSince)
            (self.staleSince, self.lastPassed, self.recent) = (staleSince, lastPassed, recent)
            (self.previousRuns, self.previousVerdict) = (previousRuns, previousVerdict)
        }
    }

    /// A domain's verdicts in its last 64 sound runs, as bits: bit k is the run `newest - k`
    /// (present when the run audited it; two bits of verdict). Pure value, no allocation.
    struct RecentVerdicts: Sendable, Equatable {
        static let capacity = 64
        static let packedSize = 4 + 3 * 8
        private var newest: Int32
        private var present: UInt64 = 0
        private var low: UInt64 = 0
        private var high: UInt64 = 0

        init(_ verdict: Verdict, in run: Int) {
            newest = Int32(run)
            record(verdict, in: run)
        }

        /// Records the verdict of run `run` (newer than every run recorded so far).
        mutating func record(_ verdict: Verdict, in run: Int) {
            let shift = run - Int(newest)
            if shift >= Self.capacity {
                (present, low, high) = (0, 0, 0)
            } else if shift > 0 {
                (present, low, high) = (present << shift, low << shift, high << shift)
            }
            newest = Int32(run)
            let code = Self.code(verdict)
            present |= 1
            low = (low & ~1) | UInt64(code & 1)
            high = (high & ~1) | UInt64(code >> 1)
        }

        /// The verdicts of the recorded runs numbered `oldest` or later, oldest first.
        func verdicts(from oldest: Int) -> [Verdict] {
            let span = Int(newest) - oldest
            guard span >= 0 else { return [] }
            return stride(from: min(span, Self.capacity - 1), through: 0, by: -1).compactMap { k in
                guard present >> k & 1 == 1 else { return nil }
                return Self.verdict(Int(low >> k & 1) | Int(high >> k & 1) << 1)
            }
        }

        func pack(into bytes: inout [UInt8]) {
            withUnsafeBytes(of: newest.littleEndian) { bytes.append(contentsOf: $0) }
            for word in [present, low, high] { withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) } }
        }

        init?(packed bytes: ArraySlice<UInt8>) {
            guard bytes.count == Self.packedSize else { return nil }
            let start = bytes.startIndex
            func word(_ offset: Int, _ count: Int) -> UInt64 {
                bytes[(start + offset)..<(start + offset + count)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
            }
            newest = Int32(truncatingIfNeeded: word(0, 4))
            (present, low, high) = (word(4, 8), word(12, 8), word(20, 8))
        }

        static func code(_ verdict: Verdict) -> Int {
            switch verdict {
            case .pass: 0
            case .warn: 1
            case .fail: 2
            }
        }

        /// Nil for a code no verdict has.
        static func verdict(_ code: Int) -> Verdict? { (0..<3).contains(code) ? [.pass, .warn, .fail][code] : nil }
    }

    /// A domain's name as the key of its state: two keyed hashes of the name (SipHash with this
    /// process's seed), 128 bits, instead of a copy of the name: 16 bytes a domain of a fleet.
    /// Two of a million names share a key with odds of about 10⁻²⁷.
    public struct DomainKey: Hashable, Sendable {
        private let high: Int
        private let low: Int

        /// The key's 16 bytes (a store's key; meaningful within this process only).
        public var bytes: [UInt8] {
            withUnsafeBytes(of: (high.littleEndian, low.littleEndian)) { Array($0) }
        }

        init(_ name: String) {
            var first = Hasher()
            first.combine(0 as UInt8)
            first.combine(name)
            var second = Hasher()
            second.combine(1 as UInt8)
            second.combine(name)
            (high, low) = (first.finalize(), second.finalize())
        }

        public func hash(into hasher: inout Hasher) { hasher.combine(low) }
    }

    public let flapping: FlappingRule
    /// The `--alert-after` taken for a run that kept none (one written before runs kept it):
    /// an audit sets its own.
    public var unrecordedAlertAfter = 1
    /// Where the domains' states are kept when not in `states` (`DomainStateStore`).
    private let store: (any DomainStateStore)?
    /// Oldest first, sound or not.
    public private(set) var runs: [Run] = []
    /// The newest sound run's domains, in its order.
    private var latestDomains = HistoryDomainList([])
    private var states: [DomainKey: DomainState] = [:]
    /// The indices in `runs` of the sound runs: a domain's states count in sound runs only, so
    /// that a night on which this machine could not check breaks no streak and starts none.
    private var soundRuns: [Int] = []

    /// - Parameter store: where to keep the domains' states; nil keeps them in memory.
    public init(flapping: FlappingRule = .standard, store: (any DomainStateStore)? = nil) {
        self.flapping = flapping
        self.store = store
    }

    private func state(_ key: DomainKey) -> DomainState? {
        if let store { return store.state(for: key) }
        return states[key]
    }

    private mutating func set(_ state: DomainState, _ key: DomainKey) {
        if let store { store.store(state, for: key) } else { states[key] = state }
    }

    /// Equal runs and states; a store is equal only to itself.
    public static func == (a: RunHistory, b: RunHistory) -> Bool {
        a.flapping == b.flapping && a.runs == b.runs && a.latestDomains == b.latestDomains && a.states == b.states
            && a.soundRuns == b.soundRuns && a.store.map(ObjectIdentifier.init) == b.store.map(ObjectIdentifier.init)
    }

    /// A history of these runs, oldest first.
    public init(runs: [HistoryRun], flapping: FlappingRule = .standard) {
        self.init(flapping: flapping)
        for run in runs { add(run) }
    }

    public var latest: Run? { runs.last }

    /// The newest sound run; nil when there is none.
    public var latestSound: Run? { soundRuns.last.map { runs[$0] } }

    /// Adds the next run (newer than every run added so far). A run that could not check
    /// properly is kept in `runs` (the page shows it, marked) and changes no domain's state.
    /// - Parameter keepingDomains: false when a newer sound run is added next (an audit adds
    ///   its own run last): this one's domains are let go at once.
    public mutating func add(_ run: HistoryRun, keepingDomains: Bool = true) {
        guard let number = begin(run, domainCount: run.domains.count) else { return }
        latestDomains = HistoryDomainList(keepingDomains ? run.domains : [])
        for domain in run.domains { update(domain, in: number) }
    }

    /// Adds the next run, its domains kept elsewhere: `run` has none (`HistoryRun`'s
    /// `init(run:startedAt:finishedAt:counting:auditorProblems:)`), `domains` are they.
    public mutating func add(_ run: HistoryRun, domains: HistoryDomainList) {
        guard let number = begin(run, domainCount: domains.count) else { return }
        latestDomains = domains
        for position in 0..<domains.count { update(domains[position], in: number) }
    }

    /// Adds the next run, as `add(_:keepingDomains:)` does with false, its domains handed over
    /// one at a time by `forEach` (from where they are kept) and let go. `run` has none; its
    /// verdicts count them.
    public mutating func add(_ run: HistoryRun, forEach: ((HistoryDomain) -> Void) throws -> Void) rethrows {
        let count = run.verdicts.pass + run.verdicts.warn + run.verdicts.fail
        guard let number = begin(run, domainCount: count) else { return }
        latestDomains = HistoryDomainList([])
        try forEach { update($0, in: number) }
    }

    /// The run's place among the sound runs, which its domains' states are updated for; nil for
    /// a run that could not check properly (kept in `runs`, changing no state).
    private mutating func begin(_ run: HistoryRun, domainCount: Int) -> Int? {
        runs.append(
            Run(
                run: run.run, startedAt: run.startedAt, finishedAt: run.finishedAt, verdicts: run.verdicts,
                domainCount: domainCount, auditorProblems: run.auditorProblems, alertAfter: run.alertAfter))
        guard run.auditorProblems == nil else { return nil }
        soundRuns.append(runs.count - 1)
        // Room at once: growing a table of a million states holds two of them for a while.
        if store == nil { states.reserveCapacity(max(states.count, domainCount)) }
        return soundRuns.count - 1
    }

    /// A domain of the sound run `number`: its state updated.
    private mutating func update(_ domain: HistoryDomain, in number: Int) {
        let key = DomainKey(domain.domain)
        if domain.notChecked {
            // Not checked: its streaks go on through this run, and nothing else changes.
            if var state = state(key), state.lastSeen == Int32(number) - 1 {
                state.lastSeen = Int32(number)
                set(state, key)
            }
            return
        }
        let isStale = domain.codes.contains(FindingCode.aasa(.cdnStale).rawValue)
        let run = Int32(number)
        guard var state = state(key) else {
            var state = DomainState(
                lastSeen: run, verdict: domain.verdict, verdictSince: run, staleSince: isStale ? run : nil,
                lastPassed: domain.verdict == .pass ? run : nil, recent: RecentVerdicts(domain.verdict, in: number))
            hear(&state, in: run)
            set(state, key)
            return
        }
        // A run that did not audit the domain ends its streaks.
        let continues = state.lastSeen == run - 1
        if !continues || state.verdict != domain.verdict {
            state.previousRuns = continues ? run - state.verdictSince : nil
            state.previousVerdict = continues ? state.verdict : nil
            state.previousHeard = continues && state.verdict != .pass ? state.heardIn != nil : nil
            state.heardIn = nil
            state.verdictSince = run
        }
        state.staleSince = isStale ? (continues ? state.staleSince ?? run : run) : nil
        if domain.verdict == .pass { state.lastPassed = run }
        state.recent.record(domain.verdict, in: number)
        state.lastSeen = run
        state.verdict = domain.verdict
        hear(&state, in: run)
        set(state, key)
    }

    /// Whether sound run `run` alerted of the state's warn or fail: the first run whose stretch
    /// had lasted its own `--alert-after` did (a run that did not check the domain alerted of
    /// nothing, and is not counted here).
    private func hear(_ state: inout DomainState, in run: Int32) {
        guard state.verdict != .pass, state.heardIn == nil else { return }
        let after = runs[soundRuns[Int(run)]].alertAfter ?? unrecordedAlertAfter
        if run - state.verdictSince + 1 >= Int32(after) { state.heardIn = run }
    }

    /// Every domain of the newest run, in its order.
    public func standings() -> [Standing] {
        var all: [Standing] = []
        all.reserveCapacity(latestDomains.count)
        forEachStanding { all.append($0) }
        return all
    }

    /// Every domain of the newest run, in its order, one at a time: a fleet of a million
    /// domains needs no array of them.
    public func forEachStanding(_ body: (Standing) throws -> Void) rethrows {
        let newest = soundRuns.count - 1
        let oldestInWindow = newest - flapping.window + 1
        func streak(from first: Int, heardIn: Int32? = nil) -> Streak {
            let run = runs[soundRuns[first]]
            return Streak(
                since: run.run, sinceDate: run.startedAt, runs: newest - first + 1, reachesOldest: first == 0,
                heardAt: heardIn.map { runs[soundRuns[Int($0)]].startedAt },
                heardBefore: heardIn.map { Int($0) < newest } ?? false)
        }
        for position in 0..<latestDomains.count {
            let domain = latestDomains[position]
            guard let state = state(DomainKey(domain.domain)) else {
                // Never checked in the kept runs: nothing to say beyond that.
                try body(
                    Standing(
                        domain: domain.domain, verdict: domain.verdict, codes: domain.codes, notPassingSince: nil,
                        changes: 0, flapping: false, cdnStaleSince: nil, lastPassed: nil))
                continue
            }
            let window = state.recent.verdicts(from: oldestInWindow)
            let changes = zip(window, window.dropFirst()).filter { $0 != $1 }.count
            let lastPassed = domain.verdict == .pass ? nil : state.lastPassed.map { runs[soundRuns[Int($0)]].startedAt }
            try body(
                Standing(
                    domain: domain.domain, verdict: domain.verdict, codes: domain.codes,
                    notPassingSince: domain.verdict == .pass || domain.notChecked
                        ? nil : streak(from: Int(state.verdictSince), heardIn: state.heardIn),
                    changes: changes, flapping: changes >= flapping.changes,
                    cdnStaleSince: state.staleSince.map { streak(from: Int($0)) }, lastPassed: lastPassed,
                    previousVerdictRuns: state.previousRuns.map(Int.init), previousVerdict: state.previousVerdict,
                    verdictRuns: newest - Int(state.verdictSince) + 1, previousHeard: state.previousHeard))
        }
    }

    /// How many domains of the newest run there are.
    public var latestDomainCount: Int { latestDomains.count }
}

/// Where a history keeps its domains' states, when not in memory: `audit` gives a scratch
/// SQLite store (`HistoryStateStore`), so that a fleet of a million domains does not keep a
/// million states in memory. Used by one thread at a time.
public protocol DomainStateStore: AnyObject, Sendable {
    func state(for key: RunHistory.DomainKey) -> RunHistory.DomainState?
    func store(_ state: RunHistory.DomainState, for key: RunHistory.DomainKey)
}
