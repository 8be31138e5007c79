/// The AASA's codes (apple-app-site-association): how it is served, what it says, the domain's
/// two locations, what devices see, what the input expects. Each its case and its entry, in one
/// exhaustive switch: a code without an entry does not compile.
public enum AASACode: String, FindingCodeFamily {
    case httpRedirect = "http.redirect"
    case httpStatus = "http.status"
    case httpContentType = "http.content-type"
    case tlsExpiring = "tls.expiring"
    case bodyTooLarge = "body.too-large"
    case bodyEmpty = "body.empty"
    case jsonInvalid = "json.invalid"
    case jsonNotObject = "json.not-object"
    case jsonDuplicateKey = "json.duplicate-key"
    case fileSigned = "file.signed"
    case signatureInvalid = "signature.invalid"
    case applinksMissing = "applinks.missing"
    case appIDMalformed = "appid.malformed"
    case appIDMissing = "appid.missing"
    case locationRootOnly = "location.root-only"
    case locationNone = "location.none"
    case locationRootAbsent = "location.root-absent"
    case locationMisnamed = "location.misnamed"
    case locationCatchAll = "location.catch-all"
    case domainInternationalized = "domain.internationalized"
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
    case cdnMissing = "cdn.missing"
    case cdnError = "cdn.error"
    case cdnUnchecked = "cdn.unchecked"
    case cdnStale = "cdn.stale"
    case uaBlocked = "ua.blocked"
    case uaDiffer = "ua.differ"
    case locationDiffer = "location.differ"
    case serviceMissing = "service.missing"
    case matchExpectedApp = "match.expected-app"
    case matchExpectedBrowser = "match.expected-browser"
    case matchCutShort = "match.cut-short"

    // One entry per code: a table, which reads better whole.
    public var definition: FindingDefinition {
        switch self {
        case .httpRedirect:
            FindingDefinition(
                .serving, .error,
                meaning:
                    "The server answered with a redirect. Devices and Apple's CDN never follow redirects for this file, even to a perfect copy.",
                fix:
                    "Serve the file with status 200 directly at this URL on this exact host (apex and www each need their own)."
            )
        case .httpStatus:
            FindingDefinition(
                .serving, .error,
                meaning:
                    "The server answered with a status other than 200. 403 and 404 usually mean a firewall, bot protection or missing file.",
                fix: "Serve the file with status 200 to every client, without authentication or cookies.")
        case .httpContentType:
            FindingDefinition(
                .serving, .warning,
                meaning:
                    "The Content-Type is not application/json (or, for a signed file, application/pkcs7-mime, its own type). Current iOS still reads the file, so this is a warning; a plain JSON file served as application/pkcs7-mime is mislabelled too.",
                fix: "Serve the file with Content-Type: application/json (a signed file: application/pkcs7-mime).")
        case .tlsExpiring:
            FindingDefinition(
                .serving, .warning,
                meaning:
                    "The host's TLS certificate expires within the warning window (\(OptionName.certificateWarningDays), 21 days by default). Once it lapses, iOS cannot fetch the file and links stop opening the app, until the next successful fetch.",
                fix:
                    "Renew the certificate (or check that automatic renewal works and the renewed one is deployed on every server of the host)."
            )
        case .bodyTooLarge:
            FindingDefinition(
                .content, .error,
                meaning: "The file is larger than 128 KB (131,072 bytes) after decompression; iOS ignores such files.",
                fix: "Shrink the file: use components with wildcards instead of listing paths one by one.")
        case .bodyEmpty:
            FindingDefinition(
                .serving, .error,
                meaning: "The server answered 200 with an empty body.",
                fix: "Serve the JSON file's content.")
        case .jsonInvalid:
            FindingDefinition(
                .content, .error,
                meaning:
                    "The file is not strict JSON (comments, trailing commas, typographic quotes and front matter are common causes); the message gives the line and column.",
                fix: "Fix the syntax; validate the file with a strict JSON parser before deploying.")
        case .jsonNotObject:
            FindingDefinition(
                .content, .error,
                meaning: "The file is valid JSON but its top level is not an object.",
                fix: "Make the file one JSON object: {\"applinks\": {...}}.")
        case .jsonDuplicateKey:
            FindingDefinition(
                .content, .warning,
                meaning:
                    "An object names the same key twice. JSON leaves the meaning open: Apple's parser keeps the last value (our reading of NSJSONSerialization; the audit judges the file the same way), other parsers keep the first or refuse the file, so tools and devices may disagree about the file.",
                fix: "Write each key once per object; merge the two values.")
        case .fileSigned:
            FindingDefinition(
                .content, .info,
                meaning:
                    "The file is signed (CMS/PKCS#7), as Apple asked of sites supporting iOS 8 (Handoff, shared web credentials). Since iOS 9 a plain JSON file over HTTPS is enough, and current documentation only describes that; the audit opens the signed content and checks it like a plain file. Info, not a warning: the file works, and a site that still serves iOS 8 devices needs the signature.",
                fix:
                    "Nothing is required. To simplify, serve the JSON unsigned as application/json once iOS 8 no longer matters."
            )
        case .signatureInvalid:
            FindingDefinition(
                .content, .error,
                meaning:
                    "A signed file whose signature does not hold: it does not match the content (the file changed after signing), the signer's certificate does not chain to a trusted CA, it does not name the domain, or the file cannot be opened at all (truncated, a detached signature without content, an encrypted message, nested signatures). Whatever checks a signature, as iOS 8 did, rejects the file.",
                fix:
                    "Sign the current file again with the site's own TLS certificate and key and its chain (openssl smime -sign -nodetach -outform DER -signer cert.pem -inkey key.pem -certfile chain.pem), or serve it unsigned as application/json."
            )
        case .applinksMissing:
            FindingDefinition(
                .content, .error, cases: [.servicesOnly],
                meaning:
                    "The file has no applinks section, so it opens no universal links. A file of other services (webcredentials, appclips) is valid as it is when nothing expects universal links of the domain (no app ID, + URL or applinks entitlement names it): then this is a note.",
                fix: "Add an applinks section with details for the app, if the domain is to open it.")
        case .appIDMalformed:
            FindingDefinition(
                .content, .error,
                meaning:
                    "An app ID is not of the form PREFIX.bundle.id with a 10-character upper-case prefix, or is an obvious placeholder left in (TEAM_ID, <TeamID>, ABCDE12345, ...).",
                fix:
                    "Use the real Team ID (Application Identifier Prefix) and bundle ID, e.g. \(AppIDFormat.example), as shown in the developer portal."
            )
        case .appIDMissing:
            FindingDefinition(
                .expectations, .error,
                meaning:
                    "An app ID that domains.txt (or \(OptionName.appID)) expects is not in the file's applinks section, so that app opens no links on this host.",
                fix: "Add the app ID to applinks.details (appIDs or appID) in the file this host serves.")
        case .locationRootOnly:
            FindingDefinition(
                .domain, .error,
                meaning:
                    "A valid file is served only at /apple-app-site-association. Current iOS and Apple's CDN read only /.well-known/.",
                fix: "Serve the same file at /.well-known/apple-app-site-association.")
        case .locationNone:
            FindingDefinition(
                .domain, .error,
                meaning: "Neither location served the file with status 200.",
                fix: "Serve the file at https://HOST/.well-known/apple-app-site-association.")
        case .locationRootAbsent:
            FindingDefinition(
                .domain, .info,
                meaning:
                    "No copy at the root location /apple-app-site-association (HTTP 404 or 410). That is how it should be today: only iOS 9 devices fell back to it. Reported apart from http.status so that counts and code lists show only what needs fixing.",
                fix: "Nothing to do.")
        case .locationMisnamed:
            FindingDefinition(
                .domain, .error,
                meaning:
                    "The file is published with .json added to its name (/.well-known/apple-app-site-association.json, or another association file's extensionless name with .json): no device or browser asks for that name. In an audit: neither location serves the AASA, but the .json name does; in lint: the file's own name.",
                fix:
                    "Rename the file to its name without .json (apple-app-site-association, …) in the .well-known folder, and keep serving it as application/json."
            )
        case .locationCatchAll:
            FindingDefinition(
                .domain, .warning,
                meaning:
                    "An association file came back 200 as a web page (text/html), and so does a path that cannot exist (/.well-known/resource-that-should-not-exist-whose-status-code-should-not-be-200): the server answers 200 for every path, so the file's own problems are that rule's answer, not the file's. About one site in six answers this way.",
                fix:
                    "A rewrite rule catches /.well-known/ (a single-page app's fallback to index.html, a CMS's front controller): exclude /.well-known/ from it, serve the files that exist, and let the rest answer 404."
            )
        case .domainInternationalized:
            FindingDefinition(
                .domain, .info,
                meaning:
                    "The domain is internationalised (a label in punycode, xn--). Developers report that iOS 16 and later fail to use such domains as associated domains though the file is right (Apple Developer Forums thread 814156, https://developer.apple.com/forums/thread/814156; feedback FB21797091). Known device behaviour, not a fault of the file: nothing fails for it.",
                fix:
                    "Test the links on a device with each iOS version the app supports; where they fail, associate an ASCII host name as well."
            )
        case .fileUnknownKey:
            FindingDefinition(
                .content, .warning,
                meaning:
                    "A top-level key is not one of the four services (applinks, webcredentials, appclips, activitycontinuation); iOS ignores it. Often a misspelt service.",
                fix: "Remove the key, or spell the service as Apple does.")
        case .serviceInvalid:
            FindingDefinition(
                .content, .error, cases: [.emptySection],
                meaning:
                    "A webcredentials, appclips or activitycontinuation section is not an object whose apps key is an array of app ID strings, so that service does not work.",
                fix: "Write the section as {\"apps\": [\"TEAMID.bundle.id\"]}.")
        case .appClipSuffix:
            FindingDefinition(
                .content, .info,
                meaning: "An App Clip ID in appclips does not end in .Clip, as App Clip bundle IDs do by convention.",
                fix: "Check that the ID is the App Clip's (e.g. \(AppIDFormat.example).Clip), not the full app's.")
        case .applinksUnknownKey:
            FindingDefinition(
                .content, .warning,
                meaning:
                    "applinks holds a key other than details, defaults, substitutionVariables and the legacy apps; iOS ignores it.",
                fix: "Remove it, or spell the key as Apple does.")
        case .applinksLegacyApps:
            FindingDefinition(
                .content, .warning, cases: [.appsMissingForOldIOS],
                meaning:
                    "The legacy applinks.apps key is not an empty array; it was required empty in the iOS 9 format and carries nothing. Or a file in the paths format (iOS 9 to 12) has no \"apps\": [] at all while the app supports those versions (\(OptionName.minimumIOS) 12 or older): Apple's original documentation required the key present and empty, and those devices ignore the file without it.",
                fix: "Make it []: \"applinks\": {\"apps\": [], \"details\": [...]}.")
        case .detailsMissing:
            FindingDefinition(
                .content, .error,
                meaning: "applinks has no details, so no app gets any link.",
                fix: "Add a details array with an entry naming the app and its rules.")
        case .detailsEmpty:
            FindingDefinition(
                .content, .error,
                meaning: "applinks.details is empty, so no app gets any link.",
                fix: "Add an entry naming the app (appIDs) and its rules (components).")
        case .detailsInvalid:
            FindingDefinition(
                .content, .error,
                meaning: "applinks.details is neither an array nor the legacy dictionary, so no app gets any link.",
                fix: "Make details an array of entries.")
        case .detailsDictionary:
            FindingDefinition(
                .content, .warning,
                meaning:
                    "applinks.details is the iOS 9 era dictionary keyed by app ID. It still works, but a JSON object has no order: with several apps, which one is tried first is not defined (the auditor tries them in sorted order).",
                fix: "Use the details array form, whose order is the order of priority.")
        case .entryInvalid:
            FindingDefinition(
                .content, .error,
                meaning: "An entry of applinks.details is not an object; it is ignored.",
                fix: "Make each entry an object with appIDs and components.")
        case .entryNoApp:
            FindingDefinition(
                .content, .error,
                meaning: "An entry names no app (no appID or appIDs, or an empty list), so its rules open nothing.",
                fix: "Add \"appIDs\": [\"TEAMID.bundle.id\"] to the entry.")
        case .entryNoRules:
            FindingDefinition(
                .content, .error,
                meaning:
                    "An entry has no rules (no components or paths, or an empty list) or only exclusions, so its app gets no links.",
                fix: "Add components (iOS 13+) or paths (legacy) that open URLs to the entry, after its exclusions.")
        case .entryUnknownKey:
            FindingDefinition(
                .content, .warning,
                meaning:
                    "An entry holds a key iOS does not know (appId for appID, path for paths, ...); it is ignored, which often leaves the entry without its app or its rules.",
                fix: "Spell the key as Apple does: appID, appIDs, paths, components, defaults.")
        case .entryMixedAppKeys:
            FindingDefinition(
                .content, .warning,
                meaning:
                    "An entry has both appID and appIDs. Apple says to use one or the other; the auditor treats the apps as the union of both.",
                fix: "Keep appIDs (iOS 13+), or appID alone if you support iOS 12.")
        case .entryMixedFormats:
            FindingDefinition(
                .content, .warning, cases: [.mixedFormatsForOldIOS],
                meaning:
                    "An entry has both paths and components. TN3155 warns that mixing the formats breaks universal links; iOS 13 and later use components, iOS 12 and older use paths. With \(OptionName.minimumIOS) 13 or later the paths are dead weight; below it, the mix is deliberate.",
                fix:
                    "Use components only, unless the app still supports iOS 12 (then keep appID + paths for it and say \(OptionName.minimumIOS) 12)."
            )
        case .entryUnreachable:
            FindingDefinition(
                .content, .warning,
                meaning:
                    "An entry is never consulted: a rule of an earlier entry matches every URL first (first match wins).",
                fix: "Move the entry before the catch-all, or narrow the earlier rule.")
        case .valueType:
            FindingDefinition(
                .content, .error, cases: [.commentNotString],
                meaning:
                    "A key Apple defines has a value of the wrong type (for example a string where an array is expected); iOS ignores or rejects it.",
                fix: "Give the key the type Apple documents; the message names the type expected.")
        case .componentUnknownKey:
            FindingDefinition(
                .content, .warning, cases: [.matchesEverything],
                meaning:
                    "A components rule holds a key iOS does not know (path for /, query for ?, casesensitive for caseSensitive, ...); it is ignored, so the rule matches more than intended. When nothing else is left to match on ({\"path\": \"/buy/*\"}), the rule matches every URL and every link to the site opens the app: an error.",
                fix: "Use the keys /, ?, #, exclude, comment, caseSensitive, percentEncoded.")
        case .componentQueryDisabled:
            FindingDefinition(
                .content, .warning,
                meaning:
                    "A ? dictionary holds a value that is not a string (true, a number, null, ...). iOS then ignores the whole dictionary, so the rule accepts any query: it matches more than intended.",
                fix: "Make every value of the ? dictionary a pattern string, e.g. \"?*\" for 'present and non-empty'.")
        case .ruleUnreachable:
            FindingDefinition(
                .content, .warning, cases: [.changesNothing],
                meaning:
                    "A rule can never decide: an earlier rule always matches first (for example an exclusion listed after a catch-all *). First match wins.",
                fix: "Put exclusions and specific rules before catch-all rules.")
        case .pathsURL:
            FindingDefinition(
                .content, .error,
                meaning:
                    "A legacy paths pattern is a full URL (https://...). Only the URL's path is compared, so it never matches.",
                fix: "Write the path alone: /products/*.")
        case .patternTooLong:
            FindingDefinition(
                .content, .error,
                meaning:
                    "A pattern is longer than 4096 characters, or expands with its substitution variables' values to more than 20,000 matcher states (each reference to $(region) or $(lang) costs about 750); the auditor treats it as matching nothing, which bounds the time any file can take to match.",
                fix: "Use shorter patterns, and fewer or smaller variables in one pattern.")
        case .defaultsUnknownKey:
            FindingDefinition(
                .content, .warning,
                meaning: "A defaults object holds a key that is not a component key; it is ignored.",
                fix: "Use only component keys in defaults: caseSensitive, percentEncoded, /, ?, #, exclude.")
        case .variableUndefined:
            FindingDefinition(
                .content, .error,
                meaning:
                    "A pattern refers to a substitution variable that is neither defined in substitutionVariables nor built in; such a pattern never matches.",
                fix:
                    "Define the variable, or fix the name (built-ins: alpha, upper, lower, alnum, digit, xdigit, region, lang)."
            )
        case .variableInvalid:
            FindingDefinition(
                .content, .error,
                meaning:
                    "A substitution variable is malformed: its name holds $, ( or ), its value is not an array of strings, or a value refers to another variable (not allowed).",
                fix:
                    "Name variables without $ ( ), and give each an array of plain strings (wildcards * and ? allowed)."
            )
        case .variableEmpty:
            FindingDefinition(
                .content, .warning,
                meaning: "A substitution variable has no values, so every pattern using it never matches.",
                fix: "List the values the variable may take.")
        case .variableShadowsBuiltin:
            FindingDefinition(
                .content, .warning,
                meaning:
                    "A substitution variable reuses a built-in name (alpha, digit, region, ...). What iOS does then is not documented; the auditor uses the file's values.",
                fix: "Rename the variable.")
        case .variableUnused:
            FindingDefinition(
                .content, .info,
                meaning: "A substitution variable is defined but no pattern uses it.",
                fix: "Remove it, or use it as $(name) in a pattern.")
        case .featureMinIOS:
            FindingDefinition(
                .content, .warning,
                meaning:
                    "The file relies on a feature newer than the oldest iOS the app supports (\(OptionName.minimumIOS)): components need iOS 13, substitutionVariables iOS 13.5, defaults iOS 14. Older devices ignore it.",
                fix: "Keep a legacy appID + paths entry for older iOS, or raise the app's minimum.")
        case .cdnMissing:
            FindingDefinition(
                .deviceView, .error,
                meaning:
                    "Apple's CDN has no copy of the file, so devices on iOS 14 and later get no universal links for this host. Normal for a day after the file first appears.",
                fix:
                    "Make sure the origin serves the file to AASA-Bot; the CDN fetches it again within about a day. Apple-Failure-Reason says why it failed."
            )
        case .cdnError:
            FindingDefinition(
                .deviceView, .error,
                meaning:
                    "Apple's CDN answered with an error for this host (the finding quotes Apple-Failure-Reason and says what it means), or served something that is not a JSON object.",
                fix:
                    "Fix what Apple's reason names (timeouts, redirects, TLS, bot blocking) on the origin; the CDN retries on its own schedule."
            )
        case .cdnUnchecked:
            FindingDefinition(
                .deviceView, .info,
                meaning:
                    "Apple's CDN could not be reached from the machine running the audit (DNS, connection, TLS, time): its copy was not checked. That is about this machine's network, not the site, so the domain is not failed for it; when it happens for most domains the run says so first and exits 3.",
                fix:
                    "Nothing on the site. Let this machine reach app-site-association.cdn-apple.com, or pass \(OptionName.noCDN) where it cannot."
            )
        case .cdnStale:
            FindingDefinition(
                .deviceView, .warning,
                meaning:
                    "Apple's CDN serves a copy that differs in meaning from the origin's .well-known file. Normal for up to a day after a change, so only a warning.",
                fix: "Wait for the CDN to refresh (about a day); if it persists, check that AASA-Bot gets the new file."
            )
        case .uaBlocked:
            FindingDefinition(
                .deviceView, .error,
                meaning:
                    "The origin refuses or challenges Apple's bot (AASA-Bot/1.0.0) while it serves a browser: the CDN never gets the file and links break on every device, while the site looks fine in a browser.",
                fix:
                    "Allow the AASA-Bot user agent (and Apple's IP ranges) through bot protection and firewalls for /.well-known/apple-app-site-association."
            )
        case .uaDiffer:
            FindingDefinition(
                .deviceView, .warning,
                meaning:
                    "Apple's bot and a browser get different answers (status or content) at .well-known, though both get a file. Audits ask a browser only when the bot gets no usable file (what a browser gets does not matter to Apple when the bot gets the file), so they no longer report this; the code stays for earlier reports.",
                fix: "Serve the same file to every client; vary nothing by user agent.")
        case .locationDiffer:
            FindingDefinition(
                .domain, .warning,
                meaning:
                    "The .well-known and root copies both parse but differ in meaning (app IDs or rules). Older devices that fall back to the root see different rules.",
                fix: "Serve the same file at both locations, or stop serving the root copy.")
        case .serviceMissing:
            FindingDefinition(
                .expectations, .error,
                meaning:
                    "A section besides applinks (webcredentials, appclips, activitycontinuation) the input expects is missing, or does not name the expected app: the app's entitlements name this host for the service, the input names the app with its service (webcredentials:TEAMID.bundle), or the domain declares passkeys (iOS offers an app's passkeys only for a domain whose webcredentials names it).",
                fix:
                    "Add the app to the section's apps (\"apps\": [\"TEAMID.bundle.id\"]), or, when the file has no such section, add it: \"webcredentials\": {\"apps\": [\"TEAMID.bundle.id\"]}."
            )
        case .matchExpectedApp:
            FindingDefinition(
                .expectations, .error,
                meaning:
                    "A URL that domains.txt says must open the app (a + line) does not, with the file the domain serves.",
                fix:
                    "Add a rule that matches the URL, or remove the exclusion that catches it; 'aasa-audit match' shows which rule decides."
            )
        case .matchExpectedBrowser:
            FindingDefinition(
                .expectations, .error,
                meaning: "A URL that domains.txt says must stay in the browser (a - line) opens an app.",
                fix: "Add an exclusion before the rule that matches it; 'aasa-audit match' shows which rule decides.")
        case .matchCutShort:
            FindingDefinition(
                .expectations, .warning,
                meaning:
                    "Not every URL of the input was checked against the file: matching its patterns took more than the budget of work a domain gets (50 million automaton steps, a fraction of a second; real files need a few thousand per URL), or the run was interrupted. The file's patterns are built to be slow to match.",
                fix:
                    "Simplify the patterns: fewer wildcards next to variables whose values hold wildcards, fewer huge variables."
            )
        }
    }
}

extension FindingCode {
    /// A code of the AASA's.
    public static func aasa(_ code: AASACode) -> FindingCode { FindingCode(code) }
}
