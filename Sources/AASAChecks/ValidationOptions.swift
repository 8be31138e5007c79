import AASAMatching
import AASAModel

/// What the checks are told besides the file.
public struct ValidationOptions: Sendable, Equatable {
    /// The oldest iOS the app supports (`--min-ios`); nil when not given.
    public var minimumIOS: IOSVersion?
    /// The matching work a domain's `+`/`-` URLs may cost together, in automaton state visits
    /// (`MatchBudget`); beyond it the rest are reported unchecked (`match.cut-short`).
    public var matchVisits: Int
    /// Whether something expects universal links of the file (an app ID, a `+` URL, an applinks
    /// entitlement, `--app-id`): without, a file of other services needs no applinks section.
    public var expectsUniversalLinks = true
    /// `--severity`: the severities a team gives chosen codes, applied before verdicts.
    public var severityPolicy = SeverityPolicy()

    public init(minimumIOS: IOSVersion? = nil, matchVisits: Int = MatchBudget.standardVisits) {
        self.minimumIOS = minimumIOS
        self.matchVisits = matchVisits
    }
}

/// An iOS version such as 12, 13.5 or 14.0.1.
public struct IOSVersion: Sendable, Comparable, CustomStringConvertible {
    public let parts: [Int]

    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        self.parts = parts.map { $0! }
    }

    public var description: String { parts.map(String.init).joined(separator: ".") }

    public static func < (lhs: IOSVersion, rhs: IOSVersion) -> Bool {
        for index in 0..<max(lhs.parts.count, rhs.parts.count) {
            let left = index < lhs.parts.count ? lhs.parts[index] : 0
            let right = index < rhs.parts.count ? rhs.parts[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    public static func == (lhs: IOSVersion, rhs: IOSVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    /// The versions `--min-ios` takes: universal links came with iOS 9 (signed files with 8); the
    /// upper bound leaves room for the versions after 26.
    public static let knownToUniversalLinks = IOSVersion("8")!...IOSVersion("30")!

    static let components = IOSVersion("13")!
    static let substitutionVariables = IOSVersion("13.5")!
    static let defaults = IOSVersion("14")!
}
