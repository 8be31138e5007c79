import AASAJSON

/// Which of the three results a URL gets (aasa-matching.md §1). `excluded` and `none` both
/// leave the URL in the browser; a diagnostic tool keeps them apart.
public enum MatchOutcome: String, Sendable, Codable {
    case app
    case excluded
    case none
    /// Matching was stopped before a rule decided: its work budget was spent (a file built to
    /// be slow to match) or it was interrupted.
    case undecided
}

/// The decision for one URL, with the rule that made it.
public struct MatchDecision: Sendable {
    public var outcome: MatchOutcome
    /// The apps that may open the URL (the first one opens it, by our reading); empty unless
    /// `outcome` is `app`.
    public var appIDs: [String]
    /// The rule that decided: the one that matched first. Nil for `none`.
    public var rule: RuleSet.Rule?
    /// Why, for a person.
    public var reason: String
}

/// Decides, for a file served by a domain, which app (if any) opens a URL: the entries of
/// `details` in order, the rules of each in order, the first matching rule deciding, an
/// exclusion ending the whole search (aasa-matching.md §3).
public struct Matcher: Sendable {
    public let rules: RuleSet
    public let domain: String

    public init(file: JSONObject, domain: String) {
        rules = RuleSet(file: file)
        self.domain = Self.normalise(domain)
    }

    /// The decision for one URL, within a standard budget of its own.
    public func decide(_ url: MatchURL) -> MatchDecision {
        var budget = MatchBudget()
        return decide(url, budget: &budget)
    }

    /// The decision for one URL; `undecided` once `budget` is spent.
    public func decide(_ url: MatchURL, budget: inout MatchBudget) -> MatchDecision {
        guard url.host == domain else {
            return MatchDecision(
                outcome: .none, appIDs: [], rule: nil,
                reason: "The file speaks only for \(domain), not for \(url.host).")
        }
        let parts = URLParts(url)
        for entry in rules.entries {
            for rule in entry.rules where Self.matches(rule, parts, &budget) || budget.exhausted {
                if budget.exhausted {
                    return MatchDecision(
                        outcome: .undecided, appIDs: [], rule: nil,
                        reason:
                            "Matching stopped at \(rule.path) before a rule decided: the file's patterns took more than the matcher's budget of work, or the run was interrupted."
                    )
                }
                if rule.exclude {
                    return MatchDecision(
                        outcome: .excluded, appIDs: [], rule: rule, reason: "Excluded by \(rule.path).")
                }
                guard !entry.appIDs.isEmpty else {
                    // Only named apps get URLs (swcutil); a rule of an entry naming none decides
                    // nothing, and the search goes on (not observed; our reading).
                    continue
                }
                return MatchDecision(
                    outcome: .app, appIDs: entry.appIDs, rule: rule, reason: "Matched by \(rule.path).")
            }
        }
        let reason = rules.entries.isEmpty ? "The file has no applinks details." : "No rule matched."
        return MatchDecision(outcome: .none, appIDs: [], rule: nil, reason: reason)
    }

    public func decide(_ text: String) -> Result<MatchDecision, MatchURLError> {
        MatchURL.parse(text).map(decide)
    }

    static func normalise(_ domain: String) -> String {
        var host = domain.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }

    static func matches(_ rule: RuleSet.Rule, _ url: URLParts, _ budget: inout MatchBudget) -> Bool {
        let path = rule.percentEncoded ? url.path : url.decodedPath
        guard rule.pathPatterns.contains(where: { $0.matches(path, budget: &budget) }) else { return false }
        if rule.kind == .paths { return true }
        switch rule.query {
        case .any:
            break
        case .whole(let pattern):
            guard pattern.matches(rule.percentEncoded ? url.query : PercentDecoding.decode(url.query), budget: &budget)
            else { return false }
        case .items(let predicates):
            let items = url.queryItems(decoded: !rule.percentEncoded, folded: !rule.caseSensitive)
            for (name, pattern) in predicates {
                let values = items.filter { $0.name == name }.map(\.value)
                // A missing item counts as present with an empty value; a repeated one must
                // match at every occurrence (§8b).
                guard (values.isEmpty ? [""] : values).allSatisfy({ pattern.matches($0, budget: &budget) }) else {
                    return false
                }
            }
        }
        if let fragment = rule.fragment {
            guard
                fragment.matches(
                    rule.percentEncoded ? url.fragment : PercentDecoding.decode(url.fragment), budget: &budget)
            else { return false }
        }
        return true
    }
}

/// The parts of a URL as the rules compare them.
struct URLParts {
    /// Normalised (§7): empty is `/`, no trailing slashes.
    let path: String
    /// Decoded, then normalised: a decoded `%2F` is a real `/`.
    let decodedPath: String
    /// Empty when the URL has none.
    let query: String
    let fragment: String

    init(_ url: MatchURL) {
        path = PathRule.normaliseURLPath(url.path)
        decodedPath = PathRule.normaliseURLPath(PercentDecoding.decode(url.path))
        query = url.query ?? ""
        fragment = url.fragment ?? ""
    }

    /// Items split on `&`; the name ends at the first `=`; an item without `=` has the empty
    /// value. Names and values are decoded one by one when asked (so `%26` stays inside its
    /// item), and names folded for case-insensitive rules.
    func queryItems(decoded: Bool, folded: Bool) -> [(name: String, value: String)] {
        guard !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            var name = String(item)
            var value = ""
            if let equals = item.firstIndex(of: "=") {
                name = String(item[..<equals])
                value = String(item[item.index(after: equals)...])
            }
            if decoded {
                name = PercentDecoding.decode(name)
                value = PercentDecoding.decode(value)
            }
            if folded { name = String(String.UnicodeScalarView(Pattern.fold(Array(name.unicodeScalars)))) }
            return (name, value)
        }
    }
}
