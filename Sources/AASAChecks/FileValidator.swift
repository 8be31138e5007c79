import AASAJSON
import AASAModel

/// Validates a whole association file, key by key, against what Apple defines
/// (aasa-hosting-rules.md §4) and what the matcher will do with it (aasa-matching.md): every
/// service, every key with the type of its value, the legacy forms, substitution variables,
/// and rules that can never decide. Findings carry the JSON path of what they concern.
struct FileValidator {
    let location: FindingLocation
    let options: ValidationOptions
    private var listed: [Finding] = []
    /// Findings of each code beyond `maximumPerCode`: counted, not listed; the worst one kept.
    private var unlisted: [FindingCode: (count: Int, worst: Finding)] = [:]
    private var countByCode: [FindingCode: Int] = [:]

    /// Findings of one code listed at most per file: a file of 16,000 unknown keys gets 50 of
    /// them and one "and 15,950 more" record, not a report that grows with the file.
    static let maximumPerCode = 50

    /// The findings, each code's extra ones folded into one record at the end.
    var findings: [Finding] {
        listed
            + unlisted.sorted { $0.key.rawValue < $1.key.rawValue }.map { code, extra in
                // The worst of them, at its catalogued severity, says how many there are.
                var folded = extra.worst
                folded.message =
                    "… and \(extra.count) more \(code.rawValue) finding\(extra.count == 1 ? "" : "s") in this file, not listed (the first \(Self.maximumPerCode) are)."
                folded.position = nil
                return folded
            }
    }

    static let services = AssociatedDomainService.allCases.map(\.rawValue)
    static let applinksKeys = ["details", "defaults", "substitutionVariables", "apps"]
    /// A `comment` on an entry is the team's note, as on a component: iOS ignores it, harmlessly.
    static let entryKeys = ["appID", "appIDs", "paths", "components", "defaults", "comment"]
    static let componentKeys = ["/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded"]
    static let defaultsKeys = ["/", "?", "#", "exclude", "caseSensitive", "percentEncoded"]
    /// Misspellings seen in real files, and what may have been meant (the first candidate
    /// that the context knows is suggested).
    static let aliases: [String: [String]] = [
        "appId": ["appID"], "appid": ["appID"], "AppID": ["appID"], "app_id": ["appID"], "appIds": ["appIDs"],
        "appids": ["appIDs"], "AppIDs": ["appIDs"],
        "path": ["paths", "/"], "component": ["components"], "default": ["defaults"], "detail": ["details"],
        "substitutionVariable": ["substitutionVariables"], "applink": ["applinks"], "webcredential": ["webcredentials"],
        "appclip": ["appclips"],
        "query": ["?"], "fragment": ["#"], "excluded": ["exclude"],
    ]

    init(location: FindingLocation, options: ValidationOptions) {
        self.location = location
        self.options = options
    }

    mutating func report(_ code: FindingCode, _ message: String) {
        add(Finding(code, location, message))
    }

    mutating func report(_ code: FindingCode, _ severityCase: SeverityCase, _ message: String) {
        add(Finding(code, severityCase, location, message))
    }

    private mutating func add(_ finding: Finding) {
        let count = countByCode[finding.code, default: 0] + 1
        countByCode[finding.code] = count
        guard count > Self.maximumPerCode else {
            listed.append(finding)
            return
        }
        let extra = unlisted[finding.code] ?? (0, finding)
        unlisted[finding.code] = (extra.count + 1, finding.severity > extra.worst.severity ? finding : extra.worst)
    }

    // MARK: Helpers

    mutating func requireIOS(_ version: IOSVersion, for what: String) {
        guard let minimum = options.minimumIOS, minimum < version else { return }
        report(
            .aasa(.featureMinIOS),
            "\(what) needs iOS \(version), but the app supports iOS \(minimum): older devices ignore it.")
    }

    /// One finding per key of `object` that is not `known`, with a "did you mean" hint.
    mutating func reportUnknownKeys(
        of object: JSONObject, in place: String, known: [String], as code: FindingCode,
        effect: String = "iOS ignores it"
    ) {
        for key in object.keys where !known.contains(key) {
            report(code, "Unknown key \"\(key)\" in \(place)\(hint(key, among: known)); \(effect).")
        }
    }

    func hint(_ key: String, among known: [String]) -> String {
        if let meant = (Self.aliases[key] ?? []).first(where: known.contains)
            ?? known.first(where: { $0.lowercased() == key.lowercased() })
        {
            return " (did you mean \"\(meant)\"?)"
        }
        return ""
    }

    /// Objects anywhere in the file that repeat a key: parsers disagree on which value counts.
    mutating func reportDuplicateKeys(_ value: JSONValue, at path: String) {
        switch value {
        case .object(let object):
            for key in object.duplicateKeys {
                let place = path.isEmpty ? "The top level" : path
                report(
                    .aasa(.jsonDuplicateKey),
                    "\(place) has the key \(JSONValue.string(key).prettyPrinted()) more than once. iOS keeps the last value (as this audit does); other JSON parsers keep the first or refuse the file."
                )
            }
            for member in object.members {
                reportDuplicateKeys(member.value, at: path.isEmpty ? member.key : "\(path).\(member.key)")
            }
        case .array(let items):
            for (index, item) in items.enumerated() { reportDuplicateKeys(item, at: "\(path)[\(index)]") }
        default:
            break
        }
    }

    static func a(_ value: JSONValue) -> String {
        ContentChecks.article(value.typeName)
    }
}
