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
    /// For a URL no rule decided (`none`): the rule that came closest, and what it failed on.
    public var nearest: NearestRecord?

    public struct NearestRecord: Encodable, Sendable {
        public var rule: RuleRecord
        /// `path`, `query`, `fragment`: the parts of the URL the rule failed on.
        public var failed: [NearMiss.Part]
        public var explanation: String
    }

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

        init(_ rule: RuleSet.Rule) {
            self.init(
                path: rule.path, entry: rule.entryIndex, index: rule.ruleIndex, kind: rule.kind, exclude: rule.exclude,
                source: rule.source)
        }

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

    public init(url: String, decision: MatchDecision, nearest: NearMiss? = nil) {
        self.url = url
        result = decision.outcome
        appIDs = decision.appIDs
        reason = decision.reason
        rule = decision.rule.map(RuleRecord.init)
        self.nearest = nearest.map {
            NearestRecord(rule: RuleRecord($0.rule), failed: $0.failed, explanation: $0.explanation)
        }
    }

    enum CodingKeys: String, CodingKey {
        case url, result, appIDs, rule, reason, nearest
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(result, forKey: .result)
        try container.encode(appIDs, forKey: .appIDs)
        try container.encodeIfPresent(rule, forKey: .rule)
        try container.encode(reason, forKey: .reason)
        try container.encodeIfPresent(nearest, forKey: .nearest)
    }
}
