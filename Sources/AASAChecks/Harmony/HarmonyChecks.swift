import AASAJSON
import AASAModel

/// `applinking.json` (HarmonyOS App Linking): `https://HOST/.well-known/applinking.json`, an
/// object `{"applinking": {"apps": [{"appIdentifier": "…", "index": 0}]}}`.
public enum HarmonyChecks {
    /// Apps' findings listed at most; the rest are counted in one.
    static let maximumListedProblems = 20
    static let appKeys: Set<String> = ["appIdentifier", "index"]
    /// The keys of the shape blog posts copy.
    static let blogKeys: Set<String> = ["app_id", "appId", "app_identifier", "package_name"]

    /// The file as the device fetches it: no redirect, 200, its type, then its content.
    public static func assess(_ fetched: FetchedLocation, expected: [String]) -> (
        findings: [Finding], declarations: HarmonyDeclarations?
    ) {
        let record = fetched.record
        let path = AASALocation.harmony.path
        if let error = record.error {
            return (error.kind == .skipped ? [] : [LocationChecks.transferFinding(error, at: .harmony)], nil)
        }
        guard let status = record.status else { return ([], nil) }
        if (300..<400).contains(status) {
            let target = record.redirectTarget ?? record.headers.location
            return (
                [
                    Finding(
                        .harmony(.redirect), .harmony,
                        "\(path) answered HTTP \(status)\(target.map { " to \($0.prefix(300))" } ?? ""); serve the file there directly."
                    )
                ], nil
            )
        }
        guard status == 200 else {
            return ([Finding(.harmony(.status), .harmony, "\(path) answered HTTP \(status); it must be 200.")], nil)
        }
        if record.bodyTruncated || record.bodyBytes > HarmonyLimits.maximumFileBytes {
            return (
                [
                    Finding(
                        .harmony(.tooLarge), .harmony,
                        "\(path) is \(record.bodyTruncated ? "more than " : "")\(record.bodyBytes) bytes; this audit reads at most \(HarmonyLimits.maximumFileBytes)."
                    )
                ], nil
            )
        }
        var findings: [Finding] = []
        if record.headers.contentType.map(LocationChecks.mediaType(of:)) != "application/json" {
            findings.append(
                Finding(
                    .harmony(.contentType), .harmony,
                    "Content-Type is \(record.headers.contentType.map { String($0.prefix(200)) } ?? "missing"), not application/json."
                ))
        }
        let content = assessContent(fetched.body, expected: expected, at: .harmony)
        return (findings + content.findings, content.declarations)
    }

    /// The file's content, wherever it came from (`lint` reads a local file at `.file`).
    public static func assessContent(_ bytes: [UInt8], expected: [String], at location: FindingLocation) -> (
        findings: [Finding], declarations: HarmonyDeclarations?
    ) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            return ([Finding(.harmony(.jsonInvalid), location, "Not valid JSON: \(error.description).")], nil)
        }
        let right = #"{"applinking": {"apps": [{"appIdentifier": "…"}]}}"#
        guard let object = json.objectValue else {
            return (
                [
                    Finding(
                        .harmony(.shape), location,
                        "The file is a JSON \(json.typeName), not an object: write \(right).")
                ], nil
            )
        }
        guard let applinking = object["applinking"]?.objectValue, let apps = applinking["apps"]?.arrayValue else {
            let blog =
                object.keys.contains(where: blogKeys.contains)
                || (object["apps"]?.arrayValue?.first?.objectValue?.keys.contains(where: blogKeys.contains) ?? false)
            return (
                [
                    Finding(
                        .harmony(.shape), location,
                        blog
                            ? "The file has the shape blog posts copy (app_id), which HarmonyOS does not read: write \(right)."
                            : "The file has no applinking object with an apps array: write \(right).")
                ], nil
            )
        }
        var findings: [Finding] = []
        let unknown = object.keys.filter { $0 != "applinking" } + applinking.keys.filter { $0 != "apps" }
        if apps.isEmpty {
            findings.append(
                Finding(.harmony(.appsEmpty), location, "applinking.apps is empty.").at(
                    .key("applinking"), .key("apps")))
        }
        let entries = read(apps, at: location)
        let declared = entries.declared
        var problems = entries.problems
        if problems.count > maximumListedProblems, var summary = problems.last {
            summary.message =
                "\(problems.count - maximumListedProblems) more apps have problems like those above (the first \(maximumListedProblems) are listed)."
            problems = Array(problems.prefix(maximumListedProblems)) + [summary]
        }
        findings += problems
        if let ignored = ignoredKeys(unknown + entries.unknown, at: location) { findings.append(ignored) }
        let identifiers = Set(declared.map(\.appIdentifier))
        for identifier in expected where !identifiers.contains(identifier) {
            findings.append(Finding(.harmony(.appMissing), location, "applinking.apps does not name \(identifier)."))
        }
        return (FindingPositions.place(findings, in: bytes), HarmonyDeclarations(apps: declared))
    }

    /// The keys HarmonyOS ignores, once each, at most ten named.
    static func ignoredKeys(_ keys: [String], at location: FindingLocation) -> Finding? {
        guard !keys.isEmpty else { return nil }
        var seen: Set<String> = []
        let names = keys.filter { seen.insert($0).inserted }.prefix(10).map { "\"\($0.prefix(80))\"" }
        return Finding(.harmony(.unknownKey), location, "Keys HarmonyOS ignores: \(names.joined(separator: ", ")).")
    }

    /// A value as a message shows it: a number or a string as written, else its type with its
    /// article ("an object").
    static func shown(_ value: JSONValue) -> String {
        switch value {
        case .number(let text): String(text.prefix(40))
        case .string(let text): "\"\(text.prefix(40))\""
        default:
            value.typeName.first.map { "aeiou".contains($0) } == true ? "an \(value.typeName)" : "a \(value.typeName)"
        }
    }

    /// The apps' entries: those read, the problems of the rest, the keys the device ignores.
    static func read(_ apps: [JSONValue], at location: FindingLocation) -> (
        declared: [HarmonyDeclarations.App], problems: [Finding], unknown: [String]
    ) {
        var problems: [Finding] = []
        var declared: [HarmonyDeclarations.App] = []
        var unknownInApps: [String] = []
        for (index, item) in apps.enumerated() {
            guard let app = item.objectValue, let identifier = app["appIdentifier"]?.stringValue else {
                let blog = item.objectValue?.keys.contains(where: blogKeys.contains) == true
                problems.append(
                    Finding(
                        .harmony(.app), location,
                        "apps[\(index)] has no appIdentifier string\(blog ? " (it has app_id, the blog posts' key)" : "")."
                    ).at(.key("applinking"), .key("apps"), .index(index))
                )
                continue
            }
            if let reason = HarmonyAppIdentifier.problem(with: identifier) {
                problems.append(
                    Finding(.harmony(.app), location, "apps[\(index)]: \(reason).").at(
                        .key("applinking"), .key("apps"), .index(index), .key("appIdentifier")))
                continue
            }
            var entry = HarmonyDeclarations.App(appIdentifier: identifier)
            if let value = app["index"] {
                if case .number(let text) = value, let number = Int(text), HarmonyLimits.indexRange.contains(number) {
                    entry.index = number
                } else {
                    problems.append(
                        Finding(
                            .harmony(.index), location,
                            "apps[\(index)].index is \(Self.shown(value)), not an integer from \(HarmonyLimits.indexRange.lowerBound) to \(HarmonyLimits.indexRange.upperBound)."
                        ).at(.key("applinking"), .key("apps"), .index(index), .key("index")))
                }
            }
            unknownInApps += app.keys.filter { !appKeys.contains($0) }
            declared.append(entry)
        }
        return (declared, problems, unknownInApps)
    }
}
