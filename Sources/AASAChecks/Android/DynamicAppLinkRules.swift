import AASAJSON
import AASAMatching
import AASAModel

/// Android 15's Dynamic App Links: the ordered rules of an `android_app` statement's
/// `relation_extensions` → `delegate_permission/common.handle_all_urls` →
/// `dynamic_app_link_components` (`developer.android.com/training/app-links/configure-assetlinks`).
/// Each component may have `/` (a path pattern), `#` (a fragment pattern), `?` (an object of
/// query parameter → pattern), `exclude` (a boolean) and `comment`. The first component that
/// matches a URL decides: `exclude` keeps it in the browser. Patterns use `*` (any run) and `?`
/// (one character). The app's manifest bounds the scope: rules cannot widen it, and are not seen here.
public struct DynamicAppLinkRules: Sendable, Equatable {
    public struct QueryRule: Sendable, Equatable {
        public var name: String
        public var pattern: String
    }

    public struct Component: Sendable, Equatable {
        public var index: Int
        public var path: String?
        public var fragment: String?
        public var query: [QueryRule]?
        public var exclude: Bool
        public var comment: String?
        /// The component as written.
        public var source: JSONValue = .object(JSONObject())

        public init(
            index: Int, path: String? = nil, fragment: String? = nil, query: [QueryRule]? = nil, exclude: Bool,
            comment: String? = nil
        ) {
            self.index = index
            self.path = path
            self.fragment = fragment
            self.query = query
            self.exclude = exclude
            self.comment = comment
        }

        /// `{"/": "/shop/*", "exclude": true}` as a reader would write it.
        public var summary: String {
            var parts: [String] = []
            if let path { parts.append("\"/\": \"\(path)\"") }
            if let query {
                parts.append("\"?\": {\(query.map { "\"\($0.name)\": \"\($0.pattern)\"" }.joined(separator: ", "))}")
            }
            if let fragment { parts.append("\"#\": \"\(fragment)\"") }
            if exclude { parts.append("\"exclude\": true") }
            return "{\(parts.joined(separator: ", "))}"
        }
    }

    public var components: [Component]

    public init(components: [Component]) {
        self.components = components
    }

    /// How Android's syntax looks, for messages about shapes that are not it.
    public static let syntax =
        "Android 15's syntax: inside the app's own statement, \"relation_extensions\": {\"delegate_permission/common.handle_all_urls\": {\"dynamic_app_link_components\": [{\"/\": \"/shop/*\"}, {\"/\": \"/admin/*\", \"exclude\": true}]}}."

    /// Components past this many are not read; real files have a handful.
    public static let maximumComponents = 1_000

    static let knownKeys: Set<String> = ["/", "#", "?", "exclude", "comment"]

    /// What makes Android discard every dynamic rule of the statement: where, and why.
    struct Dropped: Error {
        var path: [JSONLocator.Step]
        var why: String
    }

    /// Reads a statement's `relation_extensions`, with the problems found: the list is found,
    /// then each component is read; a shape Android cannot use drops them all.
    static func read(
        _ extensions: JSONValue, relations: [String], at place: ([JSONLocator.Step]) -> String
    ) -> (rules: DynamicAppLinkRules?, problems: [StatementList.Problem]) {
        var problems: [StatementList.Problem] = []
        do {
            guard let (values, listPath) = try componentList(extensions, relations: relations, at: place, &problems)
            else { return (nil, problems) }
            var components: [Component] = []
            for (index, value) in values.prefix(maximumComponents).enumerated() {
                components.append(
                    try component(value, index: index, path: listPath + [.index(index)], place, &problems))
            }
            if values.count > maximumComponents {
                problems.append(
                    StatementList.Problem(
                        code: .assetLinks(.dynamicRules), effect: .notice, place: place(listPath),
                        message: "\(values.count) components; the first \(maximumComponents) were read.",
                        severityCase: .readInPart))
            }
            return (DynamicAppLinkRules(components: components), problems)
        } catch {
            problems.append(
                StatementList.Problem(
                    code: .assetLinks(.dynamicRules), effect: .dropsDynamicRules, place: place(error.path),
                    message:
                        "\(error.why) Android discards every dynamic rule of this statement (its App Links still verify; the manifest alone decides)."
                ))
            return (nil, problems)
        }
    }

    /// `relation_extensions` → `handle_all_urls` → `dynamic_app_link_components`: the list and
    /// its path, nil when there is none.
    private static func componentList(
        _ extensions: JSONValue, relations: [String], at place: ([JSONLocator.Step]) -> String,
        _ problems: inout [StatementList.Problem]
    ) throws(Dropped) -> ([JSONValue], [JSONLocator.Step])? {
        guard case .object(let byRelation) = extensions else {
            throw Dropped(
                path: [], why: "relation_extensions is \(ContentChecks.article(extensions.typeName)), not an object.")
        }
        guard let extensionValue = byRelation[StatementList.handleAllURLs] else { return nil }
        let base: [JSONLocator.Step] = [.key(StatementList.handleAllURLs)]
        if !relations.contains(StatementList.handleAllURLs) {
            problems.append(
                StatementList.Problem(
                    code: .assetLinks(.dynamicRules), effect: .notice, place: place(base),
                    message:
                        "Dynamic rules for \(StatementList.handleAllURLs), in a statement whose relation does not grant it: they never apply.",
                    severityCase: .dynamicRulesNotice))
        }
        guard case .object(let extensionObject) = extensionValue else {
            throw Dropped(path: base, why: "The extension for \(StatementList.handleAllURLs) is not an object.")
        }
        guard let componentsValue = extensionObject["dynamic_app_link_components"] else { return nil }
        let listPath = base + [.key("dynamic_app_link_components")]
        guard case .array(let values) = componentsValue else {
            throw Dropped(
                path: listPath,
                why: "dynamic_app_link_components is \(ContentChecks.article(componentsValue.typeName)), not an array.")
        }
        return (values, listPath)
    }

    /// One component: its members read, unknown keys noted (and a component they leave with
    /// nothing to match on, which matches every URL).
    private static func component(
        _ value: JSONValue, index: Int, path: [JSONLocator.Step], _ place: ([JSONLocator.Step]) -> String,
        _ problems: inout [StatementList.Problem]
    ) throws(Dropped) -> Component {
        guard case .object(let object) = value else {
            throw Dropped(
                path: path, why: "Component \(index) is \(ContentChecks.article(value.typeName)), not an object.")
        }
        var component = Component(index: index, exclude: false)
        component.source = value
        for (key, member) in object.members {
            if knownKeys.contains(key) {
                try read(member, as: key, into: &component, at: path + [.key(key)])
                continue
            }
            let hint =
                ["path": "/", "paths": "/", "fragment": "#", "query": "?"][key].map {
                    " (for \(key), the key is \"\($0)\")"
                } ?? ""
            problems.append(
                StatementList.Problem(
                    code: .assetLinks(.dynamicRules), effect: .notice, place: place(path + [.key(key)]),
                    message:
                        "Component \(index) has the key \"\(key.prefix(60))\", which Android does not know\(hint): it is ignored, so this component matches more than it seems to.",
                    severityCase: .dynamicRulesNotice))
        }
        let unknown = object.keys.filter { !knownKeys.contains($0) }
        if !unknown.isEmpty, component.path == nil, component.fragment == nil, component.query == nil,
            !component.exclude
        {
            problems.append(
                StatementList.Problem(
                    code: .assetLinks(.dynamicRules), effect: .notice, place: place(path),
                    message:
                        "Component \(index) has no \"/\", \"?\" or \"#\" Android knows (only \(unknown.map { "\"\($0.prefix(40))\"" }.joined(separator: ", "))), so it matches every URL: every link the manifest accepts opens the app."
                ))
        }
        return component
    }

    /// A member Android knows (`knownKeys`), of the type it must have.
    private static func read(
        _ member: JSONValue, as key: String, into component: inout Component, at path: [JSONLocator.Step]
    ) throws(Dropped) {
        let type = ContentChecks.article(member.typeName)
        switch (key, member) {
        case ("/", .string(let pattern)): component.path = pattern
        case ("#", .string(let pattern)): component.fragment = pattern
        case ("/", _), ("#", _): throw Dropped(path: path, why: "\"\(key)\" is \(type), not a pattern string.")
        case ("?", .object(let parameters)):
            component.query = try parameters.members.map { name, pattern throws(Dropped) in
                guard case .string(let text) = pattern else {
                    throw Dropped(
                        path: path + [.key(name)],
                        why:
                            "The pattern of query parameter \"\(name.prefix(60))\" is \(ContentChecks.article(pattern.typeName)), not a string."
                    )
                }
                return QueryRule(name: name, pattern: text)
            }
        case ("?", _):
            throw Dropped(
                path: path,
                why: "\"?\" is \(type), not an object of parameter → pattern (e.g. {\"ref\": \"*\"}).")
        case ("exclude", .bool(let exclude)): component.exclude = exclude
        case ("exclude", _): throw Dropped(path: path, why: "\"exclude\" is \(type), not true or false.")
        case ("comment", .string(let comment)): component.comment = comment
        default: throw Dropped(path: path, why: "\"comment\" is \(type), not a string.")
        }
    }

    /// What the rules decide for a URL.
    public enum Decision: Sendable, Equatable {
        /// The component (by index) that sends it to the app.
        case app(Component)
        /// The component that keeps it in the browser.
        case excluded(Component)
        /// No component matches: the dynamic rules do not send it to the app.
        case none
        /// The work budget was spent before a component decided (rules or a URL built to be
        /// slow): nothing is known, which is not "stays in the browser".
        case undecided
    }

    /// The first component that matches decides. Patterns are matched against the URL's path,
    /// fragment and query values as written (case-sensitive); every `?` parameter must be present
    /// and match; a component without a key matches every value of it. Every step is charged to
    /// one budget: each pattern compiled once per component (its length), each value it is tried
    /// on (the automaton's visits), each parameter looked at.
    public func decide(_ url: MatchURL, budget visits: Int = MatchBudget.standardVisits) -> Decision {
        var budget = MatchBudget(visits: visits)
        let parameters = Self.queryParameters(url.query)
        guard budget.spend(parameters.count + (url.query?.utf8.count ?? 0)) else { return .undecided }
        func compiled(_ source: String) -> Pattern? {
            budget.spend(source.utf8.count + 1) ? Pattern(source, variables: nil, caseSensitive: true) : nil
        }
        for component in components {
            if let path = component.path {
                guard let pattern = compiled(path) else { return .undecided }
                if !pattern.matches(url.path, budget: &budget) {
                    if budget.exhausted { return .undecided }
                    continue
                }
            }
            if let fragment = component.fragment {
                guard let pattern = compiled(fragment) else { return .undecided }
                if !pattern.matches(url.fragment ?? "", budget: &budget) {
                    if budget.exhausted { return .undecided }
                    continue
                }
            }
            if let query = component.query {
                var all = true
                for rule in query {
                    guard let pattern = compiled(rule.pattern), budget.spend(parameters.count) else {
                        return .undecided
                    }
                    let present = parameters.contains {
                        $0.name == rule.name && pattern.matches($0.value, budget: &budget)
                    }
                    if budget.exhausted { return .undecided }
                    if !present {
                        all = false
                        break
                    }
                }
                if !all { continue }
            }
            if budget.exhausted { return .undecided }
            return component.exclude ? .excluded(component) : .app(component)
        }
        return .none
    }

    static func queryParameters(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
        }
    }
}
