/// One family of finding codes, as a room declares it: an enum whose cases are its codes (their
/// raw values the public names, `http.redirect`) and whose `definition` is one exhaustive switch,
/// so that a code without its entry does not compile. A new code is one case and one arm, in its
/// family's file; the families are the house's (`TransferCode`, `RunCode`), the AASA's
/// (`AASACode`) and each association kind's (`AssociationKind.codes`).
public protocol FindingCodeFamily: Sendable, CaseIterable {
    var rawValue: String { get }
    init?(rawValue: String)
    /// The code's entry in the catalog: what it is about, how much it matters, what it means and
    /// how to fix it.
    var definition: FindingDefinition { get }
}

/// A finding's code: an open value that names its family (`.aasa(.httpRedirect)`, a kind's
/// `.KIND(.status)`), as locations and categories name their kind. Its raw value is a public
/// interface: reports, dashboards and `docs/findings.md` use it. Add codes; never rename one.
public struct FindingCode: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Its family's case: its name and its entry.
    private let code: any FindingCodeFamily

    public init(_ code: some FindingCodeFamily) { self.code = code }

    /// The code with this public name, in any family of the registry; nil for none. A report's
    /// every finding is read through this: the registry's line has a table, built once (a
    /// family's `init?(rawValue:)` compares its names one by one).
    public init?(rawValue: String) {
        if AssociationKinds.isRegistered {
            guard let code = Self.registeredCodes[rawValue] else { return nil }
            self = code
            return
        }
        for family in Self.families {
            if let code = family.code(rawValue) {
                self = code
                return
            }
        }
        return nil
    }

    /// Every code of the registry's line, by its name.
    private static let registeredCodes = Dictionary(
        uniqueKeysWithValues: AssociationKinds.$all.withValue(AssociationKinds.registered) {
            allCases.map { ($0.rawValue, $0) }
        })

    public var rawValue: String { code.rawValue }
    public var description: String { rawValue }
    /// Its entry in the catalog.
    public var definition: FindingDefinition { code.definition }

    /// Whether it is one of `family`'s codes.
    public func belongs(to family: any FindingCodeFamily.Type) -> Bool {
        ObjectIdentifier(type(of: code)) == ObjectIdentifier(family)
    }

    /// Every family, in the order documentation lists them: what cannot be fetched, each
    /// file's (the registry's: the AASA's first), the run's.
    static var families: [any FindingCodeFamily.Type] {
        [TransferCode.self] + AssociationKinds.files.map(\.codes) + [RunCode.self]
    }

    /// Every code, family by family.
    public static var allCases: [FindingCode] { families.flatMap { $0.codes } }

    public static func == (lhs: FindingCode, rhs: FindingCode) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let code = FindingCode(rawValue: name) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(name.prefix(80)) is not a finding code")
        }
        self = code
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension FindingCodeFamily {
    /// The family's codes, as `FindingCode`s.
    static var codes: [FindingCode] { allCases.map(FindingCode.init) }
    /// The family's code of this name.
    static func code(_ name: String) -> FindingCode? { Self(rawValue: name).map(FindingCode.init) }
}

extension FindingCode {
    /// The codes a name means, as people type it: the code in any case (`JSON.INVALID`), or a
    /// prefix of codes (`json`, `http.`): every code it starts.
    public static func matching(_ text: String) -> [FindingCode] {
        let name = text.lowercased()
        if let exact = FindingCode(rawValue: name) { return [exact] }
        let prefix = name.hasSuffix(".") ? name : name + "."
        return allCases.filter { $0.rawValue.hasPrefix(prefix) }
    }

    /// The codes a mistyped or partial name most likely meant, at most three: those that
    /// contain it (`content-type` → `http.content-type`), else those within two edits of it or
    /// of their part after the family (`http.redirct` → `http.redirect`).
    public static func suggestions(for text: String) -> [FindingCode] {
        let name = text.lowercased()
        guard !name.isEmpty else { return [] }
        let containing = allCases.filter { $0.rawValue.contains(name) }
        if !containing.isEmpty { return Array(containing.prefix(3)) }
        let close = allCases.map { code -> (FindingCode, Int) in
            let suffix = String(code.rawValue.drop { $0 != "." }.dropFirst())
            return (code, min(distance(name, code.rawValue), distance(name, suffix)))
        }
        return close.filter { $0.1 <= 2 }.sorted { $0.1 < $1.1 }.prefix(3).map(\.0)
    }

    /// Levenshtein's distance between two short names.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        var row = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var previous = row[0]
            row[0] = i + 1
            for (j, y) in b.enumerated() {
                let current = row[j + 1]
                row[j + 1] = min(row[j + 1] + 1, row[j] + 1, previous + (x == y ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
