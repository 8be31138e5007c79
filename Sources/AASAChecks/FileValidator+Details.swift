import AASAJSON
import AASAMatching
import AASAModel

/// applinks: its own keys, and each entry of `details` in both forms.
extension FileValidator {

    mutating func validateApplinks(_ applinks: JSONObject, file: JSONObject) {
        reportUnknownKeys(of: applinks, in: "applinks", known: Self.applinksKeys, as: .aasa(.applinksUnknownKey))
        if let apps = applinks["apps"] {
            switch apps {
            case .array(let list) where list.isEmpty: break
            case .array:
                report(
                    .aasa(.applinksLegacyApps), "applinks.apps is not empty; the legacy key must be [] (or left out).")
            default:
                report(.aasa(.valueType), "applinks.apps is \(Self.a(apps)), not an array (the legacy key must be []).")
            }
        } else if let minimum = options.minimumIOS, minimum < IOSVersion.components, Self.usesLegacyPaths(applinks) {
            // Apple's original documentation: the iOS 9-12 format needs "apps": [] present.
            report(
                .aasa(.applinksLegacyApps), .appsMissingForOldIOS,
                "applinks has no \"apps\": [] key. The paths format of iOS 9 to 12 required it present and empty, and the app supports iOS \(minimum) (\(OptionName.minimumIOS)): add \"apps\": [] to applinks."
            )
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
            report(.aasa(.detailsMissing), "applinks has no details: no app gets any link.")
        case .array(let entries)?:
            if entries.isEmpty { report(.aasa(.detailsEmpty), "applinks.details is empty: no app gets any link.") }
            for (index, entry) in entries.enumerated() {
                validateEntry(entry, path: "applinks.details[\(index)]")
            }
        case .object(let legacy)?:
            let note =
                legacy.members.count > 1
                ? "; with \(legacy.members.count) apps their order is undefined (tried here in sorted order)" : ""
            report(.aasa(.detailsDictionary), "applinks.details is the iOS 9 era dictionary keyed by app ID\(note).")
            for member in legacy.members {
                let path = "applinks.details[\(JSONValue.string(member.key).prettyPrinted())]"
                validateLegacyEntry(member.value, path: path)
            }
        case let other?:
            report(.aasa(.detailsInvalid), "applinks.details is \(Self.a(other)), not an array: no app gets any link.")
        }
        validateRules(RuleSet(file: file), applinks: applinks)
    }

    /// Whether an entry gives `paths` (the iOS 9-12 format), in either form of `details`.
    static func usesLegacyPaths(_ applinks: JSONObject) -> Bool {
        switch applinks["details"] {
        case .object?: true
        case .array(let entries)?: entries.contains { $0.objectValue?["paths"] != nil }
        default: false
        }
    }

    /// A `details` entry: its apps, then its rules, then how its formats mix.
    mutating func validateEntry(_ value: JSONValue, path: String) {
        guard case .object(let entry) = value else {
            report(.aasa(.entryInvalid), "\(path) is \(Self.a(value)), not an object; it is ignored.")
            return
        }
        reportUnknownKeys(of: entry, in: path, known: Self.entryKeys, as: .aasa(.entryUnknownKey))
        validateEntryApps(entry, path: path)
        let componentCount = validateEntryRules(entry, path: path)
        if entry["paths"] != nil, entry["components"] != nil { reportMixedFormats(path) }
        if componentCount > 0, entry["paths"] == nil || entry["appID"] == nil {
            requireIOS(IOSVersion.components, for: "\(path).components (without appID + paths for older iOS)")
        }
        if let defaults = entry["defaults"] {
            validateDefaults(defaults, path: "\(path).defaults")
        }
    }

    /// `appID` and `appIDs`: of their types, naming some app, read by the iOS the app supports.
    mutating func validateEntryApps(_ entry: JSONObject, path: String) {
        var apps = 0
        if let appID = entry["appID"] {
            if case .string = appID {
                apps += 1
            } else {
                report(.aasa(.valueType), "\(path).appID is \(Self.a(appID)), not a string.")
            }
        }
        if let appIDs = entry["appIDs"] {
            if case .array(let list) = appIDs {
                for (index, id) in list.enumerated() where id.stringValue == nil {
                    report(.aasa(.valueType), "\(path).appIDs[\(index)] is \(Self.a(id)), not a string.")
                }
                apps += list.compactMap(\.stringValue).count
            } else {
                report(.aasa(.valueType), "\(path).appIDs is \(Self.a(appIDs)), not an array of strings.")
            }
        }
        if apps == 0 {
            let why = entry["appIDs"]?.arrayValue?.isEmpty == true ? "its appIDs is empty" : "it has no appID or appIDs"
            report(.aasa(.entryNoApp), "\(path) names no app (\(why)): its rules open nothing.")
        }
        // iOS 12 and older read a legacy entry's appID only: appIDs (iOS 13+) names no app there.
        if let minimum = options.minimumIOS, minimum < IOSVersion.components, entry["paths"] != nil,
            entry["appID"] == nil, apps > 0
        {
            report(
                .aasa(.entryNoApp),
                "\(path) names its apps only in appIDs, which iOS 12 and older do not read: on the iOS \(minimum) the app supports, this paths entry names no app; add \"appID\"."
            )
        }
        if entry["appID"] != nil, entry["appIDs"] != nil {
            report(
                .aasa(.entryMixedAppKeys),
                "\(path) has both appID and appIDs; use one (the apps are taken as the union of both).")
        }
    }

    /// `paths` and `components`, each rule checked; returns how many components there are.
    mutating func validateEntryRules(_ entry: JSONObject, path: String) -> Int {
        var rules = 0
        if let paths = entry["paths"] {
            if case .array(let list) = paths {
                rules += list.count
                for (index, item) in list.enumerated() { validateLegacyPath(item, path: "\(path).paths[\(index)]") }
            } else {
                report(.aasa(.valueType), "\(path).paths is \(Self.a(paths)), not an array of strings.")
            }
        }
        var componentCount = 0
        if let components = entry["components"] {
            if case .array(let list) = components {
                componentCount = list.count
                for (index, item) in list.enumerated() { validateComponent(item, path: "\(path).components[\(index)]") }
            } else {
                report(.aasa(.valueType), "\(path).components is \(Self.a(components)), not an array of objects.")
            }
        }
        rules += componentCount
        if rules == 0 {
            report(.aasa(.entryNoRules), "\(path) has no rules (no components or paths): its app gets no links.")
        }
        return componentCount
    }

    /// An entry with both `paths` and `components`, judged against the iOS the app supports.
    mutating func reportMixedFormats(_ path: String) {
        switch options.minimumIOS {
        case let minimum? where minimum < IOSVersion.components:
            report(
                .aasa(.entryMixedFormats), .mixedFormatsForOldIOS,
                "\(path) has both paths (read by iOS 12 and older) and components (iOS 13+), as an app supporting iOS \(minimum) needs."
            )
        case let minimum?:
            report(
                .aasa(.entryMixedFormats),
                "\(path) has both paths and components; with iOS \(minimum) as the minimum only components are read, and TN3155 warns that mixing breaks links."
            )
        case nil:
            report(
                .aasa(.entryMixedFormats),
                "\(path) has both paths and components: iOS 13+ reads only components, iOS 12 only paths, and TN3155 warns that mixing breaks links (say \(OptionName.minimumIOS) to judge it)."
            )
        }
    }

    mutating func validateLegacyEntry(_ value: JSONValue, path: String) {
        guard case .object(let entry) = value else {
            report(.aasa(.entryInvalid), "\(path) is \(Self.a(value)), not an object with paths; it is ignored.")
            return
        }
        for key in entry.keys where key != "paths" {
            report(.aasa(.entryUnknownKey), "Unknown key \"\(key)\" in \(path); the dictionary form reads only paths.")
        }
        guard case .array(let list)? = entry["paths"], !list.isEmpty else {
            report(.aasa(.entryNoRules), "\(path) has no paths: its app gets no links.")
            return
        }
        for (index, item) in list.enumerated() { validateLegacyPath(item, path: "\(path).paths[\(index)]") }
    }

    mutating func validateLegacyPath(_ value: JSONValue, path: String) {
        guard case .string(let text) = value else {
            report(.aasa(.valueType), "\(path) is \(Self.a(value)), not a path string.")
            return
        }
        let pattern = text.hasPrefix("NOT ") ? String(text.dropFirst(4)) : text
        if pattern.lowercased().hasPrefix("https://") || pattern.lowercased().hasPrefix("http://") {
            report(
                .aasa(.pathsURL), "\(path) \"\(text)\" is a full URL; only the path is compared, so it never matches.")
        }
        checkLength(pattern, path: path)
    }
}
