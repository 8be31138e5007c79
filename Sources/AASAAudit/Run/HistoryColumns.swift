import AASAModel

/// The run's domains as the history keeps them (`HistoryDomain`: verdict, codes, certificate
/// day, platforms), by input position, in 9 bytes a domain while the run goes on: the names are the
/// targets', and the few distinct code lists and days are stored once. Read one
/// `HistoryDomain` at a time for the history (`list(names:)`), never a list of them.
struct HistoryColumns: Sendable {
    /// 0 for a position not yet added, else 1 + the verdict's place in `verdictOrder`.
    private var verdicts: [UInt8]
    private var codes: [UInt32]
    /// Its certificate's day and its platforms, the few distinct pairs numbered.
    private var days: [UInt32]
    private var codeLists = Interned<[String]>()
    private var dayNames = Interned<DayAndPlatforms>()
    private static let verdictOrder: [Verdict] = [.pass, .warn, .fail]

    init(count: Int) {
        verdicts = Array(repeating: 0, count: count)
        codes = Array(repeating: 0, count: count)
        days = Array(repeating: 0, count: count)
    }

    mutating func set(_ domain: HistoryDomain, at position: Int) {
        verdicts[position] = UInt8(Self.verdictOrder.firstIndex(of: domain.verdict)! + 1)
        codes[position] = codeLists.id(domain.codes)
        days[position] = dayNames.id(DayAndPlatforms(day: domain.certificateExpires, platforms: domain.platforms))
    }

    func contains(_ position: Int) -> Bool { verdicts[position] != 0 }

    /// Every position is added.
    var complete: Bool { !verdicts.contains(0) }

    /// The positions never added, in order.
    var missing: [Int] { verdicts.indices.filter { verdicts[$0] == 0 } }

    /// The added positions' domains, in input order, each made when read; `names` are the
    /// targets (a position's name is its target's).
    func list(names targets: [DomainTarget]) -> HistoryDomainList {
        let positions = complete ? nil : verdicts.indices.filter(contains)
        let columns = self
        return HistoryDomainList(count: positions?.count ?? verdicts.count) { index in
            let position = positions?[index] ?? index
            let extra = columns.dayNames.value(columns.days[position])
            return HistoryDomain(
                domain: targets[position].domain, verdict: Self.verdictOrder[Int(columns.verdicts[position]) - 1],
                codes: columns.codeLists.value(columns.codes[position]), certificateExpires: extra.day,
                platforms: extra.platforms)
        }
    }

    private struct DayAndPlatforms: Hashable, Sendable {
        var day: String?
        var platforms: String?
    }

    /// Distinct values numbered in the order first seen.
    private struct Interned<Value: Hashable & Sendable>: Sendable {
        private var values: [Value] = []
        private var ids: [Value: UInt32] = [:]

        mutating func id(_ value: Value) -> UInt32 {
            if let id = ids[value] { return id }
            let id = UInt32(values.count)
            values.append(value)
            ids[value] = id
            return id
        }

        func value(_ id: UInt32) -> Value { values[Int(id)] }
    }
}
