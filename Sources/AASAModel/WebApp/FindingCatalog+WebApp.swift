/// The catalog's entries for `web-app-origin-association`: what Chromium's fetcher and parser do
/// with it (issue 58).

/// web-app-origin-association's codes: each its case and its entry, in one exhaustive switch.
public enum WebAppCode: String, FindingCodeFamily {
    case status = "webapp.status"
    case redirect = "webapp.redirect"
    case tooLarge = "webapp.too-large"
    case jsonInvalid = "webapp.json-invalid"
    case notObject = "webapp.not-object"
    case empty = "webapp.empty"
    case legacyShape = "webapp.legacy-shape"
    case idInvalid = "webapp.id-invalid"
    case valueType = "webapp.value-type"
    case scopeInvalid = "webapp.scope-invalid"
    case scopeType = "webapp.scope-type"
    case allowMigration = "webapp.allow-migration"
    case unknownKey = "webapp.unknown-key"
    case appMissing = "webapp.app-missing"
    case manifestUnreachable = "webapp.manifest-unreachable"
    case manifestInvalid = "webapp.manifest-invalid"
    case manifestScope = "webapp.manifest-scope"
    case manifestID = "webapp.manifest-id"

    // One entry per code: a table, which reads better whole.
    public var definition: FindingDefinition {
        let category = AssociationKind.webApp.category
        return switch self {
        case .status:
            FindingDefinition(
                category, .error,
                meaning:
                    "/.well-known/web-app-origin-association was not served with 200: Chrome and Edge associate no web app with the origin, and its pages open outside the installed app.",
                fix: "Serve https://HOST/.well-known/web-app-origin-association with 200 to every client.")
        case .redirect:
            FindingDefinition(
                category, .error,
                meaning: "The file's URL answered with a redirect, which Chromium's fetcher treats as an error.",
                fix: "Serve the file at this exact origin's /.well-known/ path, with 200 and no redirect.")
        case .tooLarge:
            FindingDefinition(
                category, .error,
                meaning: "The file is over 1,000,000 bytes, the most Chromium downloads: it reads no file.",
                fix: "Keep only the associated apps in the file.")
        case .jsonInvalid:
            FindingDefinition(
                category, .error, meaning: "The file is not valid JSON: Chromium associates nothing.",
                fix: "Serve a JSON object keyed by manifest ids: {\"https://app.example.com/app\": {\"scope\": \"/\"}}."
            )
        case .notObject:
            FindingDefinition(
                category, .error, meaning: "The file's JSON is not an object: Chromium associates nothing.",
                fix: "Serve a JSON object keyed by manifest ids: {\"https://app.example.com/app\": {\"scope\": \"/\"}}."
            )
        case .empty:
            FindingDefinition(
                category, .error, meaning: "The file is an empty object: it associates no web app.",
                fix: "Key the object by each app's manifest id: {\"https://app.example.com/app\": {}}.")
        case .legacyShape:
            FindingDefinition(
                category, .error,
                meaning:
                    "The file has an older shape ({\"web_apps\": [...]}, URL handlers), which current Chrome and Edge read as a manifest id that is no URL and ignore without a word.",
                fix:
                    "Rewrite it keyed by manifest ids: {\"https://app.example.com/app\": {\"scope\": \"/\"}} (the scope_extensions explainer)."
            )
        case .idInvalid:
            FindingDefinition(
                category, .warning,
                meaning: "A key is not a valid URL: Chromium ignores the app (\"Manifest ID is not a valid URL\").",
                fix:
                    "Key each app by its manifest id, an absolute URL (the manifest's id, or its start_url without one)."
            )
        case .valueType:
            FindingDefinition(
                category, .warning,
                meaning: "An app's value is not an object: Chromium ignores the app (\"type object expected\").",
                fix: "Give each app an object, {} when it extends to the whole origin.")
        case .scopeInvalid:
            FindingDefinition(
                category, .warning,
                meaning:
                    "An app's scope is not a URL on this origin once resolved against it: Chromium ignores the app (\"'scope' is not a valid URL\").",
                fix: "Give scope as a path on this origin (\"/shop\"), or leave it out for the whole origin.")
        case .scopeType:
            FindingDefinition(
                category, .warning,
                meaning:
                    "An app's scope is not a string: Chromium reads it as missing, so the app extends to the whole origin.",
                fix: "Give scope as a string path (\"/shop\"), or leave it out for the whole origin.")
        case .allowMigration:
            FindingDefinition(
                category, .warning, meaning: "allow_migration is not a boolean.",
                fix: "Give allow_migration as true or false, or leave it out.")
        case .unknownKey:
            FindingDefinition(
                category, .info,
                meaning: "An app's object has keys Chromium does not read (it knows scope and allow_migration).",
                fix: "Remove them, or check their spelling.")
        case .appMissing:
            FindingDefinition(
                category, .error,
                meaning:
                    "The file does not associate a web app the input names (by its manifest id): Chrome and Edge do not extend the app's scope to this origin.",
                fix:
                    "Add the app's manifest id as a key, {\"https://app.example.com/app\": {}}, and list this origin in the manifest's scope_extensions."
            )
        case .manifestUnreachable:
            FindingDefinition(
                category, .warning,
                meaning:
                    "The app's manifest (the URL the input gives) could not be fetched with 200: the cross-check was not made.",
                fix: "Check the manifest's URL in domains.txt (webapp:ID@MANIFEST_URL), and that it is served.")
        case .manifestInvalid:
            FindingDefinition(
                category, .error,
                meaning: "The app's manifest is not a JSON object: Chromium reads no scope_extensions from it.",
                fix: "Serve the manifest as a JSON object.")
        case .manifestScope:
            FindingDefinition(
                category, .error,
                meaning:
                    "The app's manifest does not list this origin in scope_extensions as Chromium reads them (an array whose first 10 entries count, each {\"type\": \"origin\", \"origin\": \"https://…\"}; a string entry, an object without that type and a *. wildcard extend to nothing): the association file alone extends nothing.",
                fix:
                    "Add {\"type\": \"origin\", \"origin\": \"https://HOST\"} to the manifest's scope_extensions, one entry per origin."
            )
        case .manifestID:
            FindingDefinition(
                category, .error,
                meaning:
                    "The app's manifest id (its id, resolved against its start_url, or its start_url without one) is not the one the association file and the input name: Chromium associates another app.",
                fix: "Key the association file by the manifest's own id, and name the same id in domains.txt.")
        }
    }
}

extension FindingCode {
    /// A code of web-app-origin-association's.
    public static func webApp(_ code: WebAppCode) -> FindingCode { FindingCode(code) }
}
