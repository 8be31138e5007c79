/// Every finding code the auditor emits. The raw values are a public interface: reports,
/// dashboards and `docs/findings.md` use them. Add codes; never rename one.
public enum FindingCode: String, Codable, Sendable, CaseIterable {
    // Network and TLS: the file could not be fetched at all.
    case netDNS = "net.dns"
    case netConnect = "net.connect"
    case netTimeout = "net.timeout"
    case tlsCertificate = "tls.certificate"
    case tlsHandshake = "tls.handshake"
    case netOther = "net.other"

    // HTTP: how the file is served.
    case httpRedirect = "http.redirect"
    case httpStatus = "http.status"
    case httpContentType = "http.content-type"

    // The body.
    case bodyTooLarge = "body.too-large"
    case bodyEmpty = "body.empty"

    // The content.
    case jsonInvalid = "json.invalid"
    case jsonNotObject = "json.not-object"
    case applinksMissing = "applinks.missing"
    case appIDMalformed = "appid.malformed"
    case appIDMissing = "appid.missing"

    // The domain as a whole.
    case locationRootOnly = "location.root-only"
    case locationNone = "location.none"

    // The whole file, key by key (aasa-hosting-rules.md §4, aasa-matching.md).
    case fileUnknownKey = "file.unknown-key"
    case serviceInvalid = "service.invalid"
    case appClipSuffix = "appclip.suffix"
    case applinksUnknownKey = "applinks.unknown-key"
    case applinksLegacyApps = "applinks.legacy-apps"
    case detailsMissing = "details.missing"
    case detailsEmpty = "details.empty"
    case detailsInvalid = "details.invalid"
    case detailsDictionary = "details.dictionary"
    case entryInvalid = "entry.invalid"
    case entryNoApp = "entry.no-app"
    case entryNoRules = "entry.no-rules"
    case entryUnknownKey = "entry.unknown-key"
    case entryMixedAppKeys = "entry.mixed-app-keys"
    case entryMixedFormats = "entry.mixed-formats"
    case entryUnreachable = "entry.unreachable"
    case valueType = "value.type"
    case componentUnknownKey = "component.unknown-key"
    case componentQueryDisabled = "component.query-disabled"
    case ruleUnreachable = "rule.unreachable"
    case pathsURL = "paths.url"
    case patternTooLong = "pattern.too-long"
    case defaultsUnknownKey = "defaults.unknown-key"
    case variableUndefined = "variable.undefined"
    case variableInvalid = "variable.invalid"
    case variableEmpty = "variable.empty"
    case variableShadowsBuiltin = "variable.shadows-builtin"
    case variableUnused = "variable.unused"
    case featureMinIOS = "feature.min-ios"

    // The run.
    case auditInterrupted = "audit.interrupted"

    // What devices see: Apple's CDN and Apple's bot, and the two locations against each other.
    case cdnMissing = "cdn.missing"
    case cdnError = "cdn.error"
    case cdnStale = "cdn.stale"
    case uaBlocked = "ua.blocked"
    case uaDiffer = "ua.differ"
    case locationDiffer = "location.differ"
    case serviceMissing = "service.missing"

    // The input's expectations (domains.txt `+`/`-` lines).
    case matchExpectedApp = "match.expected-app"
    case matchExpectedBrowser = "match.expected-browser"
}

extension FindingCode {
    /// What the code means and how to fix it: the text of `docs/findings.md` and the
    /// explanation `aasa-audit check` prints under a finding.
    public var explanation: (meaning: String, fix: String) {
        switch self {
        case .netDNS:
            ("The host name did not resolve.", "Publish A/AAAA records for the host, or remove it from the app's associated domains.")
        case .netConnect:
            ("No TCP connection could be made to port 443 (refused or unreachable).", "Make the host answer HTTPS on port 443 from the public internet.")
        case .netTimeout:
            ("The server did not complete the response within the time limit.", "Serve the file quickly; Apple's CDN gives up on slow origins too.")
        case .tlsCertificate:
            ("The TLS certificate is not trusted: unknown or self-signed issuer, expired, or not valid for the host name.", "Serve a certificate from a public CA, with the full chain, covering this exact host name.")
        case .tlsHandshake:
            ("The TLS handshake failed (the server reset the connection, spoke plain HTTP, or offered nothing acceptable).", "Serve modern TLS (1.2 or 1.3) on port 443.")
        case .netOther:
            ("The transfer failed for another reason; curl's message says which.", "Read curl's message in the finding and check the server's logs.")
        case .httpRedirect:
            ("The server answered with a redirect. Devices and Apple's CDN never follow redirects for this file, even to a perfect copy.", "Serve the file with status 200 directly at this URL on this exact host (apex and www each need their own).")
        case .httpStatus:
            ("The server answered with a status other than 200. 403 and 404 usually mean a firewall, bot protection or missing file.", "Serve the file with status 200 to every client, without authentication or cookies.")
        case .httpContentType:
            ("The Content-Type is not application/json. Current iOS still reads the file, so this is a warning (info for the signed application/pkcs7-mime of the iOS 8 era).", "Serve the file with Content-Type: application/json.")
        case .bodyTooLarge:
            ("The file is larger than 128 KB (131,072 bytes) after decompression; iOS ignores such files.", "Shrink the file: use components with wildcards instead of listing paths one by one.")
        case .bodyEmpty:
            ("The server answered 200 with an empty body.", "Serve the JSON file's content.")
        case .jsonInvalid:
            ("The file is not strict JSON (comments, trailing commas, typographic quotes and front matter are common causes); the message gives the line and column.", "Fix the syntax; validate the file with a strict JSON parser before deploying.")
        case .jsonNotObject:
            ("The file is valid JSON but its top level is not an object.", "Make the file one JSON object: {\"applinks\": {...}}.")
        case .applinksMissing:
            ("The file has no applinks section, so it opens no universal links.", "Add an applinks section with details for the app.")
        case .appIDMalformed:
            ("An app ID is not of the form PREFIX.bundle.id with a 10-character upper-case prefix, or is an obvious placeholder left in (TEAM_ID, <TeamID>, ABCDE12345, ...).", "Use the real Team ID (Application Identifier Prefix) and bundle ID, e.g. ABCDE12345.com.example.app, as shown in the developer portal.")
        case .appIDMissing:
            ("An app ID that domains.txt (or --app-id) expects is not in the file's applinks section, so that app opens no links on this host.", "Add the app ID to applinks.details (appIDs or appID) in the file this host serves.")
        case .locationRootOnly:
            ("A valid file is served only at /apple-app-site-association. Current iOS and Apple's CDN read only /.well-known/.", "Serve the same file at /.well-known/apple-app-site-association.")
        case .locationNone:
            ("Neither location served the file with status 200.", "Serve the file at https://HOST/.well-known/apple-app-site-association.")
        case .fileUnknownKey:
            ("A top-level key is not one of the four services (applinks, webcredentials, appclips, activitycontinuation); iOS ignores it. Often a misspelt service.", "Remove the key, or spell the service as Apple does.")
        case .serviceInvalid:
            ("A webcredentials, appclips or activitycontinuation section is not an object whose apps key is an array of app ID strings, so that service does not work.", "Write the section as {\"apps\": [\"TEAMID.bundle.id\"]}.")
        case .appClipSuffix:
            ("An App Clip ID in appclips does not end in .Clip, as App Clip bundle IDs do by convention.", "Check that the ID is the App Clip's (e.g. ABCDE12345.com.example.app.Clip), not the full app's.")
        case .applinksUnknownKey:
            ("applinks holds a key other than details, defaults, substitutionVariables and the legacy apps; iOS ignores it.", "Remove it, or spell the key as Apple does.")
        case .applinksLegacyApps:
            ("The legacy applinks.apps key is not an empty array; it was required empty in the iOS 9 format and carries nothing.", "Make it [] or remove it.")
        case .detailsMissing:
            ("applinks has no details, so no app gets any link.", "Add a details array with an entry naming the app and its rules.")
        case .detailsEmpty:
            ("applinks.details is empty, so no app gets any link.", "Add an entry naming the app (appIDs) and its rules (components).")
        case .detailsInvalid:
            ("applinks.details is neither an array nor the legacy dictionary, so no app gets any link.", "Make details an array of entries.")
        case .detailsDictionary:
            ("applinks.details is the iOS 9 era dictionary keyed by app ID. It still works, but a JSON object has no order: with several apps, which one is tried first is not defined (the auditor tries them in sorted order).", "Use the details array form, whose order is the order of priority.")
        case .entryInvalid:
            ("An entry of applinks.details is not an object; it is ignored.", "Make each entry an object with appIDs and components.")
        case .entryNoApp:
            ("An entry names no app (no appID or appIDs, or an empty list), so its rules open nothing.", "Add \"appIDs\": [\"TEAMID.bundle.id\"] to the entry.")
        case .entryNoRules:
            ("An entry has no rules (no components or paths, or an empty list), so its app gets no links.", "Add components (iOS 13+) or paths (legacy) to the entry.")
        case .entryUnknownKey:
            ("An entry holds a key iOS does not know (appId for appID, path for paths, ...); it is ignored, which often leaves the entry without its app or its rules.", "Spell the key as Apple does: appID, appIDs, paths, components, defaults.")
        case .entryMixedAppKeys:
            ("An entry has both appID and appIDs. Apple says to use one or the other; the auditor treats the apps as the union of both.", "Keep appIDs (iOS 13+), or appID alone if you support iOS 12.")
        case .entryMixedFormats:
            ("An entry has both paths and components. TN3155 warns that mixing the formats breaks universal links; iOS 13 and later use components, iOS 12 and older use paths. With --min-ios 13 or later the paths are dead weight; below it, the mix is deliberate.", "Use components only, unless the app still supports iOS 12 (then keep appID + paths for it and say --min-ios 12).")
        case .entryUnreachable:
            ("An entry is never consulted: a rule of an earlier entry matches every URL first (first match wins).", "Move the entry before the catch-all, or narrow the earlier rule.")
        case .valueType:
            ("A key Apple defines has a value of the wrong type (for example a string where an array is expected); iOS ignores or rejects it.", "Give the key the type Apple documents; the message names the type expected.")
        case .componentUnknownKey:
            ("A components rule holds a key iOS does not know (path for /, query for ?, casesensitive for caseSensitive, ...); it is ignored, so the rule matches more than intended.", "Use the keys /, ?, #, exclude, comment, caseSensitive, percentEncoded.")
        case .componentQueryDisabled:
            ("A ? dictionary holds a value that is not a string (true, a number, null, ...). iOS then ignores the whole dictionary, so the rule accepts any query: it matches more than intended.", "Make every value of the ? dictionary a pattern string, e.g. \"?*\" for 'present and non-empty'.")
        case .ruleUnreachable:
            ("A rule can never decide: an earlier rule always matches first (for example an exclusion listed after a catch-all *). First match wins.", "Put exclusions and specific rules before catch-all rules.")
        case .pathsURL:
            ("A legacy paths pattern is a full URL (https://...). Only the URL's path is compared, so it never matches.", "Write the path alone: /products/*.")
        case .patternTooLong:
            ("A pattern is longer than 4096 characters; the auditor treats it as matching nothing.", "Use wildcards or substitution variables instead of long literal lists.")
        case .defaultsUnknownKey:
            ("A defaults object holds a key that is not a component key; it is ignored.", "Use only component keys in defaults: caseSensitive, percentEncoded, /, ?, #, exclude.")
        case .variableUndefined:
            ("A pattern refers to a substitution variable that is neither defined in substitutionVariables nor built in; such a pattern never matches.", "Define the variable, or fix the name (built-ins: alpha, upper, lower, alnum, digit, xdigit, region, lang).")
        case .variableInvalid:
            ("A substitution variable is malformed: its name holds $, ( or ), its value is not an array of strings, or a value refers to another variable (not allowed).", "Name variables without $ ( ), and give each an array of plain strings (wildcards * and ? allowed).")
        case .variableEmpty:
            ("A substitution variable has no values, so every pattern using it never matches.", "List the values the variable may take.")
        case .variableShadowsBuiltin:
            ("A substitution variable reuses a built-in name (alpha, digit, region, ...). What iOS does then is not documented; the auditor uses the file's values.", "Rename the variable.")
        case .variableUnused:
            ("A substitution variable is defined but no pattern uses it.", "Remove it, or use it as $(name) in a pattern.")
        case .featureMinIOS:
            ("The file relies on a feature newer than the oldest iOS the app supports (--min-ios): components need iOS 13, substitutionVariables iOS 13.5, defaults iOS 14. Older devices ignore it.", "Keep a legacy appID + paths entry for older iOS, or raise the app's minimum.")
        case .auditInterrupted:
            ("The run was interrupted (SIGINT or SIGTERM) before this domain was audited; the report says nothing else about it.", "Run the audit again; nothing is wrong with the domain as far as this report knows.")
        case .cdnMissing:
            ("Apple's CDN has no copy of the file, so devices on iOS 14 and later get no universal links for this host. Normal for a day after the file first appears.", "Make sure the origin serves the file to AASA-Bot; the CDN fetches it again within about a day. Apple-Failure-Reason says why it failed.")
        case .cdnError:
            ("Apple's CDN answered with an error for this host (the finding quotes Apple-Failure-Reason), or could not be reached.", "Fix what Apple's reason names (timeouts, redirects, TLS, bot blocking) on the origin; the CDN retries on its own schedule.")
        case .cdnStale:
            ("Apple's CDN serves a copy that differs in meaning from the origin's .well-known file. Normal for up to a day after a change, so only a warning.", "Wait for the CDN to refresh (about a day); if it persists, check that AASA-Bot gets the new file.")
        case .uaBlocked:
            ("The origin refuses or challenges Apple's bot (AASA-Bot/1.0.0) while it serves a browser: the CDN never gets the file and links break on every device, while the site looks fine in a browser.", "Allow the AASA-Bot user agent (and Apple's IP ranges) through bot protection and firewalls for /.well-known/apple-app-site-association.")
        case .uaDiffer:
            ("Apple's bot and a browser get different answers (status or content) at .well-known, though both get a file.", "Serve the same file to every client; vary nothing by user agent.")
        case .locationDiffer:
            ("The .well-known and root copies both parse but differ in meaning (app IDs or rules). Older devices that fall back to the root see different rules.", "Serve the same file at both locations, or stop serving the root copy.")
        case .serviceMissing:
            ("The app's entitlements name this host for a service (webcredentials, appclips, activitycontinuation) whose section the file lacks, or which does not name the expected app.", "Add the section, {\"apps\": [\"TEAMID.bundle.id\"]}, naming the app.")
        case .matchExpectedApp:
            ("A URL that domains.txt says must open the app (a + line) does not, with the file the domain serves.", "Add a rule that matches the URL, or remove the exclusion that catches it; 'aasa-audit match' shows which rule decides.")
        case .matchExpectedBrowser:
            ("A URL that domains.txt says must stay in the browser (a - line) opens an app.", "Add an exclusion before the rule that matches it; 'aasa-audit match' shows which rule decides.")
        }
    }
}

extension FindingCode {
    /// The severity the code is reported with at `.well-known` (or for the domain). Findings
    /// about the root copy are at most warnings, and only info when the root serves no file.
    public var severityNote: String {
        switch self {
        case .httpContentType: "warning (info for application/pkcs7-mime)"
        case .fileUnknownKey, .applinksUnknownKey, .applinksLegacyApps, .detailsDictionary, .entryUnknownKey, .entryMixedAppKeys,
             .entryUnreachable, .componentUnknownKey, .componentQueryDisabled, .ruleUnreachable, .defaultsUnknownKey,
             .variableEmpty, .variableShadowsBuiltin, .featureMinIOS:
            "warning"
        case .entryMixedFormats: "warning (info with --min-ios 12 or older)"
        case .cdnStale, .uaDiffer, .locationDiffer: "warning"
        case .appClipSuffix, .variableUnused: "info"
        default: "error"
        }
    }
}
