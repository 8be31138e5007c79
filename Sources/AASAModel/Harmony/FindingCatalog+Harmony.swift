/// The catalog's entries for `applinking.json` (HarmonyOS App Linking): what a HarmonyOS device
/// does with the file.

/// applinking.json's codes: each its case and its entry, in one exhaustive switch.
public enum HarmonyCode: String, FindingCodeFamily {
    case status = "harmony.status"
    case redirect = "harmony.redirect"
    case contentType = "harmony.content-type"
    case tooLarge = "harmony.too-large"
    case jsonInvalid = "harmony.json-invalid"
    case shape = "harmony.shape"
    case appsEmpty = "harmony.apps-empty"
    case app = "harmony.app"
    case index = "harmony.index"
    case unknownKey = "harmony.unknown-key"
    case appMissing = "harmony.app-missing"

    // One entry per code: a table, which reads better whole.
    public var definition: FindingDefinition {
        let category = AssociationKind.harmony.category
        return switch self {
        case .status:
            FindingDefinition(
                category, .error,
                meaning:
                    "/.well-known/applinking.json was not served with 200: the device verifies no app for the host, and its links open in the browser.",
                fix: "Serve https://HOST/.well-known/applinking.json with status 200 to every client.")
        case .redirect:
            FindingDefinition(
                category, .error,
                meaning:
                    "/.well-known/applinking.json answered with a redirect; App Linking reads the file at the host the app declares, and a redirect is not its file.",
                fix: "Serve the file directly at each host the app's module.json5 declares, with 200.")
        case .contentType:
            FindingDefinition(
                category, .warning,
                meaning: "applinking.json is not served as application/json, the type of its content.",
                fix: "Serve the file with Content-Type: application/json.")
        case .tooLarge:
            FindingDefinition(
                category, .error,
                meaning: "applinking.json is larger than 128 KB; it lists a few apps, and this audit reads no more.",
                fix: "List only the apps: {\"applinking\": {\"apps\": [{\"appIdentifier\": \"…\"}]}}.")
        case .jsonInvalid:
            FindingDefinition(
                category, .error,
                meaning: "applinking.json is not strict JSON; the device cannot read it.",
                fix: "Write strict JSON: {\"applinking\": {\"apps\": [{\"appIdentifier\": \"5765880207854972765\"}]}}.")
        case .shape:
            FindingDefinition(
                category, .error,
                meaning:
                    "The file is not an object whose applinking member is an object with an apps array; or it uses the shape blog posts copy ({\"app_id\": …}, {\"apps\": [{\"app_id\": …}]}), which HarmonyOS does not read.",
                fix:
                    "Write {\"applinking\": {\"apps\": [{\"appIdentifier\": \"5765880207854972765\"}]}}, with the app identifier from AppGallery Connect (Project settings, General information)."
            )
        case .appsEmpty:
            FindingDefinition(
                category, .error,
                meaning: "applinking.apps is empty: the file names no app, so no link opens one.",
                fix: "List the app: {\"appIdentifier\": \"5765880207854972765\"}.")
        case .app:
            FindingDefinition(
                category, .error,
                meaning:
                    "An entry of apps is not an object with an appIdentifier string (AppGallery Connect's app identifier), or holds a placeholder: the device skips it.",
                fix: "Write each entry as {\"appIdentifier\": \"5765880207854972765\"}, with an optional \"index\".")
        case .index:
            FindingDefinition(
                category, .error,
                meaning:
                    "An app's index is not an integer from -100 to 100 (the app with the highest index opens a link several apps claim; equal ones may repeat).",
                fix: "Give index as an integer in [-100, 100], or leave it out.")
        case .unknownKey:
            FindingDefinition(
                category, .info,
                meaning:
                    "The file holds keys besides applinking, apps, appIdentifier and index; the device ignores them.",
                fix: "Nothing to do unless a key was meant to be one of them (check its spelling and case).")
        case .appMissing:
            FindingDefinition(
                category, .error,
                meaning:
                    "An app the input names (harmony:APP_IDENTIFIER) is not in applinking.apps: the device does not verify it, and the site's links open in the browser.",
                fix:
                    "Add {\"appIdentifier\": \"…\"} for it. A device verifies after the app is installed (at least 20 s later): reinstall, wait a minute, then test a link."
            )
        }
    }
}

extension FindingCode {
    /// A code of applinking.json's.
    public static func harmony(_ code: HarmonyCode) -> FindingCode { FindingCode(code) }
}
