import AASAJSON
import AASAModel

/// Validates a whole association file, key by key, against what Apple defines
/// (aasa-hosting-rules.md §4) and what the matcher will do with it (aasa-matching.md): every
/// service, every key with the type of its value, the legacy forms, substitution variables,
/// and rules that can never decide. Findings carry the JSON path of what they concern.
struct FileValidator {
    let location: FindingLocation
    let options: ValidationOptions
    private(set) var findings: [Finding] = []

    static let services = AssociatedDomainService.allCases.map(\.rawValue)
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

    mutating func report(_ code: FindingCode, _ message: String) {
        findings.append(Finding(code, location, message))
    }

    mutating func report(_ code: FindingCode, _ severityCase: SeverityCase, _ message: String) {
        findings.append(Finding(code, severityCase, location, message))
    }

    // MARK: Helpers

    mutating func requireIOS(_ version: IOSVersion, for what: String) {
        guard let minimum = options.minimumIOS, minimum < version else { return }
        report(.featureMinIOS, "\(what) needs iOS \(version), but the app supports iOS \(minimum): older devices ignore it.")
    }

    /// One finding per key of `object` that is not `known`, with a "did you mean" hint.
    mutating func reportUnknownKeys(of object: JSONObject, in place: String, known: [String], as code: FindingCode, effect: String = "iOS ignores it") {
        for key in object.keys where !known.contains(key) {
            report(code, "Unknown key \"\(key)\" in \(place)\(hint(key, among: known)); \(effect).")
        }
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
