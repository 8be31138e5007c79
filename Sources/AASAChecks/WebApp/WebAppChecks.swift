import AASAJSON
import AASAModel
import Foundation

/// `web-app-origin-association` as Chromium fetches and parses it: HTTPS, no redirect, 200, at
/// most 1,000,000 bytes, any content type; a JSON object keyed by manifest ids, each an object
/// with an optional `scope` resolved against this origin (and kept on it) and an optional
/// `allow_migration`. An app Chromium cannot read is ignored, not fatal.
public enum WebAppChecks {
    /// Apps' findings listed at most; the rest are counted in one.
    static let maximumListedProblems = 20
    static let right = #"{"https://app.example.com/app": {"scope": "/"}}"#

    /// The file as Chromium fetches it for `domain`'s origin, judged against the apps the input names.
    public static func assess(_ fetched: FetchedLocation, domain: String, expected: [String]) -> (
        findings: [Finding], associations: WebAppAssociations?
    ) {
        let record = fetched.record
        let path = AASALocation.webApp.path
        if let error = record.error {
            return (error.kind == .skipped ? [] : [LocationChecks.transferFinding(error, at: .webApp)], nil)
        }
        guard let status = record.status else { return ([], nil) }
        if (300..<400).contains(status) {
            let target = record.redirectTarget ?? record.headers.location
            return (
                [
                    Finding(
                        .webApp(.redirect), .webApp,
                        "\(path) answered HTTP \(status)\(target.map { " to \($0.prefix(300))" } ?? ""); Chromium's fetcher takes a redirect as an error."
                    )
                ], nil
            )
        }
        guard status == 200 else {
            return ([Finding(.webApp(.status), .webApp, "\(path) answered HTTP \(status); it must be 200.")], nil)
        }
        if record.bodyTruncated || record.bodyBytes > WebAppLimits.maximumFileBytes {
            return (
                [
                    Finding(
                        .webApp(.tooLarge), .webApp,
                        "\(path) is \(record.bodyTruncated ? "more than " : "")\(record.bodyBytes) bytes; Chromium reads at most \(WebAppLimits.maximumFileBytes)."
                    )
                ], nil
            )
        }
        return assessContent(fetched.body, origin: "https://\(domain)", expected: expected, at: .webApp)
    }

    /// The file's content, wherever it came from; `origin` nil for a local file (`lint`), whose
    /// scopes are then read without the origin they would be resolved against.
    public static func assessContent(
        _ bytes: [UInt8], origin: String?, expected: [String], at location: FindingLocation
    )
        -> (findings: [Finding], associations: WebAppAssociations?)
    {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            return ([Finding(.webApp(.jsonInvalid), location, "Not valid JSON: \(error.description).")], nil)
        }
        guard let object = json.objectValue else {
            return (
                [
                    Finding(
                        .webApp(.notObject), location,
                        "The file is a JSON \(json.typeName), not an object: write \(right).")
                ],
                nil
            )
        }
        guard !object.keys.isEmpty else {
            return (
                [Finding(.webApp(.empty), location, "The file is {}: it associates no web app; write \(right).")], nil
            )
        }
        var (apps, findings) = read(object, origin: origin, at: location)
        if findings.count > maximumListedProblems, var summary = findings.last {
            summary.message =
                "\(findings.count - maximumListedProblems) more apps have problems like those above (the first \(maximumListedProblems) are listed)."
            findings = Array(findings.prefix(maximumListedProblems)) + [summary]
        }
        let legacy = object.keys.filter(WebAppLimits.legacyKeys.contains)
        if !legacy.isEmpty {
            findings.insert(
                Finding(
                    .webApp(.legacyShape), location,
                    "The file has the older shape (\(legacy.map { "\"\($0)\"" }.joined(separator: ", "))), which current Chrome and Edge ignore without a word: write \(right)."
                ).at(.key(legacy[0])), at: 0)
        }
        let associated = Set(apps.map(\.manifestID))
        for id in expected where !associated.contains(id) {
            findings.append(
                Finding(
                    .webApp(.appMissing), location, "The file does not associate \(id.prefix(300)) with this origin."))
        }
        return (FindingPositions.place(findings, in: bytes), WebAppAssociations(apps: apps))
    }

    /// Each key's app, as Chromium reads it, and the problems of those it ignores.
    static func read(_ object: JSONObject, origin: String?, at location: FindingLocation) -> (
        apps: [WebAppAssociations.App], findings: [Finding]
    ) {
        var apps: [WebAppAssociations.App] = []
        var findings: [Finding] = []
        var unknown: [String] = []
        for key in object.keys where !WebAppLimits.legacyKeys.contains(key) {
            let shown = "\"\(key.prefix(120))\""
            guard let id = WebAppManifestID.canonical(key) ?? absoluteURL(key) else {
                findings.append(
                    Finding(.webApp(.idInvalid), location, "\(shown) is not a valid URL: Chromium ignores this app.")
                        .at(
                            .key(key)))
                continue
            }
            guard let app = object[key]?.objectValue else {
                findings.append(
                    Finding(
                        .webApp(.valueType), location, "\(shown)'s value is not an object: Chromium ignores this app."
                    )
                    .at(.key(key)))
                continue
            }
            unknown += app.keys.filter { !WebAppLimits.appKeys.contains($0) }
            if let migration = app["allow_migration"], migration.boolValue == nil {
                findings.append(
                    Finding(.webApp(.allowMigration), location, "\(shown)'s allow_migration is not a boolean.").at(
                        .key(key), .key("allow_migration")))
            }
            switch scope(of: app, origin: origin) {
            case .read(let scope): apps.append(WebAppAssociations.App(manifestID: id, scope: scope))
            case .notString(let scope):
                findings.append(
                    Finding(
                        .webApp(.scopeType), location,
                        "\(shown)'s scope is not a string: Chromium reads it as missing, so the app extends to the whole origin."
                    ).at(.key(key), .key("scope")))
                apps.append(WebAppAssociations.App(manifestID: id, scope: scope))
            case .invalid(let text):
                findings.append(
                    Finding(
                        .webApp(.scopeInvalid), location,
                        "\(shown)'s scope \"\(text.prefix(200))\" is not a URL on \(origin ?? "the file's origin") once resolved against it: Chromium ignores this app."
                    ).at(.key(key), .key("scope")))
            }
        }
        if !unknown.isEmpty {
            var seen: Set<String> = []
            let names = unknown.filter { seen.insert($0).inserted }.prefix(10).map { "\"\($0.prefix(80))\"" }
            findings.append(
                Finding(
                    .webApp(.unknownKey), location, "Keys Chromium does not read: \(names.joined(separator: ", "))."))
        }
        return (apps, findings)
    }

    /// A key Chromium takes as a URL though it is not https (`GURL::is_valid`): a scheme and more.
    static func absoluteURL(_ text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty, text.count > scheme.count + 1
        else { return nil }
        return text
    }

    enum Scope: Equatable {
        case read(String)
        case notString(String)
        case invalid(String)
    }

    /// An app's scope: missing or empty is the origin's root; a string is resolved against the
    /// origin and must stay on it; any other value Chromium reads as missing.
    static func scope(of app: JSONObject, origin: String?) -> Scope {
        let root = (origin ?? "") + "/"
        guard let value = app["scope"] else { return .read(root) }
        guard let text = value.stringValue else { return .notString(root) }
        if text.isEmpty { return .read(root) }
        guard let origin else {
            // A local file: a path is on whatever origin serves it; an absolute URL is judged
            // when the file is audited on its origin.
            return URL(string: text) == nil ? .invalid(text) : .read(text)
        }
        guard let base = URL(string: root), let resolved = URL(string: text, relativeTo: base)?.absoluteURL,
            let originURL = URL(string: origin), resolved.scheme?.lowercased() == "https",
            resolved.host?.lowercased() == originURL.host?.lowercased(), resolved.port == originURL.port
        else { return .invalid(text) }
        return .read(resolved.absoluteString)
    }
}
