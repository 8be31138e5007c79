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
    case netBlockedAddress = "net.blocked-address"

    // HTTP: how the file is served.
    case httpRedirect = "http.redirect"
    case httpStatus = "http.status"
    case httpContentType = "http.content-type"
    case tlsExpiring = "tls.expiring"

    // The body.
    case bodyTooLarge = "body.too-large"
    case bodyEmpty = "body.empty"

    // The content.
    case jsonInvalid = "json.invalid"
    case jsonNotObject = "json.not-object"
    case jsonDuplicateKey = "json.duplicate-key"
    case fileSigned = "file.signed"
    case signatureInvalid = "signature.invalid"
    case applinksMissing = "applinks.missing"
    case appIDMalformed = "appid.malformed"
    case appIDMissing = "appid.missing"

    // The domain as a whole.
    case locationRootOnly = "location.root-only"
    case locationNone = "location.none"
    case locationRootAbsent = "location.root-absent"
    case locationMisnamed = "location.misnamed"
    case locationCatchAll = "location.catch-all"
    case domainInternationalized = "domain.internationalized"

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
    case auditUnchecked = "audit.unchecked"
    case auditCrashed = "audit.crashed"

    // What devices see: Apple's CDN and Apple's bot, and the two locations against each other.
    case cdnMissing = "cdn.missing"
    case cdnError = "cdn.error"
    case cdnUnchecked = "cdn.unchecked"
    case cdnStale = "cdn.stale"
    case uaBlocked = "ua.blocked"
    case uaDiffer = "ua.differ"
    case locationDiffer = "location.differ"
    case serviceMissing = "service.missing"

    // The input's expectations (domains.txt `+`/`-` lines).
    case matchExpectedApp = "match.expected-app"
    case matchExpectedBrowser = "match.expected-browser"
    case matchCutShort = "match.cut-short"

    // assetlinks.json (Digital Asset Links): FindingCatalog+AssetLinks.swift.
    case assetlinksStatus = "assetlinks.status"
    case assetlinksRedirect = "assetlinks.redirect"
    case assetlinksContentType = "assetlinks.content-type"
    case assetlinksTooLarge = "assetlinks.too-large"
    case assetlinksJSONInvalid = "assetlinks.json-invalid"
    case assetlinksNotList = "assetlinks.not-list"
    case assetlinksRelation = "assetlinks.relation"
    case assetlinksLoginCreds = "assetlinks.login-creds"
    case assetlinksStatement = "assetlinks.statement"
    case assetlinksFingerprint = "assetlinks.fingerprint"
    case assetlinksInclude = "assetlinks.include"
    case assetlinksPackageMissing = "assetlinks.package-missing"
    case assetlinksFingerprintMissing = "assetlinks.fingerprint-missing"
    case assetlinksSite = "assetlinks.site"
    case assetlinksDynamicRules = "assetlinks.dynamic-rules"
    case assetlinksIncludeFailed = "assetlinks.include-failed"
    case assetlinksManifestScope = "assetlinks.manifest-scope"
    case assetlinksUnknownKey = "assetlinks.unknown-key"

    // /.well-known/webauthn (WebAuthn related origins): Passkeys/FindingCatalog+WebAuthn.swift.
    case webauthnStatus = "webauthn.status"
    case webauthnRedirect = "webauthn.redirect"
    case webauthnRedirectInsecure = "webauthn.redirect-insecure"
    case webauthnContentType = "webauthn.content-type"
    case webauthnTooLarge = "webauthn.too-large"
    case webauthnJSONInvalid = "webauthn.json-invalid"
    case webauthnShape = "webauthn.shape"
    case webauthnOriginsEmpty = "webauthn.origins-empty"
    case webauthnEntryType = "webauthn.entry-type"
    case webauthnEntrySkipped = "webauthn.entry-skipped"
    case webauthnNoOrigin = "webauthn.no-origin"
    case webauthnEntryRead = "webauthn.entry-read"
    case webauthnLabelLimit = "webauthn.label-limit"
    case webauthnOriginMissing = "webauthn.origin-missing"
    case webauthnUnknownKey = "webauthn.unknown-key"
    case webauthnAbsent = "webauthn.absent"

    // /.well-known/passkey-endpoints: Passkeys/FindingCatalog+PasskeyEndpoints.swift.
    case passkeyEndpointsAbsent = "passkey-endpoints.absent"
    case passkeyEndpointsStatus = "passkey-endpoints.status"
    case passkeyEndpointsRedirect = "passkey-endpoints.redirect"
    case passkeyEndpointsContentType = "passkey-endpoints.content-type"
    case passkeyEndpointsTooLarge = "passkey-endpoints.too-large"
    case passkeyEndpointsJSONInvalid = "passkey-endpoints.json-invalid"
    case passkeyEndpointsNotObject = "passkey-endpoints.not-object"
    case passkeyEndpointsURL = "passkey-endpoints.url"
    case passkeyEndpointsUnreachable = "passkey-endpoints.unreachable"
    case passkeyEndpointsUnknownKey = "passkey-endpoints.unknown-key"
    case changePasswordAbsent = "change-password.absent"
    case changePasswordRedirect = "change-password.redirect"
    case changePasswordTarget = "change-password.target"

    // windows-app-web-link (Windows apps for websites): Windows/FindingCatalog+Windows.swift.
    case windowsMissing = "windows.missing"
    case windowsStatus = "windows.status"
    case windowsRedirect = "windows.redirect"
    case windowsContentType = "windows.content-type"
    case windowsTooLarge = "windows.too-large"
    case windowsJSONInvalid = "windows.json-invalid"
    case windowsNotList = "windows.not-list"
    case windowsEntry = "windows.entry"
    case windowsPackageName = "windows.package-name"
    case windowsPathsEmpty = "windows.paths-empty"
    case windowsExcludesAll = "windows.excludes-all"
    case windowsPathUnanchored = "windows.path-unanchored"
    case windowsUnknownKey = "windows.unknown-key"
    case windowsDiffer = "windows.differ"
    case windowsAppMissing = "windows.app-missing"

    // applinking.json (HarmonyOS App Linking): Harmony/FindingCatalog+Harmony.swift.
    case harmonyStatus = "harmony.status"
    case harmonyRedirect = "harmony.redirect"
    case harmonyContentType = "harmony.content-type"
    case harmonyTooLarge = "harmony.too-large"
    case harmonyJSONInvalid = "harmony.json-invalid"
    case harmonyShape = "harmony.shape"
    case harmonyAppsEmpty = "harmony.apps-empty"
    case harmonyApp = "harmony.app"
    case harmonyIndex = "harmony.index"
    case harmonyUnknownKey = "harmony.unknown-key"
    case harmonyAppMissing = "harmony.app-missing"
}

extension FindingCode {
    /// The codes a name means, as people type it: the code in any case (`JSON.INVALID`), or a
    /// prefix of codes (`json`, `assetlinks.`): every code it starts.
    public static func matching(_ text: String) -> [FindingCode] {
        let name = text.lowercased()
        if let exact = FindingCode(rawValue: name) { return [exact] }
        let prefix = name.hasSuffix(".") ? name : name + "."
        return allCases.filter { $0.rawValue.hasPrefix(prefix) }
    }

    /// The codes a mistyped or partial name most likely meant, at most three: those that
    /// contain it (`content-type` → `http.content-type`), else those within two edits of it or
    /// of their part after the family (`http.redirct` → `http.redirect`).
    public static func suggestions(for text: String) -> [FindingCode] {
        let name = text.lowercased()
        guard !name.isEmpty else { return [] }
        let containing = allCases.filter { $0.rawValue.contains(name) }
        if !containing.isEmpty { return Array(containing.prefix(3)) }
        let close = allCases.map { code -> (FindingCode, Int) in
            let suffix = String(code.rawValue.drop { $0 != "." }.dropFirst())
            return (code, min(distance(name, code.rawValue), distance(name, suffix)))
        }
        return close.filter { $0.1 <= 2 }.sorted { $0.1 < $1.1 }.prefix(3).map(\.0)
    }

    /// Levenshtein's distance between two short names.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        var row = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var previous = row[0]
            row[0] = i + 1
            for (j, y) in b.enumerated() {
                let current = row[j + 1]
                row[j + 1] = min(row[j + 1] + 1, row[j] + 1, previous + (x == y ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
