import AASAJSON
import AASAMatching

/// One URL's result in `aasa-audit match --json` (an array of these, in argument order).
public struct MatchRecord: Encodable, Sendable {
    public var url: String
    /// `app`, `excluded` or `none`.
    public var result: MatchOutcome
    /// The apps that may open it, first the one that does; empty unless `result` is `app`.
    public var appIDs: [String]
    /// The rule that decided; absent when none did (`none`, `undecided`).
    public var rule: RuleRecord?
    public var reason: String

    public struct RuleRecord: Encodable, Sendable {
        /// Where the rule stands in the file: `applinks.details[0].components[1]`.
        public var path: String
        /// Zero-based: the entry among those tried (dictionary-form details in sorted key order), the rule within it.
        public var entry: Int
        public var index: Int
        public var kind: RuleSet.RuleKind
        public var exclude: Bool
        /// The rule as written in the file: the component object, or the `paths` string.
        public var source: JSONValue

        public init(path: String, entry: Int, index: Int, kind: RuleSet.RuleKind, exclude: Bool, source: JSONValue) {
            self.path = path
            self.entry = entry
            self.index = index
            self.kind = kind
            self.exclude = exclude
            self.source = source
        }
    }

    public init(url: String, result: MatchOutcome, appIDs: [String], rule: RuleRecord?, reason: String) {
        self.url = url
        self.result = result
        self.appIDs = appIDs
        self.rule = rule
        self.reason = reason
    }

    public init(url: String, decision: MatchDecision) {
        self.url = url
        result = decision.outcome
        appIDs = decision.appIDs
        reason = decision.reason
        rule = decision.rule.map {
            RuleRecord(
                path: $0.path, entry: $0.entryIndex, index: $0.ruleIndex, kind: $0.kind, exclude: $0.exclude,
                source: $0.source)
        }
    }

    enum CodingKeys: String, CodingKey {
        case url, result, appIDs, rule, reason
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(result, forKey: .result)
        try container.encode(appIDs, forKey: .appIDs)
        try container.encodeIfPresent(rule, forKey: .rule)
        try container.encode(reason, forKey: .reason)
    }
}
