/// For a URL no rule decides: the rule that came closest and the parts of the URL it failed
/// on, so that a developer sees what to change. Pure; within a match budget of its own.
public struct NearMiss: Sendable {
    /// A part of the URL a rule tests.
    public enum Part: String, Sendable, Codable {
        case path
        case query
        case fragment
    }

    public var rule: RuleSet.Rule
    /// The parts the rule failed on, in the URL's order.
    public var failed: [Part]
    /// What failed, in words: the part as the rule compared it, the pattern, and what would
    /// have matched (another case, the other percent-encoding).
    public var explanation: String
}

extension Matcher {
    /// The rule (not an exclusion) that comes closest to deciding `url` (its path matching, or nearly; then the
    /// longest literal start shared with the path; then the fewest parts failing; then the
    /// first in the file), and what it failed on;
    /// nil when the file has no rule or speaks for another host.
    public func nearestRule(to url: MatchURL, budget visits: Int = MatchBudget.standardVisits) -> NearMiss? {
        guard url.host == domain else { return nil }
        let parts = URLParts(url)
        var budget = MatchBudget(visits: visits)
        // The path folded once, not once a rule: a rule's start is compared with it, each
        // comparison charged to the budget as every other step is.
        let foldedPath = Array(parts.path.lowercased())
        var best: (score: (Int, Int, Int, Int), rule: RuleSet.Rule)?
        for entry in rules.entries {
            // A rule that would exclude the URL is no way to open it.
            for rule in entry.rules where !rule.exclude {
                let source = rule.pathPatterns.first?.source ?? ""
                guard budget.spend(min(source.count, foldedPath.count) + 1) else { break }
                let (failures, nearPath) = Self.failures(
                    of: rule, parts, variables: rules.variables, budget: &budget, inWords: false)
                if budget.exhausted { break }
                let failed = failures.map(\.part)
                let shared = Self.sharedStart(source, foldedPath)
                // The path first (matching, or nearly: another case or encoding), then the
                // longest literal start shared with it, then the fewest failing parts.
                let score = (failed.contains(.path) ? 0 : 1, nearPath ? 1 : 0, shared, -failed.count)
                guard best.map({ score > $0.score }) ?? true else { continue }
                best = (score, rule)
            }
            if budget.exhausted { break }
        }
        guard let rule = best?.rule else { return nil }
        // Words for the nearest rule only (they quote the URL's parts), on a budget of their own.
        var words = MatchBudget(visits: visits)
        let (failures, _) = Self.failures(of: rule, parts, variables: rules.variables, budget: &words, inWords: true)
        return NearMiss(
            rule: rule, failed: failures.map(\.part),
            explanation: failures.isEmpty
                ? "it matches, but its entry names no app, so it decides nothing"
                : failures.map(\.words).joined(separator: "; "))
    }

    /// Each part the rule fails on, with why in words; and whether the path would match in
    /// another case or percent-encoding.
    /// - Parameter inWords: build the words (they quote the URL's parts); without, only the
    ///   parts are known, at no cost beyond the budget's.
    static func failures(
        of rule: RuleSet.Rule, _ url: URLParts, variables: VariableTable, budget: inout MatchBudget, inWords: Bool
    ) -> (failures: [(part: NearMiss.Part, words: String)], nearPath: Bool) {
        var failures: [(NearMiss.Part, String)] = []
        let path = pathFailure(of: rule, url, variables: variables, budget: &budget, inWords: inWords)
        if let path { failures.append((.path, path.words)) }
        let nearPath = path?.near ?? false
        guard rule.kind == .components else { return (failures, nearPath) }
        switch queryFailure(of: rule, url, budget: &budget) {
        case .none: break
        case .some(.none): return (failures, nearPath)  // Out of budget: nothing more is judged.
        case .some(.some(let words)): failures.append((.query, words))
        }
        if let fragment = rule.fragment {
            let text = rule.percentEncoded ? url.fragment : PercentDecoding.decode(url.fragment)
            if !fragment.matches(text, budget: &budget) {
                failures.append(
                    (
                        .fragment,
                        "the fragment \(text.isEmpty ? "(none)" : "#" + text) does not match #\(fragment.source)"
                    ))
            }
        }
        return (failures, nearPath)
    }

    /// Why the path does not match, and whether it would in another case or percent-encoding;
    /// nil when it matches.
    static func pathFailure(
        of rule: RuleSet.Rule, _ url: URLParts, variables: VariableTable, budget: inout MatchBudget, inWords: Bool
    ) -> (words: String, near: Bool)? {
        let path = rule.percentEncoded ? url.path : url.decodedPath
        if rule.pathPatterns.contains(where: { $0.matches(path, budget: &budget) }) { return nil }
        let pattern = rule.pathPatterns.first?.source ?? ""
        var words = inWords ? "the path \(path) does not match \(pattern)" : ""
        // Encoding the path's other form is charged as its length.
        let others =
            !rule.percentEncoded
            ? [url.path]
            : budget.spend(url.path.utf8.count + 1)
                ? [url.decodedPath, PercentDecoding.encodeNonASCII(url.path)] : []
        // Compiling the case-folded pattern is charged as its length.
        let folded =
            budget.spend(pattern.utf8.count + 1)
            ? PathRule.patterns(pattern, variables: variables, caseSensitive: false) : []
        if let other = others.first(where: { other in
            other != path && rule.pathPatterns.contains { $0.matches(other, budget: &budget) }
        }) {
            if inWords {
                words +=
                    rule.percentEncoded
                    ? " (it would written as \(other): the rule compares the path as written, percent-encoded, since percentEncoded is true)"
                    : " (it would as written, \(other): the rule compares it decoded, percentEncoded is false)"
            }
            return (words, true)
        }
        if rule.caseSensitive, folded.contains(where: { $0.matches(path, budget: &budget) }) {
            if inWords {
                words += " (it would ignoring case: the rule is case-sensitive, the default; \"caseSensitive\": false)"
            }
            return (words, true)
        }
        return (words, false)
    }

    /// Why the query does not match (the whole query, or its first item that does not); nil
    /// when it matches, `.some(nil)` when the budget ran out before it was judged.
    static func queryFailure(of rule: RuleSet.Rule, _ url: URLParts, budget: inout MatchBudget) -> String?? {
        switch rule.query {
        case .any:
            return nil
        case .whole(let pattern):
            let query = rule.percentEncoded ? url.query : PercentDecoding.decode(url.query)
            if pattern.matches(query, budget: &budget) { return nil }
            return "the query \(query.isEmpty ? "(none)" : query) does not match \(pattern.source)"
        case .items(let predicates):
            // Splitting the query into items is charged as its length.
            guard budget.spend(url.query.utf8.count + 1) else { return .some(nil) }
            let items = url.queryItems(decoded: !rule.percentEncoded, folded: !rule.caseSensitive)
            for (name, pattern) in predicates {
                let values = items.filter { $0.name == name }.map(\.value)
                guard
                    let wrong = (values.isEmpty ? [""] : values).first(where: { !pattern.matches($0, budget: &budget) })
                else { continue }
                return values.isEmpty
                    ? "the query item \(name) is missing (it counts as empty, which \(name)=\(pattern.source) does not match)"
                    : "the query item \(name)=\(wrong) does not match \(pattern.source)"
            }
            return nil
        }
    }

    /// How many characters a pattern's literal start shares with the path (folded to lower case).
    static func sharedStart(_ pattern: String, _ foldedPath: [Character]) -> Int {
        zip(pattern.lowercased(), foldedPath).prefix { $0 == $1 && $0 != "*" && $0 != "?" }.count
    }
}
