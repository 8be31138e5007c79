/// The catalog's entries for `assetlinks.json` (Digital Asset Links): Android's own findings.

extension SeverityCase {
    /// `assetlinks.include` in `lint`, which does not fetch: a valid include is a note.
    public static let includeNotFollowedOffline = SeverityCase(
        .info, when: "for a valid include in lint, which does not fetch it")
    /// `assetlinks.dynamic-rules` for what Android does not discard: unknown keys, rules that never apply.
    public static let dynamicRulesNotice = SeverityCase(
        .warning, when: "for an unknown key, an exclude object beside the target, or rules that never apply")
    /// `assetlinks.statement` and `assetlinks.dynamic-rules` for a list longer than is read.
    public static let readInPart = SeverityCase(
        .warning, when: "for a list longer than is read, whose first part was read")
}

/// Limits on following `include` directives (`docs/robustness.md`).
public enum AssetLinksLimits {
    /// Include levels below assetlinks.json that are followed.
    public static let maximumIncludeDepth = 3
    /// Included files fetched per domain, at most.
    public static let maximumIncludedFiles = 10
}

/// assetlinks.json's codes: each its case and its entry, in one exhaustive switch.
public enum AssetLinksCode: String, FindingCodeFamily {
    case status = "assetlinks.status"
    case redirect = "assetlinks.redirect"
    case contentType = "assetlinks.content-type"
    case tooLarge = "assetlinks.too-large"
    case jsonInvalid = "assetlinks.json-invalid"
    case notList = "assetlinks.not-list"
    case relation = "assetlinks.relation"
    case loginCreds = "assetlinks.login-creds"
    case statement = "assetlinks.statement"
    case fingerprint = "assetlinks.fingerprint"
    case include = "assetlinks.include"
    case packageMissing = "assetlinks.package-missing"
    case fingerprintMissing = "assetlinks.fingerprint-missing"
    case site = "assetlinks.site"
    case dynamicRules = "assetlinks.dynamic-rules"
    case includeFailed = "assetlinks.include-failed"
    case manifestScope = "assetlinks.manifest-scope"
    case unknownKey = "assetlinks.unknown-key"

    // One entry per code: a table, which reads better whole.
    public var definition: FindingDefinition {
        switch self {
        case .status:
            FindingDefinition(
                .assetLinks, .error,
                meaning:
                    "assetlinks.json was not served with HTTP 200. Android's verifier then finds no statements for the host, and App Links open in the browser (Android 11 and older: every host of the app then fails).",
                fix:
                    "Serve https://HOST/.well-known/assetlinks.json with status 200 to every client, Google's verifier included."
            )
        case .redirect:
            FindingDefinition(
                .assetLinks, .error,
                meaning:
                    "assetlinks.json answered with a redirect. Google's verifier follows none (its API reports REDIRECT), not even apex to www or to the same path.",
                fix: "Serve the file directly, with 200, on this exact host.")
        case .contentType:
            FindingDefinition(
                .assetLinks, .error,
                meaning:
                    "assetlinks.json is not served as application/json; Google's API reports WRONG_CONTENT_TYPE and the statements are not read.",
                fix: "Serve the file with Content-Type: application/json.")
        case .tooLarge:
            FindingDefinition(
                .assetLinks, .error,
                meaning:
                    "assetlinks.json is larger than the 128 KB this audit reads. Google's verifier has a limit too (TOO_LARGE) without publishing the number; real files are a few hundred bytes.",
                fix: "Keep the file small: one statement per app, only the fingerprints in use.")
        case .jsonInvalid:
            FindingDefinition(
                .assetLinks, .error,
                meaning:
                    "assetlinks.json is not strict JSON (a trailing comma, a comment, a byte-order mark...). Google's parser rejects the whole file.",
                fix: "Write strict JSON; `python3 -m json.tool assetlinks.json` must accept it.")
        case .notList:
            FindingDefinition(
                .assetLinks, .error,
                meaning: "assetlinks.json is not a non-empty array of statements (a single object is not accepted).",
                fix: "Write [ {\"relation\": [...], \"target\": {...}} ], one object per statement.")
        case .relation:
            FindingDefinition(
                .assetLinks, .error,
                meaning:
                    "A statement's relation is not a non-empty array of kind/detail strings (such as delegate_permission/common.handle_all_urls), so Google's parser reports an error and skips the statement (and the app it names); or an Android app the input names is declared only for other relations (delegate_permission/common.get_login_creds alone shares credentials and passkeys, it does not verify links), so its App Links are not verified.",
                fix:
                    "Write \"relation\": [\"delegate_permission/common.handle_all_urls\"] (with get_login_creds beside it when the app also shares credentials)."
            )
        case .loginCreds:
            FindingDefinition(
                .assetLinks, .error,
                meaning:
                    "The domain declares passkeys (passkeys in domains.txt, --passkeys), but no statement Google's parser keeps gives its Android app delegate_permission/common.get_login_creds: Android's Credential Manager does not offer the site's passkeys and passwords in the app.",
                fix:
                    "Add \"delegate_permission/common.get_login_creds\" to the relation of the app's statement (beside handle_all_urls), with its signing certificate's fingerprint."
            )
        case .statement:
            FindingDefinition(
                .assetLinks, .error, cases: [.readInPart],
                meaning:
                    "A statement Google's parser cannot read: not an object, no target or a target that is not an object, an unknown namespace, an android_app whose package_name is missing or not a Java package name, a web target without site. Google reports an error and skips the statement (the others still count): when it is the app's own, the app is not declared.",
                fix:
                    "Give each statement {\"namespace\": \"android_app\", \"package_name\": ..., \"sha256_cert_fingerprints\": [...]}, or {\"namespace\": \"web\", \"site\": \"https://...\"}."
            )
        case .fingerprint:
            FindingDefinition(
                .assetLinks, .error,
                meaning:
                    "A certificate fingerprint is malformed: not 32 colon-separated upper-case hex bytes (lower case, no colons, a 20-byte SHA-1). Google's parser reports an error and skips the statement (\"malformed cert\"), and with it the app's declaration; a missing, empty or non-array sha256_cert_fingerprints does the same.",
                fix:
                    "Copy the SHA-256 fingerprint as keytool -list -v or the Play Console prints it (AB:CD:...:EF, 95 characters)."
            )
        case .include:
            FindingDefinition(
                .assetLinks, .error, cases: [.includeNotFollowedOffline],
                meaning:
                    "An include directive ({\"include\": URL}) Google's parser cannot use: a statement with include and other standard fields (an include admits none), an include that is not a URL string, a URL that is not http(s), has an invalid port, or is plain HTTP in a list served over HTTPS. Google reports an error and skips it. In lint, which does not fetch, a valid include is noted (info): audit and check follow it.",
                fix:
                    "Give each include a statement of its own: {\"include\": \"https://example.com/other-assetlinks.json\"}."
            )
        case .packageMissing:
            FindingDefinition(
                .assetLinks, .error,
                meaning:
                    "An Android app the input names is not declared at all: no android_app statement names its package (one declared for another relation only is assetlinks.relation).",
                fix:
                    "Add a statement for the package with \"relation\": [\"delegate_permission/common.handle_all_urls\"] and its signing certificate's fingerprint."
            )
        case .fingerprintMissing:
            FindingDefinition(
                .assetLinks, .error,
                meaning:
                    "The package is declared, but not with the fingerprint the input names. The usual cause: the file lists the upload key's fingerprint while Google Play re-signs the app with its app signing key (Play Console, App integrity, App signing), so installed apps never match; debug builds use yet another key.",
                fix:
                    "List the app signing key's SHA-256 fingerprint from the Play Console (the upload key's may stay beside it)."
            )
        case .site:
            FindingDefinition(
                .assetLinks, .error,
                meaning:
                    "A web target's site is not what Google accepts: an http or https URL with a host and nothing else (no path, not even /, no query, no fragment, no login information, a port within 0-65535). Google reports an error and skips the statement.",
                fix: "Write the site as scheme://host[:port], e.g. \"https://www.example.com\"."
            )
        case .dynamicRules:
            FindingDefinition(
                .assetLinks, .error, cases: [.dynamicRulesNotice, .readInPart],
                meaning:
                    "Android 15's dynamic rules (relation_extensions, delegate_permission/common.handle_all_urls, dynamic_app_link_components) are malformed so that Android discards every dynamic rule of the statement: the extension or the list of the wrong type, a component that is not an object, \"/\" or \"#\" not a string, \"?\" not an object of strings, exclude not a boolean. Or the statement uses a shape that circulates in blog posts (\"include\": {\"paths\": [...]} or \"exclude\": {...} inside the statement) that is not Android's syntax: with include, Google's parser skips the whole statement and the app's declaration with it. Unknown keys in a component and rules that can never apply are warnings.",
                fix:
                    "Write the rules as Android documents them: \"relation_extensions\": {\"delegate_permission/common.handle_all_urls\": {\"dynamic_app_link_components\": [{\"/\": \"/shop/*\"}, {\"/\": \"/admin/*\", \"exclude\": true}]}}."
            )
        case .includeFailed:
            FindingDefinition(
                .assetLinks, .error,
                meaning:
                    "An included statement list could not be used: its fetch failed (refused, a redirect, not 200, not JSON, too large, a blocked address, out of time), it is not a valid statement list, or following it would pass the limits (a cycle, more than \(AssetLinksLimits.maximumIncludeDepth) levels, more than \(AssetLinksLimits.maximumIncludedFiles) files). Google reports an error too; the statements that file would have added do not count, and the finding names the packages the domain's input expects that are then missing.",
                fix:
                    "Serve the included file with the same rules as assetlinks.json (HTTPS, 200, application/json, no redirect), or inline its statements."
            )
        case .manifestScope:
            FindingDefinition(
                .assetLinks, .warning,
                meaning:
                    "A dynamic rule of assetlinks.json can never send a URL to the app: the app's manifest (\(AndroidOption.manifest)) has no verified intent filter for that host whose paths the rule's path pattern can reach, and dynamic rules cannot widen the manifest's scope.",
                fix:
                    "Add the path to the manifest's <intent-filter android:autoVerify=\"true\"> (a pathPrefix or pathPattern), or remove the rule."
            )
        case .unknownKey:
            FindingDefinition(
                .assetLinks, .warning,
                meaning:
                    "A statement has a key Android does not know (say \"conditions\" with a host and pathPattern, meant to keep paths in the browser): Android ignores it, so the statement grants what it would without it, and every URL the manifest accepts opens the app.",
                fix:
                    "Remove the key; to keep paths in the browser, narrow the manifest's intent filter, or on Android 15 use relation_extensions with dynamic_app_link_components and \"exclude\": true."
            )
        }
    }
}

extension FindingCode {
    /// A code of assetlinks.json's.
    public static func assetLinks(_ code: AssetLinksCode) -> FindingCode { FindingCode(code) }
}
