import AASAJSON

/// The `applinks` section compiled for matching: the entries of `details` in the order they
/// are tried, each with its apps and its rules, every setting resolved through the `defaults`
/// hierarchy (aasa-matching.md §3–§5, §12). Values of the wrong type are ignored, as unknown
/// keys are; the validator reports them.
public struct RuleSet: Sendable {
    public struct Entry: Sendable {
        /// Where the entry stands in the file: `applinks.details[0]`, or `applinks.details["ID"]`.
        public var path: String
        /// The apps it names, in the order the file names them.
        public var appIDs: [String]
        public var rules: [Rule]
    }

    public enum RuleKind: String, Sendable, Codable {
        case components
        case paths
    }

    public struct Rule: Sendable {
        /// Where the rule stands: `applinks.details[0].components[2]`.
        public var path: String
        /// The position of its entry among the entries tried, and its own within the entry.
        public var entryIndex = 0
        public var ruleIndex = 0
        public var kind: RuleKind
        /// The rule as written: the component object, or the `paths` string.
        public var source: JSONValue
        public var exclude: Bool
        public var caseSensitive: Bool
        public var percentEncoded: Bool
        /// The path patterns to try: the pattern, and for one ending in `/*` its parent too.
        var pathPatterns: [Pattern]
        var query: QueryTest
        var fragment: Pattern?

        /// Whether the rule matches every URL: a lone `*` path (after normalisation), and no
        /// query or fragment test. Rules after it are never consulted.
        public var matchesEverything: Bool {
            pathPatterns.first.map(PathRule.isCatchAll) == true && query.acceptsEverything
                && (fragment?.matchesEverything ?? true)
        }

        /// Whether the rule matches every URL but the root's: `/?*` (every path of one character
        /// or more after the slash), and no query or fragment test. A later rule that cannot
        /// match the root is then never consulted.
        public var matchesEverythingButTheRoot: Bool {
            pathPatterns.first.map(PathRule.isCatchAllButTheRoot) == true && query.acceptsEverything
                && (fragment?.matchesEverything ?? true)
        }

        /// Whether any of its path patterns matches the root path (as URL paths are compared).
        public var canMatchTheRoot: Bool {
            let root = PathRule.normaliseURLPath("/")
            return pathPatterns.contains { $0.matches(root) }
        }

        /// The largest automaton any of its patterns expands to, variables included (see
        /// `Pattern.maximumAutomatonSize`).
        public var largestAutomatonSize: Int {
            (pathPatterns + query.patterns + (fragment.map { [$0] } ?? [])).map(\.automatonSize).max() ?? 0
        }

        /// References to undefined variables in any of its patterns.
        public var undefinedVariables: [String] {
            var names = pathPatterns.flatMap(\.undefinedVariables) + (fragment?.undefinedVariables ?? [])
            names += query.patterns.flatMap(\.undefinedVariables)
            var seen = Set<String>()
            return names.filter { seen.insert($0).inserted }
        }
    }

    enum QueryTest: Sendable {
        case any
        case whole(Pattern)
        case items([(name: String, pattern: Pattern)])

        var acceptsEverything: Bool {
            switch self {
            case .any: true
            case .whole(let pattern): pattern.matchesEverything
            case .items(let items): items.allSatisfy { $0.pattern.matchesEverything }
            }
        }

        var patterns: [Pattern] {
            switch self {
            case .any: []
            case .whole(let pattern): [pattern]
            case .items(let items): items.map(\.pattern)
            }
        }
    }

    public var entries: [Entry]
    public var variables: VariableTable

    /// Compiles the `applinks` section of `file`; a file without one has no entries.
    public init(file: JSONObject) {
        let applinks = file["applinks"]?.objectValue ?? JSONObject()
        let variables = VariableTable(user: Self.userVariables(applinks["substitutionVariables"]))
        self.variables = variables
        let domainDefaults = applinks["defaults"]?.objectValue ?? JSONObject()
        switch applinks["details"] {
        case .array(let details)?:
            entries = details.enumerated().compactMap { index, value in
                guard case .object(let entry) = value else { return nil }
                return Self.entry(
                    entry, path: "applinks.details[\(index)]", appIDs: Self.appIDs(of: entry),
                    domainDefaults: domainDefaults, variables: variables)
            }
        case .object(let legacy)?:
            // A JSON object has no order: try its keys in sorted order (our reading).
            entries = legacy.members.sorted { $0.key < $1.key }.compactMap { member in
                guard case .object(let entry) = member.value else { return nil }
                let path = "applinks.details[\(JSONValue.string(member.key).prettyPrinted())]"
                return Self.entry(
                    entry, path: path, appIDs: [member.key], domainDefaults: domainDefaults, variables: variables)
            }
        default:
            entries = []
        }
        number()
    }

    /// `appID` and `appIDs` together, in the order the entry names them.
    static func appIDs(of entry: JSONObject) -> [String] {
        var ids: [String] = []
        for member in entry.members {
            switch (member.key, member.value) {
            case ("appID", .string(let id)): ids.append(id)
            case ("appIDs", .array(let list)): ids += list.compactMap(\.stringValue)
            default: break
            }
        }
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }

    static func userVariables(_ value: JSONValue?) -> [String: [String]] {
        guard case .object(let object)? = value else { return [:] }
        var table: [String: [String]] = [:]
        for member in object.members where table[member.key] == nil {
            guard case .array(let values) = member.value else { continue }
            table[member.key] = values.compactMap(\.stringValue)
        }
        return table
    }

    static func entry(
        _ entry: JSONObject, path: String, appIDs: [String], domainDefaults: JSONObject, variables: VariableTable
    ) -> Entry {
        let appDefaults = entry["defaults"]?.objectValue ?? JSONObject()
        var rules: [Rule] = []
        if case .array(let components)? = entry["components"] {
            // With components present, paths are ignored (aasa-matching.md §3, our reading).
            for (index, value) in components.enumerated() {
                guard case .object(let component) = value else { continue }
                let levels = [component, appDefaults, domainDefaults]
                rules.append(
                    Self.component(levels, source: value, path: "\(path).components[\(index)]", variables: variables))
            }
        } else if case .array(let paths)? = entry["paths"] {
            for (index, value) in paths.enumerated() {
                guard case .string(let text) = value else { continue }
                rules.append(Self.legacyPath(text, source: value, path: "\(path).paths[\(index)]"))
            }
        }
        return Entry(path: path, appIDs: appIDs, rules: rules)
    }

    /// Numbers the entries and their rules in the order they are tried.
    mutating func number() {
        for entry in entries.indices {
            for rule in entries[entry].rules.indices {
                entries[entry].rules[rule].entryIndex = entry
                entries[entry].rules[rule].ruleIndex = rule
            }
        }
    }

    /// A component with each key resolved: the component's own value, else the app-level
    /// default, else the domain-level default, else the built-in.
    static func component(_ levels: [JSONObject], source: JSONValue, path: String, variables: VariableTable) -> Rule {
        func resolved<T>(_ key: String, _ read: (JSONValue) -> T?) -> T? {
            for level in levels {
                if let value = level[key], let typed = read(value) { return typed }
            }
            return nil
        }
        let caseSensitive = resolved("caseSensitive", \.boolValue) ?? true
        let percentEncoded = resolved("percentEncoded", \.boolValue) ?? true
        let exclude = resolved("exclude", \.boolValue) ?? false
        func pattern(_ text: String) -> Pattern { Pattern(text, variables: variables, caseSensitive: caseSensitive) }

        let pathPattern = resolved("/", \.stringValue) ?? "*"
        let query: QueryTest =
            resolved("?") { value -> QueryTest? in
                switch value {
                case .string(let text): return .whole(pattern(text))
                case .object(let items):
                    // Any value that is not a string disables the whole dictionary (§8b).
                    guard items.members.allSatisfy({ $0.value.stringValue != nil }) else { return nil }
                    return .items(
                        items.members.map {
                            (
                                caseSensitive
                                    ? $0.key
                                    : String(String.UnicodeScalarView(Pattern.fold(Array($0.key.unicodeScalars)))),
                                pattern($0.value.stringValue!)
                            )
                        })
                default: return nil
                }
            } ?? .any
        let fragment = resolved("#", \.stringValue).map(pattern)
        return Rule(
            path: path, kind: .components, source: source, exclude: exclude, caseSensitive: caseSensitive,
            percentEncoded: percentEncoded,
            pathPatterns: PathRule.patterns(pathPattern, variables: variables, caseSensitive: caseSensitive),
            query: query, fragment: fragment)
    }

    /// A legacy `paths` entry: `NOT ` excludes; always case-sensitive, compared as written, no
    /// variables; the query and fragment are not looked at (§12).
    static func legacyPath(_ text: String, source: JSONValue, path: String) -> Rule {
        let exclude = text.hasPrefix("NOT ")
        let pattern = exclude ? String(text.dropFirst(4)) : text
        return Rule(
            path: path, kind: .paths, source: source, exclude: exclude, caseSensitive: true, percentEncoded: true,
            pathPatterns: PathRule.patterns(pattern, variables: nil, caseSensitive: true), query: .any, fragment: nil)
    }
}

/// The path normalisations observed with swcutil (aasa-matching.md §7), applied to legacy
/// paths too (not observed there; our reading).
enum PathRule {
    /// The pattern with one leading slash and no trailing ones; for a pattern ending in `/*`,
    /// also its parent (`/shop/*` matches `/shop`).
    static func patterns(_ text: String, variables: VariableTable?, caseSensitive: Bool) -> [Pattern] {
        let normalised = normalise(text)
        var patterns = [Pattern(normalised, variables: variables, caseSensitive: caseSensitive)]
        if normalised.hasSuffix("/*") {
            patterns.append(
                Pattern(
                    trimTrailingSlashes(String(normalised.dropLast(2))), variables: variables,
                    caseSensitive: caseSensitive))
        }
        return patterns
    }

    static func normalise(_ pattern: String) -> String {
        trimTrailingSlashes("/" + pattern.drop { $0 == "/" })
    }

    /// The URL path as compared: empty is `/`, and trailing slashes do not count.
    static func normaliseURLPath(_ path: String) -> String {
        trimTrailingSlashes(path.isEmpty ? "/" : path)
    }

    static func trimTrailingSlashes(_ text: String) -> String {
        var text = Substring(text)
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }

    /// `*` or `/*`: after normalisation `/*`, whose parent is the empty path.
    static func isCatchAll(_ pattern: Pattern) -> Bool {
        pattern.tokens == [.literal("/"), .run]
    }

    /// `/?*` or `/*?`: every path but the root.
    static func isCatchAllButTheRoot(_ pattern: Pattern) -> Bool {
        pattern.tokens == [.literal("/"), .one, .run] || pattern.tokens == [.literal("/"), .run, .one]
    }
}
