import AASAJSON
import AASAMatching
import AASAModel

/// What the validation is told besides the file.
public struct ValidationOptions: Sendable, Equatable {
    /// The oldest iOS the app supports (`--min-ios`); nil when not given.
    public var minimumIOS: IOSVersion?

    public init(minimumIOS: IOSVersion? = nil) {
        self.minimumIOS = minimumIOS
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

    static let components = IOSVersion("13")!
    static let substitutionVariables = IOSVersion("13.5")!
    static let defaults = IOSVersion("14")!
}

/// Validates a whole association file, key by key, against what Apple defines
/// (aasa-hosting-rules.md §4) and what the matcher will do with it (aasa-matching.md): every
/// service, every key with the type of its value, the legacy forms, substitution variables,
/// and rules that can never decide. Findings carry the JSON path of what they concern.
struct FileValidator {
    let location: FindingLocation
    let options: ValidationOptions
    private(set) var findings: [Finding] = []

    static let services = ["applinks", "webcredentials", "appclips", "activitycontinuation"]
    static let applinksKeys = ["details", "defaults", "substitutionVariables", "apps"]
    static let entryKeys = ["appID", "appIDs", "paths", "components", "defaults"]
    static let componentKeys = ["/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded"]
    static let defaultsKeys = ["/", "?", "#", "exclude", "caseSensitive", "percentEncoded"]
    /// Misspellings seen in real files, and what may have been meant (the first candidate
    /// that the context knows is suggested).
    static let aliases: [String: [String]] = [
        "appId": ["appID"], "appid": ["appID"], "AppID": ["appID"], "app_id": ["appID"], "appIds": ["appIDs"], "appids": ["appIDs"], "AppIDs": ["appIDs"],
        "path": ["paths", "/"], "component": ["components"], "default": ["defaults"], "detail": ["details"],
        "substitutionVariable": ["substitutionVariables"], "applink": ["applinks"], "webcredential": ["webcredentials"], "appclip": ["appclips"],
        "query": ["?"], "fragment": ["#"], "excluded": ["exclude"],
    ]

    init(location: FindingLocation, options: ValidationOptions) {
        self.location = location
        self.options = options
    }

    mutating func report(_ code: FindingCode, _ severity: Severity, _ message: String) {
        findings.append(Finding(code, severity, location, message))
    }

    // MARK: The file and its services

    mutating func validate(_ file: JSONObject) {
        for member in file.members {
            switch member.key {
            case "applinks":
                if case .object(let applinks) = member.value { validateApplinks(applinks, file: file) }
            case "webcredentials", "appclips", "activitycontinuation":
                validateService(member.key, member.value)
            default:
                report(.fileUnknownKey, .warning, "Unknown top-level key \"\(member.key)\"\(hint(member.key, among: Self.services)); iOS ignores it.")
            }
        }
    }

    mutating func validateService(_ name: String, _ value: JSONValue) {
        guard case .object(let section) = value else {
            report(.serviceInvalid, .error, "\(name) is \(Self.a(value)), not an object of the form {\"apps\": [...]}.")
            return
        }
        for key in section.keys where key != "apps" {
            report(.fileUnknownKey, .warning, "Unknown key \"\(key)\" in \(name); only apps is read.")
        }
        guard case .array(let apps)? = section["apps"] else {
            let found = section["apps"].map { "is \(Self.a($0))" } ?? "is missing"
            report(.serviceInvalid, .error, "\(name).apps \(found); it must be an array of app IDs.")
            return
        }
        for (index, app) in apps.enumerated() {
            guard case .string(let id) = app else {
                report(.serviceInvalid, .error, "\(name).apps[\(index)] is \(Self.a(app)), not an app ID string.")
                continue
            }
            if name == "appclips", !id.hasSuffix(".Clip") {
                report(.appClipSuffix, .info, "\(name).apps[\(index)] \"\(id)\" does not end in .Clip, as App Clip IDs do by convention.")
            }
        }
    }

    // MARK: applinks

    mutating func validateApplinks(_ applinks: JSONObject, file: JSONObject) {
        for key in applinks.keys where !Self.applinksKeys.contains(key) {
            report(.applinksUnknownKey, .warning, "Unknown key \"\(key)\" in applinks\(hint(key, among: Self.applinksKeys)); iOS ignores it.")
        }
        if let apps = applinks["apps"] {
            switch apps {
            case .array(let list) where list.isEmpty: break
            case .array: report(.applinksLegacyApps, .warning, "applinks.apps is not empty; the legacy key must be [] (or left out).")
            default: report(.valueType, .error, "applinks.apps is \(Self.a(apps)), not an array (the legacy key must be []).")
            }
        }
        if let variables = applinks["substitutionVariables"] {
            validateVariables(variables)
            requireIOS(IOSVersion.substitutionVariables, for: "applinks.substitutionVariables")
        }
        if let defaults = applinks["defaults"] {
            validateDefaults(defaults, path: "applinks.defaults")
        }

        switch applinks["details"] {
        case nil:
            report(.detailsMissing, .error, "applinks has no details: no app gets any link.")
        case .array(let entries)?:
            if entries.isEmpty { report(.detailsEmpty, .error, "applinks.details is empty: no app gets any link.") }
            for (index, entry) in entries.enumerated() {
                validateEntry(entry, path: "applinks.details[\(index)]")
            }
        case .object(let legacy)?:
            let note = legacy.members.count > 1 ? "; with \(legacy.members.count) apps their order is undefined (tried here in sorted order)" : ""
            report(.detailsDictionary, .warning, "applinks.details is the iOS 9 era dictionary keyed by app ID\(note).")
            for member in legacy.members {
                let path = "applinks.details[\(JSONValue.string(member.key).prettyPrinted())]"
                validateLegacyEntry(member.value, path: path)
            }
        case let other?:
            report(.detailsInvalid, .error, "applinks.details is \(Self.a(other)), not an array: no app gets any link.")
        }
        validateRules(RuleSet(file: file), applinks: applinks)
    }

    mutating func validateEntry(_ value: JSONValue, path: String) {
        guard case .object(let entry) = value else {
            report(.entryInvalid, .error, "\(path) is \(Self.a(value)), not an object; it is ignored.")
            return
        }
        for key in entry.keys where !Self.entryKeys.contains(key) {
            report(.entryUnknownKey, .warning, "Unknown key \"\(key)\" in \(path)\(hint(key, among: Self.entryKeys)); iOS ignores it.")
        }
        var apps = 0
        if let appID = entry["appID"] {
            if case .string = appID { apps += 1 } else { report(.valueType, .error, "\(path).appID is \(Self.a(appID)), not a string.") }
        }
        if let appIDs = entry["appIDs"] {
            if case .array(let list) = appIDs {
                for (index, id) in list.enumerated() where id.stringValue == nil {
                    report(.valueType, .error, "\(path).appIDs[\(index)] is \(Self.a(id)), not a string.")
                }
                apps += list.compactMap(\.stringValue).count
            } else {
                report(.valueType, .error, "\(path).appIDs is \(Self.a(appIDs)), not an array of strings.")
            }
        }
        if apps == 0 {
            let why = entry["appIDs"]?.arrayValue?.isEmpty == true ? "its appIDs is empty" : "it has no appID or appIDs"
            report(.entryNoApp, .error, "\(path) names no app (\(why)): its rules open nothing.")
        }
        if entry["appID"] != nil, entry["appIDs"] != nil {
            report(.entryMixedAppKeys, .warning, "\(path) has both appID and appIDs; use one (the apps are taken as the union of both).")
        }

        let paths = entry["paths"]
        let components = entry["components"]
        var rules = 0
        if let paths {
            if case .array(let list) = paths {
                rules += list.count
                for (index, item) in list.enumerated() { validateLegacyPath(item, path: "\(path).paths[\(index)]") }
            } else {
                report(.valueType, .error, "\(path).paths is \(Self.a(paths)), not an array of strings.")
            }
        }
        var componentCount = 0
        if let components {
            if case .array(let list) = components {
                componentCount = list.count
                for (index, item) in list.enumerated() { validateComponent(item, path: "\(path).components[\(index)]") }
            } else {
                report(.valueType, .error, "\(path).components is \(Self.a(components)), not an array of objects.")
            }
        }
        rules += componentCount
        if rules == 0 {
            report(.entryNoRules, .error, "\(path) has no rules (no components or paths): its app gets no links.")
        }
        if paths != nil, components != nil {
            switch options.minimumIOS {
            case let minimum? where minimum < IOSVersion.components:
                report(.entryMixedFormats, .info, "\(path) has both paths (read by iOS 12 and older) and components (iOS 13+), as an app supporting iOS \(minimum) needs.")
            case let minimum?:
                report(.entryMixedFormats, .warning, "\(path) has both paths and components; with iOS \(minimum) as the minimum only components are read, and TN3155 warns that mixing breaks links.")
            case nil:
                report(.entryMixedFormats, .warning, "\(path) has both paths and components: iOS 13+ reads only components, iOS 12 only paths, and TN3155 warns that mixing breaks links (say --min-ios to judge it).")
            }
        }
        if componentCount > 0, paths == nil || entry["appID"] == nil {
            requireIOS(IOSVersion.components, for: "\(path).components (without appID + paths for older iOS)")
        }
        if let defaults = entry["defaults"] {
            validateDefaults(defaults, path: "\(path).defaults")
        }
    }

    mutating func validateLegacyEntry(_ value: JSONValue, path: String) {
        guard case .object(let entry) = value else {
            report(.entryInvalid, .error, "\(path) is \(Self.a(value)), not an object with paths; it is ignored.")
            return
        }
        for key in entry.keys where key != "paths" {
            report(.entryUnknownKey, .warning, "Unknown key \"\(key)\" in \(path); the dictionary form reads only paths.")
        }
        guard case .array(let list)? = entry["paths"], !list.isEmpty else {
            report(.entryNoRules, .error, "\(path) has no paths: its app gets no links.")
            return
        }
        for (index, item) in list.enumerated() { validateLegacyPath(item, path: "\(path).paths[\(index)]") }
    }

    mutating func validateLegacyPath(_ value: JSONValue, path: String) {
        guard case .string(let text) = value else {
            report(.valueType, .error, "\(path) is \(Self.a(value)), not a path string.")
            return
        }
        let pattern = text.hasPrefix("NOT ") ? String(text.dropFirst(4)) : text
        if pattern.lowercased().hasPrefix("https://") || pattern.lowercased().hasPrefix("http://") {
            report(.pathsURL, .error, "\(path) \"\(text)\" is a full URL; only the path is compared, so it never matches.")
        }
        checkLength(pattern, path: path)
    }

    // MARK: Components and defaults

    mutating func validateComponent(_ value: JSONValue, path: String) {
        guard case .object(let component) = value else {
            report(.valueType, .error, "\(path) is \(Self.a(value)), not an object; it is ignored.")
            return
        }
        for key in component.keys where !Self.componentKeys.contains(key) {
            report(.componentUnknownKey, .warning, "Unknown key \"\(key)\" in \(path)\(hint(key, among: Self.componentKeys)); iOS ignores it, so the rule matches more than intended.")
        }
        validateComponentValues(component, path: path, allowComment: true)
    }

    mutating func validateDefaults(_ value: JSONValue, path: String) {
        requireIOS(IOSVersion.defaults, for: path)
        guard case .object(let defaults) = value else {
            report(.valueType, .error, "\(path) is \(Self.a(value)), not an object.")
            return
        }
        for key in defaults.keys where !Self.defaultsKeys.contains(key) {
            report(.defaultsUnknownKey, .warning, "Unknown key \"\(key)\" in \(path)\(hint(key, among: Self.defaultsKeys)); iOS ignores it.")
        }
        validateComponentValues(defaults, path: path, allowComment: false)
    }

    mutating func validateComponentValues(_ object: JSONObject, path: String, allowComment: Bool) {
        for member in object.members {
            let keyPath = "\(path)[\(JSONValue.string(member.key).prettyPrinted())]"
            switch (member.key, member.value) {
            case ("/", .string(let pattern)), ("#", .string(let pattern)):
                checkLength(pattern, path: keyPath)
            case ("?", .string(let pattern)):
                checkLength(pattern, path: keyPath)
            case ("?", .object(let items)):
                let nonStrings = items.members.filter { $0.value.stringValue == nil }
                if let first = nonStrings.first {
                    report(.componentQueryDisabled, .warning, "\(keyPath) has a value that is not a string (\"\(first.key)\": \(first.value.prettyPrinted(indent: ""))); iOS then ignores the whole dictionary, so the rule accepts any query.")
                }
                for item in items.members { if let pattern = item.value.stringValue { checkLength(pattern, path: keyPath) } }
            case ("exclude", .bool), ("caseSensitive", .bool), ("percentEncoded", .bool), ("comment", .string):
                break
            case ("/", let other), ("#", let other):
                report(.valueType, .error, "\(keyPath) is \(Self.a(other)), not a pattern string; it is ignored.")
            case ("?", let other):
                report(.valueType, .error, "\(keyPath) is \(Self.a(other)), not a pattern string or a dictionary of them; it is ignored.")
            case ("exclude", let other), ("caseSensitive", let other), ("percentEncoded", let other):
                report(.valueType, .error, "\(keyPath) is \(Self.a(other)), not true or false; it is ignored.")
            case ("comment", let other) where allowComment:
                report(.valueType, .warning, "\(keyPath) is \(Self.a(other)), not a string.")
            default:
                break
            }
        }
    }

    mutating func checkLength(_ pattern: String, path: String) {
        if pattern.unicodeScalars.count > Pattern.maximumLength {
            report(.patternTooLong, .error, "\(path) is \(pattern.unicodeScalars.count) characters long; patterns over \(Pattern.maximumLength) are treated as matching nothing.")
        }
    }

    // MARK: Substitution variables

    mutating func validateVariables(_ value: JSONValue) {
        guard case .object(let variables) = value else {
            report(.variableInvalid, .error, "applinks.substitutionVariables is \(Self.a(value)), not an object of name → array of strings.")
            return
        }
        for member in variables.members {
            let name = member.key
            let path = "applinks.substitutionVariables[\(JSONValue.string(name).prettyPrinted())]"
            if name.isEmpty || name.contains(where: { $0 == "$" || $0 == "(" || $0 == ")" }) {
                report(.variableInvalid, .error, "\(path): a variable name may not be empty or hold $, ( or ).")
            }
            if BuiltinVariables.names.contains(name) {
                report(.variableShadowsBuiltin, .warning, "\(path) reuses the name of the built-in $(\(name)); what iOS does then is not documented (the auditor uses the file's values).")
            }
            guard case .array(let values) = member.value else {
                report(.variableInvalid, .error, "\(path) is \(Self.a(member.value)), not an array of strings.")
                continue
            }
            if values.isEmpty {
                report(.variableEmpty, .warning, "\(path) has no values: every pattern using $(\(name)) never matches.")
            }
            for (index, item) in values.enumerated() {
                guard case .string(let text) = item else {
                    report(.variableInvalid, .error, "\(path)[\(index)] is \(Self.a(item)), not a string.")
                    continue
                }
                if text.contains("$(") {
                    report(.variableInvalid, .error, "\(path)[\(index)] \"\(text)\" refers to another variable, which a value may not do.")
                }
            }
        }
    }

    // MARK: What the matcher will do

    /// Rules after a catch-all never decide; patterns that use undefined variables never
    /// match. A later entry is never consulted when an earlier catch-all excludes every URL, or
    /// when its apps already took every URL from an earlier entry; an entry for other apps
    /// still matters on devices where the earlier apps are not installed.
    mutating func validateRules(_ rules: RuleSet, applinks: JSONObject) {
        var excludingEverything: RuleSet.Rule?
        var takenEverything: [String: RuleSet.Rule] = [:]
        var used = Set<String>()
        for entry in rules.entries {
            if !entry.rules.isEmpty {
                if let blocker = excludingEverything {
                    report(.entryUnreachable, .warning, "\(entry.path) is never consulted: \(blocker.path) excludes every URL first.")
                    continue
                }
                if !entry.appIDs.isEmpty, let blocker = entry.appIDs.compactMap({ takenEverything[$0] }).first,
                   entry.appIDs.allSatisfy({ takenEverything[$0] != nil }) {
                    report(.entryUnreachable, .warning, "\(entry.path) is never consulted for its apps: \(blocker.path) already sends them every URL.")
                    continue
                }
            }
            var catchAll: RuleSet.Rule?
            var seen: [JSONValue] = []
            for rule in entry.rules {
                for name in rule.undefinedVariables {
                    report(.variableUndefined, .error, "\(rule.path) uses $(\(name)), which is neither defined in substitutionVariables nor built in: the pattern never matches.")
                }
                if let earlier = catchAll {
                    let what = rule.exclude ? "this exclusion never applies" : "this rule never decides"
                    report(.ruleUnreachable, .warning, "\(rule.path): \(what), because \(earlier.path) matches every URL first.")
                } else if seen.contains(rule.source) {
                    report(.ruleUnreachable, .warning, "\(rule.path) repeats an earlier rule of the same entry, which always decides first.")
                } else if rule.matchesEverything {
                    catchAll = rule
                }
                seen.append(rule.source)
            }
            if let catchAll {
                if catchAll.exclude {
                    excludingEverything = catchAll
                } else {
                    for app in entry.appIDs where takenEverything[app] == nil { takenEverything[app] = catchAll }
                }
            }
        }
        // Which variables the patterns refer to (in components and both defaults levels).
        var texts: [String] = []
        collectPatternTexts(.object(applinks), into: &texts)
        for text in texts { used.formUnion(Self.variableNames(in: text)) }
        for name in (applinks["substitutionVariables"]?.objectValue?.keys ?? []) where !used.contains(name) {
            report(.variableUnused, .info, "applinks.substitutionVariables[\(JSONValue.string(name).prettyPrinted())] is never used.")
        }
    }

    func collectPatternTexts(_ value: JSONValue, into texts: inout [String]) {
        switch value {
        case .string(let text): texts.append(text)
        case .array(let list): for item in list { collectPatternTexts(item, into: &texts) }
        case .object(let object):
            for member in object.members where member.key != "substitutionVariables" && member.key != "comment" {
                collectPatternTexts(member.value, into: &texts)
            }
        default: break
        }
    }

    static func variableNames(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let start = rest.firstRange(of: "$(") {
            rest = rest[start.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            names.append(String(rest[..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    // MARK: Helpers

    mutating func requireIOS(_ version: IOSVersion, for what: String) {
        guard let minimum = options.minimumIOS, minimum < version else { return }
        report(.featureMinIOS, .warning, "\(what) needs iOS \(version), but the app supports iOS \(minimum): older devices ignore it.")
    }

    func hint(_ key: String, among known: [String]) -> String {
        if let meant = (Self.aliases[key] ?? []).first(where: known.contains) ?? known.first(where: { $0.lowercased() == key.lowercased() }) {
            return " (did you mean \"\(meant)\"?)"
        }
        return ""
    }

    static func a(_ value: JSONValue) -> String {
        ContentChecks.article(value.typeName)
    }
}
