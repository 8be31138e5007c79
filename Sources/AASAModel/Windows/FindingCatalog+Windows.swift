/// The catalog's entries for `windows-app-web-link` (Microsoft's "Enable apps for websites using
/// app URI handlers"): what Windows does with the file.

/// windows-app-web-link's codes: each its case and its entry, in one exhaustive switch.
public enum WindowsCode: String, FindingCodeFamily {
    case missing = "windows.missing"
    case status = "windows.status"
    case redirect = "windows.redirect"
    case contentType = "windows.content-type"
    case tooLarge = "windows.too-large"
    case jsonInvalid = "windows.json-invalid"
    case notList = "windows.not-list"
    case entry = "windows.entry"
    case packageName = "windows.package-name"
    case pathsEmpty = "windows.paths-empty"
    case excludesAll = "windows.excludes-all"
    case pathUnanchored = "windows.path-unanchored"
    case unknownKey = "windows.unknown-key"
    case differ = "windows.differ"
    case appMissing = "windows.app-missing"

    // One entry per code: a table, which reads better whole.
    public var definition: FindingDefinition {
        let category = AssociationKind.windows.category
        return switch self {
        case .missing:
            FindingDefinition(
                category, .error,
                meaning:
                    "Neither /.well-known/windows-app-web-link nor /windows-app-web-link serves the file with 200: Windows verifies no app for the host, and its links open in the browser.",
                fix:
                    "Serve the JSON array, without a file extension, at https://HOST/.well-known/windows-app-web-link (or the web root), with status 200."
            )
        case .status:
            FindingDefinition(
                category, .warning,
                meaning:
                    "One location answered neither 200 nor 404 (an error, a block): a Windows device that asks there gets no file.",
                fix: "Serve the file with 200 to every client, or 404 where it is not kept.")
        case .redirect:
            FindingDefinition(
                category, .warning,
                meaning:
                    "A location answered with a redirect. Microsoft documents no redirect for the file: serve it where Windows asks, at the host the app's manifest names (www is not the apex).",
                fix: "Serve the file directly at each host the app's manifest lists, with 200.")
        case .contentType:
            FindingDefinition(
                category, .warning,
                meaning: "The file is not served as application/json, the type of its content.",
                fix:
                    "Serve windows-app-web-link with Content-Type: application/json (it has no extension to type it by)."
            )
        case .tooLarge:
            FindingDefinition(
                category, .error,
                meaning:
                    "The file is larger than 128 KB; the file lists a few apps and paths, and this audit reads no more.",
                fix: "List each app once, with patterns (* and ?) instead of every path.")
        case .jsonInvalid:
            FindingDefinition(
                category, .error,
                meaning: "The file is not strict JSON; Windows cannot read it.",
                fix:
                    "Write strict JSON: [{\"packageFamilyName\": \"Contoso.App_8wekyb3d8bbwe\", \"paths\": [\"*\"]}].")
        case .notList:
            FindingDefinition(
                category, .error,
                meaning:
                    "The file is not a JSON array: Windows reads a list of entries, one per app, even for one app.",
                fix: "Wrap the entry in [ ]: [{\"packageFamilyName\": \"…\", \"paths\": [\"*\"]}].")
        case .entry:
            FindingDefinition(
                category, .error,
                meaning:
                    "An entry is malformed: not an object, without a packageFamilyName string, with paths or excludePaths that are not arrays of strings, or allowSubdomains that is not true or false. Windows cannot use it.",
                fix:
                    "Write each entry as {\"packageFamilyName\": \"Name_PublisherId\", \"paths\": [\"/shop/*\"], \"excludePaths\": [\"/shop/admin/*\"], \"allowSubdomains\": false}."
            )
        case .packageName:
            FindingDefinition(
                category, .error,
                meaning:
                    "A packageFamilyName is not Name_PublisherId (the package's name, an underscore, the 13-character publisher ID), or is a placeholder copied from an example: no installed app has it.",
                fix:
                    "Copy the package family name from the app's Package.appxmanifest (Packaging tab) or `Get-AppxPackage`: Contoso.App_8wekyb3d8bbwe."
            )
        case .pathsEmpty:
            FindingDefinition(
                category, .warning,
                meaning: "An entry has no paths, so it opens no URL in the app.",
                fix: "List the paths the app opens: \"paths\": [\"/shop/*\"] (\"*\" for every path).")
        case .excludesAll:
            FindingDefinition(
                category, .warning,
                meaning:
                    "An entry's excludePaths holds a pattern that matches every path (\"*\" or \"/*\"): Windows reads excludePaths first, so the entry opens no URL in the app, whatever its paths say.",
                fix:
                    "Exclude only the paths that must stay in the browser (\"/account/*\"), or remove the entry if the app is to open none."
            )
        case .pathUnanchored:
            FindingDefinition(
                category, .warning,
                meaning:
                    "A pattern in paths or excludePaths starts with neither / nor a wildcard: Windows compares it with the URL's path, which always starts with /, so it never matches (an exclusion that never excludes, a path that never opens).",
                fix: "Start the pattern with /: \"/shop/*\", not \"shop/*\".")
        case .unknownKey:
            FindingDefinition(
                category, .info,
                meaning:
                    "An entry holds keys besides packageFamilyName, paths, excludePaths and allowSubdomains; Windows ignores them.",
                fix: "Nothing to do unless a key was meant to be one of the four (check its spelling and case).")
        case .differ:
            FindingDefinition(
                category, .warning,
                meaning:
                    "/.well-known/windows-app-web-link and /windows-app-web-link both serve a file, and they differ: which one a device reads decides what opens.",
                fix: "Serve the same file at both places, or only at /.well-known/.")
        case .appMissing:
            FindingDefinition(
                category, .error,
                meaning:
                    "An app the input names (windows:PACKAGE_FAMILY_NAME) is in no entry of the file: Windows does not verify it, and the site's links open in the browser instead.",
                fix:
                    "Add an entry for it: {\"packageFamilyName\": \"Contoso.App_8wekyb3d8bbwe\", \"paths\": [\"*\"]}. Windows sees the change within 1 to 8 days."
            )
        }
    }
}

extension FindingCode {
    /// A code of windows-app-web-link's.
    public static func windows(_ code: WindowsCode) -> FindingCode { FindingCode(code) }
}
