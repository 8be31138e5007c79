import AASAChecks
import AASAModel
import Foundation
import Testing

/// The finding catalog against the checks: every code has a scenario here in which the real
/// checks emit it, and every finding they emit has its catalog severity or one of its named
/// cases. Adding a finding code means adding its row to `scenarios`; the first test fails
/// until it is there.
@Suite struct FindingCatalogTests {
    static let id = Fixture.appID
    static let valid = Fixture.validFile
    static let other =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.other"],"components":[{"/":"/other/*"}]}]}}"#

    /// A file whose applinks entry has `entry` merged in (JSON members, without braces).
    static func entry(_ members: String, applinks: String = "") -> String {
        #"{"applinks":{\#(applinks)"details":[{\#(members)}]}}"#
    }

    static func rules(_ components: String) -> String {
        entry(#""appIDs":["\#(id)"],"components":[\#(components)]"#)
    }

    static func lint(_ text: String, minimumIOS: String? = nil) -> [Finding] {
        FileLint.lint(
            Array(text.utf8), size: text.utf8.count,
            options: ValidationOptions(minimumIOS: minimumIOS.flatMap(IOSVersion.init))
        ).findings
    }

    static func domain(
        _ wellKnown: FetchedLocation, root: FetchedLocation = Fixture.served("", at: .root, status: 404),
        target: DomainTarget = Fixture.target(), view: DomainChecks.DeviceView = DomainChecks.DeviceView()
    ) -> [Finding] {
        DomainChecks.assess(target: target, wellKnown: wellKnown, root: root, deviceView: view).findings
    }

    static func webauthn(_ body: String, expected: [String] = ["https://shop.example"]) -> [Finding] {
        WebAuthnChecks.assess(Fixture.served(body, at: .webauthn), expected: expected).findings
    }

    static func endpoints(_ fetched: FetchedLocation) -> [Finding] { PasskeyEndpointsChecks.assess(fetched).findings }

    static let windowsFile = #"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["*"]}]"#
    static func windows(_ fetched: FetchedLocation) -> [Finding] {
        WindowsChecks.assess(wellKnown: fetched, root: nil, expected: []).findings
    }

    static let harmonyFile = #"{"applinking": {"apps": [{"appIdentifier": "5765880207854972765"}]}}"#
    static func harmony(_ fetched: FetchedLocation) -> [Finding] {
        HarmonyChecks.assess(fetched, expected: []).findings
    }

    /// A webauthn file a client reaches after one redirect to `target`.
    static func webauthnRedirected(to target: String) -> [Finding] {
        WebAuthnChecks.assess(
            Fixture.served(#"{"origins": ["https://shop.example"]}"#, at: .webauthn),
            hops: [Fixture.redirect(to: target, at: .webauthn).record], expected: []
        ).findings
    }

    static func android(_ fetched: FetchedLocation, expected: [AndroidApp] = [AndroidApp(package: "com.example.app")])
        -> [Finding]
    {
        AssetLinksChecks.assess(fetched, expected: expected).findings
    }

    static func agent(_ fetched: FetchedLocation, _ agent: FetchAgent) -> FetchedLocation {
        var fetched = fetched
        fetched.record.agent = agent
        return fetched
    }

    /// A scenario per code, in which the checks emit it.
    static let scenarios: [FindingCode: @Sendable () -> [Finding]] = [
        .netDNS: { domain(Fixture.failed(.dns)) },
        .netConnect: { domain(Fixture.failed(.connect)) },
        .netTimeout: { domain(Fixture.failed(.timeout)) },
        .tlsCertificate: { domain(Fixture.failed(.tlsCertificate)) },
        .tlsHandshake: { domain(Fixture.failed(.tlsHandshake)) },
        .netOther: { domain(Fixture.failed(.other)) },
        .netBlockedAddress: { domain(Fixture.failed(.blockedAddress)) },
        .auditUnchecked: { domain(Fixture.failed(.local)) },
        .locationMisnamed: {
            var view = DomainChecks.DeviceView()
            view.misnamed = Fixture.served(valid)
            return domain(Fixture.served("", status: 404), view: view)
        },
        .tlsExpiring: {
            var record = Fixture.served(valid).record
            record.certificateExpires = Date(timeIntervalSince1970: 1_795_490_100 + 86_400 * 5)
            return CertificateExpiry.findings(
                [record], host: "example.com", now: Date(timeIntervalSince1970: 1_795_490_100), warningDays: 21)
        },
        .httpRedirect: { domain(Fixture.redirect(to: "https://www.example.com/")) },
        .httpStatus: { domain(Fixture.served("", status: 404)) },
        .httpContentType: {
            domain(Fixture.served(valid, contentType: "text/plain"))
                + domain(Fixture.served(valid, contentType: "application/pkcs7-mime"))
        },
        .bodyTooLarge: { domain(Fixture.served(valid + String(repeating: " ", count: AppleLimits.maximumFileBytes))) },
        .bodyEmpty: { domain(Fixture.served("")) },
        .jsonInvalid: { lint(#"{"applinks": {},}"#) },
        .jsonNotObject: { lint("[]") },
        .fileSigned: { domain(Fixture.signed(valid, problem: nil)) },
        .signatureInvalid: { domain(Fixture.signed(valid, problem: "The signature does not match the content.")) },
        .jsonDuplicateKey: {
            lint(
                #"{"applinks":{"details":[]},"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.app"],"components":[{"/":"*"}]}]}}"#
            )
        },
        .applinksMissing: {
            // Expected (--app-id): an error; a file of other services nothing expects links of: a note.
            FileLint.lint(
                Array(#"{"webcredentials":{"apps":["\#(id)"]}}"#.utf8), size: 40,
                expecting: DomainTarget(domain: "example.com", expectedAppIDs: [id])
            ).findings + lint(#"{"webcredentials":{"apps":["\#(id)"]}}"#)
        },
        .appIDMalformed: { lint(rules(#"{"/":"/a"}"#).replacingOccurrences(of: id, with: "TEAM_ID.com.example.app")) },
        .appIDMissing: { domain(Fixture.served(valid), target: Fixture.target(["ABCDE12346.com.example.missing"])) },
        .domainInternationalized: {
            domain(Fixture.served(valid), target: DomainTarget(domain: "xn--bcher-kva.example", inputLine: 1))
        },
        .locationRootOnly: { domain(Fixture.served("", status: 404), root: Fixture.served(valid, at: .root)) },
        .locationNone: { domain(Fixture.served("", status: 404)) },
        .locationRootAbsent: { domain(Fixture.served(valid), root: Fixture.served("", at: .root, status: 404)) },
        .fileUnknownKey: { lint(#"{"applink":{},"applinks":{"details":[]}}"#) },
        .serviceInvalid: {
            lint(#"{"applinks":{"details":[]},"webcredentials":1}"#)
                + lint(#"{"applinks":{"details":[]},"appclips":{}}"#)
        },
        .appClipSuffix: { lint(#"{"applinks":{"details":[]},"appclips":{"apps":["\#(id)"]}}"#) },
        .applinksUnknownKey: {
            lint(entry(#""appIDs":["\#(id)"],"components":[{"/":"/a"}]"#, applinks: #""detail":1,"#))
        },
        .applinksLegacyApps: {
            lint(entry(#""appIDs":["\#(id)"],"components":[{"/":"/a"}]"#, applinks: #""apps":["\#(id)"],"#))
                + lint(entry(#""appID":"\#(id)","paths":["/a/*"]"#), minimumIOS: "12")
        },
        .detailsMissing: { lint(#"{"applinks":{}}"#) },
        .detailsEmpty: { lint(#"{"applinks":{"details":[]}}"#) },
        .detailsInvalid: { lint(#"{"applinks":{"details":1}}"#) },
        .detailsDictionary: { lint(#"{"applinks":{"apps":[],"details":{"\#(id)":{"paths":["*"]}}}}"#) },
        .entryInvalid: { lint(#"{"applinks":{"details":[1]}}"#) },
        .entryNoApp: { lint(entry(#""components":[{"/":"/a"}]"#)) },
        .entryNoRules: { lint(entry(#""appIDs":["\#(id)"]"#)) },
        .entryUnknownKey: { lint(entry(#""appId":"\#(id)","components":[{"/":"/a"}]"#)) },
        .entryMixedAppKeys: { lint(entry(#""appID":"\#(id)","appIDs":["\#(id)"],"components":[{"/":"/a"}]"#)) },
        .entryMixedFormats: {
            let mixed = entry(#""appID":"\#(id)","paths":["/a"],"components":[{"/":"/a"}]"#)
            return lint(mixed) + lint(mixed, minimumIOS: "12")
        },
        .entryUnreachable: {
            lint(
                #"{"applinks":{"details":[{"appIDs":["\#(id)"],"components":[{"/":"*","exclude":true}]},{"appIDs":["\#(id)"],"components":[{"/":"/a"}]}]}}"#
            )
        },
        .valueType: {
            lint(entry(#""appID":1,"appIDs":["\#(id)"],"components":[{"/":"/a"}]"#))
                + lint(rules(#"{"/":"/a","comment":1}"#))
        },
        .componentUnknownKey: { lint(rules(#"{"path":"/a"},{"/":"/b","query":"x"}"#)) },
        .componentQueryDisabled: { lint(rules(#"{"/":"/a","?":{"q":true}}"#)) },
        // An exclusion after a catch-all is the mistake (a warning); a plain rule changes nothing (a note).
        .ruleUnreachable: { lint(rules(#"{"/":"*"},{"/":"/a","exclude":true},{"/":"/b"}"#)) },
        .pathsURL: { lint(entry(#""appID":"\#(id)","paths":["https://example.com/a"]"#)) },
        .patternTooLong: { lint(rules(#"{"/":"/\#(String(repeating: "a", count: 5000))"}"#)) },
        .defaultsUnknownKey: {
            lint(entry(#""appIDs":["\#(id)"],"components":[{"/":"/a"}]"#, applinks: #""defaults":{"case":true},"#))
        },
        .variableUndefined: { lint(rules(#"{"/":"/$(nope)"}"#)) },
        .variableInvalid: {
            lint(
                entry(
                    #""appIDs":["\#(id)"],"components":[{"/":"/a"}]"#,
                    applinks: #""substitutionVariables":{"a$":["x"]},"#))
        },
        .variableEmpty: {
            lint(
                entry(
                    #""appIDs":["\#(id)"],"components":[{"/":"/$(v)"}]"#,
                    applinks: #""substitutionVariables":{"v":[]},"#))
        },
        .variableShadowsBuiltin: {
            lint(
                entry(
                    #""appIDs":["\#(id)"],"components":[{"/":"/$(alpha)"}]"#,
                    applinks: #""substitutionVariables":{"alpha":["x"]},"#))
        },
        .variableUnused: {
            lint(
                entry(
                    #""appIDs":["\#(id)"],"components":[{"/":"/a"}]"#,
                    applinks: #""substitutionVariables":{"v":["x"]},"#))
        },
        .featureMinIOS: { lint(valid, minimumIOS: "12") },
        .auditInterrupted: { DomainChecks.notAudited(Fixture.target()).findings },
        .auditCrashed: { DomainChecks.crashed(Fixture.target(), why: "It crashed the audit alone.").findings },
        .cdnMissing: {
            domain(Fixture.served(valid), view: DomainChecks.DeviceView(cdn: Fixture.served("", at: .cdn, status: 404)))
        },
        .cdnError: {
            domain(Fixture.served(valid), view: DomainChecks.DeviceView(cdn: Fixture.served("<html></html>", at: .cdn)))
        },
        .cdnUnchecked: {
            domain(Fixture.served(valid), view: DomainChecks.DeviceView(cdn: Fixture.failed(.dns, at: .cdn)))
        },
        .cdnStale: {
            domain(Fixture.served(valid), view: DomainChecks.DeviceView(cdn: Fixture.served(other, at: .cdn)))
        },
        .uaBlocked: {
            domain(
                Fixture.served(valid),
                view: DomainChecks.DeviceView(
                    bot: agent(Fixture.served("", status: 403), .bot), browser: agent(Fixture.served(valid), .browser)))
        },
        .uaDiffer: {
            domain(
                Fixture.served(valid),
                view: DomainChecks.DeviceView(
                    bot: agent(Fixture.served(valid), .bot), browser: agent(Fixture.served(other), .browser)))
        },
        .locationDiffer: { domain(Fixture.served(valid), root: Fixture.served(other, at: .root)) },
        .serviceMissing: {
            domain(
                Fixture.served(valid),
                target: DomainTarget(
                    domain: "example.com", expectedAppIDs: [id],
                    services: [AssociatedService(service: .webcredentials, file: "App.entitlements")]))
        },
        .matchExpectedApp: {
            domain(
                Fixture.served(valid),
                target: DomainTarget(
                    domain: "example.com",
                    expectations: [URLExpectation(url: "https://example.com/help", opensApp: true, inputLine: 2)]))
        },
        .webauthnStatus: {
            WebAuthnChecks.assess(Fixture.served("", at: .webauthn, status: 404), expected: []).findings
        },
        .webauthnRedirect: { webauthnRedirected(to: "https://www.example.com/.well-known/webauthn") },
        .webauthnRedirectInsecure: { webauthnRedirected(to: "http://example.com/.well-known/webauthn") },
        .webauthnContentType: {
            WebAuthnChecks.assess(
                Fixture.served(#"{"origins": ["https://shop.example"]}"#, at: .webauthn, contentType: "text/plain"),
                expected: []
            ).findings
        },
        .webauthnTooLarge: {
            WebAuthnChecks.assess(
                Fixture.served(Array(repeating: UInt8(ascii: " "), count: 300_000), at: .webauthn), expected: []
            ).findings
        },
        .webauthnJSONInvalid: { webauthn(#"{"origins": ["https://shop.example",]}"#, expected: []) },
        .webauthnShape: { webauthn(#"["https://shop.example"]"#, expected: []) },
        .webauthnOriginsEmpty: { webauthn(#"{"origins": []}"#, expected: []) },
        .webauthnEntryType: { webauthn(#"{"origins": [42, "https://shop.example"]}"#, expected: []) },
        .webauthnEntrySkipped: { webauthn(#"{"origins": ["shop.example.co.uk"]}"#, expected: []) },
        .webauthnNoOrigin: { webauthn(#"{"origins": ["http://localhost:3000", "https://com"]}"#, expected: []) },
        .webauthnEntryRead: { webauthn(#"{"origins": ["https://shop.example/login"]}"#, expected: []) },
        .webauthnLabelLimit: {
            webauthn(
                #"{"origins": ["https://a.com", "https://b.com", "https://c.com", "https://d.com", "https://e.com", "https://f.com"]}"#,
                expected: [])
        },
        .webauthnOriginMissing: { webauthn(#"{"origins": ["https://other.example"]}"#) },
        .webauthnUnknownKey: { webauthn(#"{"origins": ["https://shop.example"], "comment": "x"}"#, expected: []) },
        .passkeyEndpointsAbsent: { endpoints(Fixture.served("", at: .passkeyEndpoints, status: 404)) },
        .webauthnAbsent: {
            WebAuthnChecks.assess(Fixture.served("", at: .webauthn, status: 404), expected: [], optional: true).findings
        },
        .changePasswordAbsent: {
            ChangePasswordChecks.assess(Fixture.served("", at: .passkeyEndpoints, status: 404).record, final: nil)
        },
        .changePasswordRedirect: {
            ChangePasswordChecks.assess(Fixture.served("<h1>Account</h1>", at: .passkeyEndpoints).record, final: nil)
        },
        .changePasswordTarget: {
            ChangePasswordChecks.assess(
                Fixture.redirect(to: "https://example.com/account/password", status: 302, at: .passkeyEndpoints).record,
                final: Fixture.served("", at: .passkeyEndpoints, status: 404).record)
        },
        .locationCatchAll: {
            let page = Fixture.served("<!doctype html>", contentType: "text/html; charset=utf-8")
            let probe = Fixture.served("<!doctype html>", at: .catchAllProbe, contentType: "text/html")
            return CatchAllChecks.findings(
                probe: probe.record, suspects: CatchAllChecks.suspects([page.record], domain: "example.com"))
        },
        .assetlinksLoginCreds: {
            let declarations = AssetLinksChecks.assess(
                Fixture.served(Fixture.assetLinks, at: .assetlinks), expected: []
            ).declarations
            return AssetLinksChecks.loginSharingFindings(
                [AndroidApp(package: "com.example.app")], declarations: declarations, sharesLogins: true,
                at: .assetlinks)
        },
        .passkeyEndpointsStatus: { endpoints(Fixture.served("", at: .passkeyEndpoints, status: 503)) },
        .passkeyEndpointsRedirect: {
            endpoints(
                Fixture.redirect(to: "https://www.example.com/.well-known/passkey-endpoints", at: .passkeyEndpoints))
        },
        .passkeyEndpointsContentType: {
            endpoints(Fixture.served("{}", at: .passkeyEndpoints, contentType: "text/html"))
        },
        .passkeyEndpointsTooLarge: {
            endpoints(Fixture.served(Array(repeating: UInt8(ascii: " "), count: 200_000), at: .passkeyEndpoints))
        },
        .passkeyEndpointsJSONInvalid: { endpoints(Fixture.served("{,}", at: .passkeyEndpoints)) },
        .passkeyEndpointsNotObject: { endpoints(Fixture.served("[]", at: .passkeyEndpoints)) },
        .passkeyEndpointsURL: { endpoints(Fixture.served(#"{"enroll": "/passkeys/new"}"#, at: .passkeyEndpoints)) },
        .passkeyEndpointsUnreachable: {
            PasskeyEndpointsChecks.pageFindings([
                ("manage", "https://example.com/account", Fixture.served("", status: 500).record)
            ])
        },
        .passkeyEndpointsUnknownKey: {
            endpoints(Fixture.served(#"{"enrol": "https://example.com/new"}"#, at: .passkeyEndpoints))
        },
        .windowsMissing: { windows(Fixture.served("", at: .windows, status: 404)) },
        .windowsStatus: { windows(Fixture.served("", at: .windows, status: 403)) },
        .windowsRedirect: {
            windows(Fixture.redirect(to: "https://www.example.com/.well-known/windows-app-web-link", at: .windows))
        },
        .windowsContentType: { windows(Fixture.served(windowsFile, at: .windows, contentType: "text/plain")) },
        .windowsTooLarge: {
            windows(Fixture.served(Array(repeating: UInt8(ascii: " "), count: 200_000), at: .windows))
        },
        .windowsJSONInvalid: { windows(Fixture.served("[{,}]", at: .windows)) },
        .windowsNotList: { windows(Fixture.served(#"{"packageFamilyName": "MyApp_9jmtgj1pbbz6e"}"#, at: .windows)) },
        .windowsEntry: {
            windows(Fixture.served(#"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": "*"}]"#, at: .windows))
        },
        .windowsPackageName: {
            windows(Fixture.served(#"[{"packageFamilyName": "YourPackageFamilyName", "paths": ["*"]}]"#, at: .windows))
        },
        .windowsPathsEmpty: {
            windows(Fixture.served(#"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e"}]"#, at: .windows))
        },
        .windowsExcludesAll: {
            windows(
                Fixture.served(
                    #"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["/shop/*"], "excludePaths": ["*"]}]"#,
                    at: .windows))
        },
        .windowsPathUnanchored: {
            windows(
                Fixture.served(
                    #"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["*"], "excludePaths": ["account/*"]}]"#,
                    at: .windows))
        },
        .windowsUnknownKey: {
            windows(
                Fixture.served(
                    #"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["*"], "path": "/"}]"#, at: .windows))
        },
        .windowsDiffer: {
            WindowsChecks.assess(
                wellKnown: Fixture.served(windowsFile, at: .windows),
                root: Fixture.served(windowsFile.replacingOccurrences(of: "*", with: "/shop/*"), at: .windows),
                expected: []
            ).findings
        },
        .windowsAppMissing: {
            WindowsChecks.assess(
                wellKnown: Fixture.served(windowsFile, at: .windows), root: nil, expected: ["Other.App_8wekyb3d8bbwe"]
            ).findings
        },
        .harmonyStatus: { harmony(Fixture.served("", at: .harmony, status: 404)) },
        .harmonyRedirect: {
            harmony(Fixture.redirect(to: "https://www.example.com/.well-known/applinking.json", at: .harmony))
        },
        .harmonyContentType: { harmony(Fixture.served(harmonyFile, at: .harmony, contentType: "text/html")) },
        .harmonyTooLarge: {
            harmony(Fixture.served(Array(repeating: UInt8(ascii: " "), count: 200_000), at: .harmony))
        },
        .harmonyJSONInvalid: { harmony(Fixture.served("{,}", at: .harmony)) },
        .harmonyShape: { harmony(Fixture.served(#"{"app_id": "5765880207854972765"}"#, at: .harmony)) },
        .harmonyAppsEmpty: { harmony(Fixture.served(#"{"applinking": {"apps": []}}"#, at: .harmony)) },
        .harmonyApp: { harmony(Fixture.served(#"{"applinking": {"apps": [{"appIdentifier": 5}]}}"#, at: .harmony)) },
        .harmonyIndex: {
            harmony(
                Fixture.served(#"{"applinking": {"apps": [{"appIdentifier": "576", "index": 101}]}}"#, at: .harmony))
        },
        .harmonyUnknownKey: {
            harmony(Fixture.served(#"{"applinking": {"apps": [{"appIdentifier": "576", "name": "x"}]}}"#, at: .harmony))
        },
        .harmonyAppMissing: {
            HarmonyChecks.assess(Fixture.served(harmonyFile, at: .harmony), expected: ["42"]).findings
        },
        .assetlinksStatus: { android(Fixture.served("", at: .assetlinks, status: 404)) },
        .assetlinksRedirect: {
            android(Fixture.redirect(to: "https://www.example.com/.well-known/assetlinks.json", at: .assetlinks))
        },
        .assetlinksContentType: {
            android(Fixture.served(Fixture.assetLinks, at: .assetlinks, contentType: "text/plain"))
        },
        .assetlinksTooLarge: {
            android(Fixture.served(Array(repeating: UInt8(ascii: " "), count: 200_000), at: .assetlinks))
        },
        .assetlinksJSONInvalid: { android(Fixture.served("[{\"relation\": [],}]", at: .assetlinks)) },
        .assetlinksNotList: { android(Fixture.served("{\"relation\": []}", at: .assetlinks)) },
        .assetlinksRelation: {
            android(
                Fixture.served(
                    Fixture.assetLinks.replacingOccurrences(
                        of: "delegate_permission/common.handle_all_urls", with: "handle all urls"), at: .assetlinks))
        },
        .assetlinksStatement: {
            android(
                Fixture.served(
                    "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"ios_app\"}}]",
                    at: .assetlinks))
        },
        .assetlinksFingerprint: { android(Fixture.served(Fixture.assetLinks.lowercased(), at: .assetlinks)) },
        .assetlinksInclude: {
            // An include with other standard fields (an error), and a valid one in lint (a note).
            android(
                Fixture.served(
                    "[{\"include\": \"https://example.com/more.json\", \"relation\": [\"delegate_permission/common.handle_all_urls\"]}]",
                    at: .assetlinks))
                + AssetLinksChecks.assessContent(
                    Array("[{\"include\": \"https://example.com/more.json\"}]".utf8), expected: [], at: .file
                ).findings
        },
        .assetlinksIncludeFailed: {
            AssetLinksChecks.assess(
                Fixture.served("[{\"include\": \"https://example.com/more.json\"}]", at: .assetlinks),
                included: [
                    .init(
                        url: "https://example.com/more.json",
                        includedFrom: "https://example.com/.well-known/assetlinks.json",
                        fetched: Fixture.served("", at: .assetlinks, status: 404))
                ], expected: [AndroidApp(package: "com.example.app")]
            ).findings
        },
        .assetlinksUnknownKey: {
            android(
                Fixture.served(
                    "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"android_app\", \"package_name\": \"com.example.app\", \"sha256_cert_fingerprints\": [\"\(String(repeating: "AB:", count: 31))AB\"]}, \"conditions\": [{\"host\": \"example.com\", \"pathPattern\": \"/api/.*\"}]}]",
                    at: .assetlinks))
        },
        .assetlinksSite: {
            android(
                Fixture.served(
                    "[{\"relation\": [\"delegate_permission/common.get_login_creds\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://example.com/\"}}]",
                    at: .assetlinks), expected: [])
        },
        .assetlinksDynamicRules: {
            // Components of the wrong type (all rules dropped: an error); an unknown key (a warning).
            android(
                Fixture.served(
                    Fixture.assetLinks.replacingOccurrences(
                        of: "\"target\"",
                        with:
                            "\"relation_extensions\": {\"delegate_permission/common.handle_all_urls\": {\"dynamic_app_link_components\": {\"/\": \"/a\"}}}, \"target\""
                    ) + "", at: .assetlinks))
                + android(
                    Fixture.served(
                        Fixture.assetLinks.replacingOccurrences(
                            of: "\"target\"",
                            with:
                                "\"relation_extensions\": {\"delegate_permission/common.handle_all_urls\": {\"dynamic_app_link_components\": [{\"path\": \"/a\"}]}}, \"target\""
                        ), at: .assetlinks))
        },
        .assetlinksManifestScope: {
            AndroidManifestScope.findings(
                rules: DynamicAppLinkRules(components: [.init(index: 0, path: "/admin/*", exclude: false)]),
                package: "com.example.app",
                scope: AndroidManifest.HostScope(host: "example.com", paths: [.prefix("/shop")]))
        },
        .assetlinksPackageMissing: {
            android(
                Fixture.served(Fixture.assetLinks, at: .assetlinks),
                expected: [AndroidApp(package: "com.example.other")])
        },
        .assetlinksFingerprintMissing: {
            android(
                Fixture.served(Fixture.assetLinks, at: .assetlinks),
                expected: [AndroidApp(package: "com.example.app", fingerprint: Fixture.otherFingerprint)])
        },
        .matchCutShort: {
            DomainChecks.assess(
                target: DomainTarget(
                    domain: "example.com",
                    expectations: [URLExpectation(url: "https://example.com/buy/1", opensApp: true, inputLine: 2)]),
                wellKnown: Fixture.served(valid), root: Fixture.served("", at: .root, status: 404),
                options: ValidationOptions(matchVisits: 1)
            ).findings
        },
        .matchExpectedBrowser: {
            domain(
                Fixture.served(valid),
                target: DomainTarget(
                    domain: "example.com",
                    expectations: [URLExpectation(url: "https://example.com/buy/1", opensApp: false, inputLine: 2)]))
        },
    ]

    @Test func everyCodeHasAScenario() {
        let missing = FindingCode.allCases.filter { Self.scenarios[$0] == nil }
        #expect(missing.isEmpty, "codes without a scenario in FindingCatalogTests: \(missing.map(\.rawValue))")
    }

    @Test(arguments: FindingCode.allCases)
    func theChecksEmitTheCodeAtItsCatalogSeverity(code: FindingCode) throws {
        let scenario = try #require(Self.scenarios[code])
        let findings = scenario()
        #expect(
            findings.contains { $0.code == code },
            "\(code.rawValue) is not emitted by its scenario: \(findings.summary)")
        for finding in findings {
            let entry = finding.code.definition
            let allowed = [entry.severity] + entry.cases.map(\.severity)
            // The root copy's findings are lowered by policy (DomainChecks), not by the catalog.
            guard finding.location != .root else { continue }
            #expect(
                allowed.contains(finding.severity),
                "\(finding.code.rawValue) emitted as \(finding.severity.rawValue); the catalog says \(entry.severityText)"
            )
        }
    }

    @Test func eachNamedSeverityCaseIsReached() {
        let reached: [(FindingCode, SeverityCase)] = [
            (.entryMixedFormats, .mixedFormatsForOldIOS), (.valueType, .commentNotString),
            (.componentUnknownKey, .matchesEverything), (.applinksLegacyApps, .appsMissingForOldIOS),
            (.assetlinksInclude, .includeNotFollowedOffline),
            (.assetlinksDynamicRules, .dynamicRulesNotice), (.applinksMissing, .servicesOnly),
            (.ruleUnreachable, .changesNothing), (.serviceInvalid, .emptySection),
        ]
        for (code, severityCase) in reached {
            #expect(code.definition.cases.contains(severityCase))
            let severities = Self.scenarios[code]!().filter { $0.code == code }.map(\.severity)
            #expect(
                severities.contains(severityCase.severity), "\(code.rawValue): '\(severityCase.when)' never reached")
            #expect(severities.contains(code.definition.severity), "\(code.rawValue): its usual severity never reached")
        }
        let declared = FindingCode.allCases.flatMap { code in code.definition.cases.map { (code, $0) } }
        // The cases of a list read in part are reached by CatalogSeverityTests' built files.
        #expect(
            declared.count == reached.count + CatalogSeverityTests.readInPartCodes.count,
            "a named case was added to the catalog without a row here")
    }

    @Test func contentCodesAreTheOnesAFileAloneCauses() {
        // A root copy with the same bytes as .well-known has its content findings reported once:
        // the category decides which ones.
        let content = FindingCode.allCases.filter { $0.definition.category == .content }
        #expect(content.contains(.jsonInvalid) && content.contains(.bodyTooLarge) && content.contains(.ruleUnreachable))
        #expect(
            !content.contains(.httpContentType) && !content.contains(.bodyEmpty) && !content.contains(.appIDMissing))
    }
}
