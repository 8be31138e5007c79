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

    static let merchantFile = String(repeating: "7B2270737049", count: 200)
    static func applePay(_ fetched: FetchedLocation, textCopy: FetchedLocation? = nil, sha256: String? = nil)
        -> [Finding]
    {
        ApplePayChecks.assess(fetched, textCopy: textCopy, want: ApplePayWant(sha256: sha256)).findings
    }

    static let webAppFile = #"{"https://app.example.com/app": {"scope": "/"}}"#
    static func webApp(_ text: String, expected: [String] = []) -> [Finding] {
        WebAppChecks.assess(Fixture.served(text, at: .webApp), domain: "example.com", expected: expected).findings
    }

    static func webAppManifest(_ text: String, status: Int = 200) -> [Finding] {
        var fetched = Fixture.served(text, at: .webApp, status: status)
        fetched.record.url = "https://app.example.com/manifest.json"
        return WebAppManifestChecks.assess(fetched, domain: "example.com", expectedID: "https://app.example.com/app")
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
        .transfer(.netDNS): { domain(Fixture.failed(.dns)) },
        .transfer(.netConnect): { domain(Fixture.failed(.connect)) },
        .transfer(.netTimeout): { domain(Fixture.failed(.timeout)) },
        .transfer(.tlsCertificate): { domain(Fixture.failed(.tlsCertificate)) },
        .transfer(.tlsHandshake): { domain(Fixture.failed(.tlsHandshake)) },
        .transfer(.netOther): { domain(Fixture.failed(.other)) },
        .transfer(.netBlockedAddress): { domain(Fixture.failed(.blockedAddress)) },
        .run(.auditUnchecked): { domain(Fixture.failed(.local)) },
        .aasa(.locationMisnamed): {
            var view = DomainChecks.DeviceView()
            view.misnamed = Fixture.served(valid)
            return domain(Fixture.served("", status: 404), view: view)
        },
        .aasa(.tlsExpiring): {
            var record = Fixture.served(valid).record
            record.certificateExpires = Date(timeIntervalSince1970: 1_795_490_100 + 86_400 * 5)
            return CertificateExpiry.findings(
                [record], host: "example.com", now: Date(timeIntervalSince1970: 1_795_490_100), warningDays: 21)
        },
        .aasa(.httpRedirect): { domain(Fixture.redirect(to: "https://www.example.com/")) },
        .aasa(.httpStatus): { domain(Fixture.served("", status: 404)) },
        .aasa(.httpContentType): {
            domain(Fixture.served(valid, contentType: "text/plain"))
                + domain(Fixture.served(valid, contentType: "application/pkcs7-mime"))
        },
        .aasa(.bodyTooLarge): {
            domain(Fixture.served(valid + String(repeating: " ", count: AppleLimits.maximumFileBytes)))
        },
        .aasa(.bodyEmpty): { domain(Fixture.served("")) },
        .aasa(.jsonInvalid): { lint(#"{"applinks": {},}"#) },
        .aasa(.jsonNotObject): { lint("[]") },
        .aasa(.fileSigned): { domain(Fixture.signed(valid, problem: nil)) },
        .aasa(.signatureInvalid): {
            domain(Fixture.signed(valid, problem: "The signature does not match the content."))
        },
        .aasa(.jsonDuplicateKey): {
            lint(
                #"{"applinks":{"details":[]},"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.app"],"components":[{"/":"*"}]}]}}"#
            )
        },
        .aasa(.applinksMissing): {
            // Expected (--app-id): an error; a file of other services nothing expects links of: a note.
            FileLint.lint(
                Array(#"{"webcredentials":{"apps":["\#(id)"]}}"#.utf8), size: 40,
                expecting: DomainTarget(domain: "example.com", expectedAppIDs: [id])
            ).findings + lint(#"{"webcredentials":{"apps":["\#(id)"]}}"#)
        },
        .aasa(.appIDMalformed): {
            lint(rules(#"{"/":"/a"}"#).replacingOccurrences(of: id, with: "TEAM_ID.com.example.app"))
        },
        .aasa(.appIDMissing): {
            domain(Fixture.served(valid), target: Fixture.target(["ABCDE12346.com.example.missing"]))
        },
        .aasa(.domainInternationalized): {
            domain(Fixture.served(valid), target: DomainTarget(domain: "xn--bcher-kva.example", inputLine: 1))
        },
        .aasa(.locationRootOnly): { domain(Fixture.served("", status: 404), root: Fixture.served(valid, at: .root)) },
        .aasa(.locationNone): { domain(Fixture.served("", status: 404)) },
        .aasa(.locationRootAbsent): { domain(Fixture.served(valid), root: Fixture.served("", at: .root, status: 404)) },
        .aasa(.fileUnknownKey): { lint(#"{"applink":{},"applinks":{"details":[]}}"#) },
        .aasa(.serviceInvalid): {
            lint(#"{"applinks":{"details":[]},"webcredentials":1}"#)
                + lint(#"{"applinks":{"details":[]},"appclips":{}}"#)
        },
        .aasa(.appClipSuffix): { lint(#"{"applinks":{"details":[]},"appclips":{"apps":["\#(id)"]}}"#) },
        .aasa(.applinksUnknownKey): {
            lint(entry(#""appIDs":["\#(id)"],"components":[{"/":"/a"}]"#, applinks: #""detail":1,"#))
        },
        .aasa(.applinksLegacyApps): {
            lint(entry(#""appIDs":["\#(id)"],"components":[{"/":"/a"}]"#, applinks: #""apps":["\#(id)"],"#))
                + lint(entry(#""appID":"\#(id)","paths":["/a/*"]"#), minimumIOS: "12")
        },
        .aasa(.detailsMissing): { lint(#"{"applinks":{}}"#) },
        .aasa(.detailsEmpty): { lint(#"{"applinks":{"details":[]}}"#) },
        .aasa(.detailsInvalid): { lint(#"{"applinks":{"details":1}}"#) },
        .aasa(.detailsDictionary): { lint(#"{"applinks":{"apps":[],"details":{"\#(id)":{"paths":["*"]}}}}"#) },
        .aasa(.entryInvalid): { lint(#"{"applinks":{"details":[1]}}"#) },
        .aasa(.entryNoApp): { lint(entry(#""components":[{"/":"/a"}]"#)) },
        .aasa(.entryNoRules): { lint(entry(#""appIDs":["\#(id)"]"#)) },
        .aasa(.entryUnknownKey): { lint(entry(#""appId":"\#(id)","components":[{"/":"/a"}]"#)) },
        .aasa(.entryMixedAppKeys): { lint(entry(#""appID":"\#(id)","appIDs":["\#(id)"],"components":[{"/":"/a"}]"#)) },
        .aasa(.entryMixedFormats): {
            let mixed = entry(#""appID":"\#(id)","paths":["/a"],"components":[{"/":"/a"}]"#)
            return lint(mixed) + lint(mixed, minimumIOS: "12")
        },
        .aasa(.entryUnreachable): {
            lint(
                #"{"applinks":{"details":[{"appIDs":["\#(id)"],"components":[{"/":"*","exclude":true}]},{"appIDs":["\#(id)"],"components":[{"/":"/a"}]}]}}"#
            )
        },
        .aasa(.valueType): {
            lint(entry(#""appID":1,"appIDs":["\#(id)"],"components":[{"/":"/a"}]"#))
                + lint(rules(#"{"/":"/a","comment":1}"#))
        },
        .aasa(.componentUnknownKey): { lint(rules(#"{"path":"/a"},{"/":"/b","query":"x"}"#)) },
        .aasa(.componentQueryDisabled): { lint(rules(#"{"/":"/a","?":{"q":true}}"#)) },
        // An exclusion after a catch-all is the mistake (a warning); a plain rule changes nothing (a note).
        .aasa(.ruleUnreachable): { lint(rules(#"{"/":"*"},{"/":"/a","exclude":true},{"/":"/b"}"#)) },
        .aasa(.pathsURL): { lint(entry(#""appID":"\#(id)","paths":["https://example.com/a"]"#)) },
        .aasa(.patternTooLong): { lint(rules(#"{"/":"/\#(String(repeating: "a", count: 5000))"}"#)) },
        .aasa(.defaultsUnknownKey): {
            lint(entry(#""appIDs":["\#(id)"],"components":[{"/":"/a"}]"#, applinks: #""defaults":{"case":true},"#))
        },
        .aasa(.variableUndefined): { lint(rules(#"{"/":"/$(nope)"}"#)) },
        .aasa(.variableInvalid): {
            lint(
                entry(
                    #""appIDs":["\#(id)"],"components":[{"/":"/a"}]"#,
                    applinks: #""substitutionVariables":{"a$":["x"]},"#))
        },
        .aasa(.variableEmpty): {
            lint(
                entry(
                    #""appIDs":["\#(id)"],"components":[{"/":"/$(v)"}]"#,
                    applinks: #""substitutionVariables":{"v":[]},"#))
        },
        .aasa(.variableShadowsBuiltin): {
            lint(
                entry(
                    #""appIDs":["\#(id)"],"components":[{"/":"/$(alpha)"}]"#,
                    applinks: #""substitutionVariables":{"alpha":["x"]},"#))
        },
        .aasa(.variableUnused): {
            lint(
                entry(
                    #""appIDs":["\#(id)"],"components":[{"/":"/a"}]"#,
                    applinks: #""substitutionVariables":{"v":["x"]},"#))
        },
        .aasa(.featureMinIOS): { lint(valid, minimumIOS: "12") },
        .run(.auditInterrupted): { DomainChecks.notAudited(Fixture.target()).findings },
        .run(.auditCrashed): { DomainChecks.crashed(Fixture.target(), why: "It crashed the audit alone.").findings },
        .aasa(.cdnMissing): {
            domain(Fixture.served(valid), view: DomainChecks.DeviceView(cdn: Fixture.served("", at: .cdn, status: 404)))
        },
        .aasa(.cdnError): {
            domain(Fixture.served(valid), view: DomainChecks.DeviceView(cdn: Fixture.served("<html></html>", at: .cdn)))
        },
        .aasa(.cdnUnchecked): {
            domain(Fixture.served(valid), view: DomainChecks.DeviceView(cdn: Fixture.failed(.dns, at: .cdn)))
        },
        .aasa(.cdnStale): {
            domain(Fixture.served(valid), view: DomainChecks.DeviceView(cdn: Fixture.served(other, at: .cdn)))
        },
        .aasa(.uaBlocked): {
            domain(
                Fixture.served(valid),
                view: DomainChecks.DeviceView(
                    bot: agent(Fixture.served("", status: 403), .bot), browser: agent(Fixture.served(valid), .browser)))
        },
        .aasa(.uaDiffer): {
            domain(
                Fixture.served(valid),
                view: DomainChecks.DeviceView(
                    bot: agent(Fixture.served(valid), .bot), browser: agent(Fixture.served(other), .browser)))
        },
        .aasa(.locationDiffer): { domain(Fixture.served(valid), root: Fixture.served(other, at: .root)) },
        .aasa(.serviceMissing): {
            domain(
                Fixture.served(valid),
                target: DomainTarget(
                    domain: "example.com", expectedAppIDs: [id],
                    services: [AssociatedService(service: .webcredentials, file: "App.entitlements")]))
        },
        .aasa(.matchExpectedApp): {
            domain(
                Fixture.served(valid),
                target: DomainTarget(
                    domain: "example.com",
                    expectations: [URLExpectation(url: "https://example.com/help", opensApp: true, inputLine: 2)]))
        },
        .webAuthn(.status): {
            WebAuthnChecks.assess(Fixture.served("", at: .webauthn, status: 404), expected: []).findings
        },
        .webAuthn(.redirect): { webauthnRedirected(to: "https://www.example.com/.well-known/webauthn") },
        .webAuthn(.redirectInsecure): { webauthnRedirected(to: "http://example.com/.well-known/webauthn") },
        .webAuthn(.contentType): {
            WebAuthnChecks.assess(
                Fixture.served(#"{"origins": ["https://shop.example"]}"#, at: .webauthn, contentType: "text/plain"),
                expected: []
            ).findings
        },
        .webAuthn(.tooLarge): {
            WebAuthnChecks.assess(
                Fixture.served(Array(repeating: UInt8(ascii: " "), count: 300_000), at: .webauthn), expected: []
            ).findings
        },
        .webAuthn(.jsonInvalid): { webauthn(#"{"origins": ["https://shop.example",]}"#, expected: []) },
        .webAuthn(.shape): { webauthn(#"["https://shop.example"]"#, expected: []) },
        .webAuthn(.originsEmpty): { webauthn(#"{"origins": []}"#, expected: []) },
        .webAuthn(.entryType): { webauthn(#"{"origins": [42, "https://shop.example"]}"#, expected: []) },
        .webAuthn(.entrySkipped): { webauthn(#"{"origins": ["shop.example.co.uk"]}"#, expected: []) },
        .webAuthn(.noOrigin): { webauthn(#"{"origins": ["http://localhost:3000", "https://com"]}"#, expected: []) },
        .webAuthn(.entryRead): { webauthn(#"{"origins": ["https://shop.example/login"]}"#, expected: []) },
        .webAuthn(.labelLimit): {
            webauthn(
                #"{"origins": ["https://a.com", "https://b.com", "https://c.com", "https://d.com", "https://e.com", "https://f.com"]}"#,
                expected: [])
        },
        .webAuthn(.originMissing): { webauthn(#"{"origins": ["https://other.example"]}"#) },
        .webAuthn(.unknownKey): { webauthn(#"{"origins": ["https://shop.example"], "comment": "x"}"#, expected: []) },
        .passkeyEndpoints(.absent): { endpoints(Fixture.served("", at: .passkeyEndpoints, status: 404)) },
        .webAuthn(.absent): {
            WebAuthnChecks.assess(Fixture.served("", at: .webauthn, status: 404), expected: [], optional: true).findings
        },
        .passkeyEndpoints(.changePasswordAbsent): {
            ChangePasswordChecks.assess(Fixture.served("", at: .passkeyEndpoints, status: 404).record, final: nil)
        },
        .passkeyEndpoints(.changePasswordRedirect): {
            ChangePasswordChecks.assess(Fixture.served("<h1>Account</h1>", at: .passkeyEndpoints).record, final: nil)
        },
        .passkeyEndpoints(.changePasswordTarget): {
            ChangePasswordChecks.assess(
                Fixture.redirect(to: "https://example.com/account/password", status: 302, at: .passkeyEndpoints).record,
                final: Fixture.served("", at: .passkeyEndpoints, status: 404).record)
        },
        .aasa(.locationCatchAll): {
            let page = Fixture.served("<!doctype html>", contentType: "text/html; charset=utf-8")
            let probe = Fixture.served("<!doctype html>", at: .catchAllProbe, contentType: "text/html")
            return CatchAllChecks.findings(
                probe: probe.record, suspects: CatchAllChecks.suspects([page.record], domain: "example.com"))
        },
        .assetLinks(.loginCreds): {
            let declarations = AssetLinksChecks.assess(
                Fixture.served(Fixture.assetLinks, at: .assetlinks), expected: []
            ).declarations
            return AssetLinksChecks.loginSharingFindings(
                [AndroidApp(package: "com.example.app")], declarations: declarations, sharesLogins: true,
                at: .assetlinks)
        },
        .passkeyEndpoints(.status): { endpoints(Fixture.served("", at: .passkeyEndpoints, status: 503)) },
        .passkeyEndpoints(.redirect): {
            endpoints(
                Fixture.redirect(to: "https://www.example.com/.well-known/passkey-endpoints", at: .passkeyEndpoints))
        },
        .passkeyEndpoints(.contentType): {
            endpoints(Fixture.served("{}", at: .passkeyEndpoints, contentType: "text/html"))
        },
        .passkeyEndpoints(.tooLarge): {
            endpoints(Fixture.served(Array(repeating: UInt8(ascii: " "), count: 200_000), at: .passkeyEndpoints))
        },
        .passkeyEndpoints(.jsonInvalid): { endpoints(Fixture.served("{,}", at: .passkeyEndpoints)) },
        .passkeyEndpoints(.notObject): { endpoints(Fixture.served("[]", at: .passkeyEndpoints)) },
        .passkeyEndpoints(.url): { endpoints(Fixture.served(#"{"enroll": "/passkeys/new"}"#, at: .passkeyEndpoints)) },
        .passkeyEndpoints(.unreachable): {
            PasskeyEndpointsChecks.pageFindings([
                ("manage", "https://example.com/account", Fixture.served("", status: 500).record)
            ])
        },
        .passkeyEndpoints(.unknownKey): {
            endpoints(Fixture.served(#"{"enrol": "https://example.com/new"}"#, at: .passkeyEndpoints))
        },
        .windows(.missing): { windows(Fixture.served("", at: .windows, status: 404)) },
        .windows(.status): { windows(Fixture.served("", at: .windows, status: 403)) },
        .windows(.redirect): {
            windows(Fixture.redirect(to: "https://www.example.com/.well-known/windows-app-web-link", at: .windows))
        },
        .windows(.contentType): { windows(Fixture.served(windowsFile, at: .windows, contentType: "text/plain")) },
        .windows(.tooLarge): {
            windows(Fixture.served(Array(repeating: UInt8(ascii: " "), count: 200_000), at: .windows))
        },
        .windows(.jsonInvalid): { windows(Fixture.served("[{,}]", at: .windows)) },
        .windows(.notList): { windows(Fixture.served(#"{"packageFamilyName": "MyApp_9jmtgj1pbbz6e"}"#, at: .windows)) },
        .windows(.entry): {
            windows(Fixture.served(#"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": "*"}]"#, at: .windows))
        },
        .windows(.packageName): {
            windows(Fixture.served(#"[{"packageFamilyName": "YourPackageFamilyName", "paths": ["*"]}]"#, at: .windows))
        },
        .windows(.pathsEmpty): {
            windows(Fixture.served(#"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e"}]"#, at: .windows))
        },
        .windows(.excludesAll): {
            windows(
                Fixture.served(
                    #"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["/shop/*"], "excludePaths": ["*"]}]"#,
                    at: .windows))
        },
        .windows(.pathUnanchored): {
            windows(
                Fixture.served(
                    #"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["*"], "excludePaths": ["account/*"]}]"#,
                    at: .windows))
        },
        .windows(.unknownKey): {
            windows(
                Fixture.served(
                    #"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["*"], "path": "/"}]"#, at: .windows))
        },
        .windows(.differ): {
            WindowsChecks.assess(
                wellKnown: Fixture.served(windowsFile, at: .windows),
                root: Fixture.served(windowsFile.replacingOccurrences(of: "*", with: "/shop/*"), at: .windows),
                expected: []
            ).findings
        },
        .windows(.appMissing): {
            WindowsChecks.assess(
                wellKnown: Fixture.served(windowsFile, at: .windows), root: nil, expected: ["Other.App_8wekyb3d8bbwe"]
            ).findings
        },
        .harmony(.status): { harmony(Fixture.served("", at: .harmony, status: 404)) },
        .harmony(.redirect): {
            harmony(Fixture.redirect(to: "https://www.example.com/.well-known/applinking.json", at: .harmony))
        },
        .harmony(.contentType): { harmony(Fixture.served(harmonyFile, at: .harmony, contentType: "text/html")) },
        .harmony(.tooLarge): {
            harmony(Fixture.served(Array(repeating: UInt8(ascii: " "), count: 200_000), at: .harmony))
        },
        .harmony(.jsonInvalid): { harmony(Fixture.served("{,}", at: .harmony)) },
        .harmony(.shape): { harmony(Fixture.served(#"{"app_id": "5765880207854972765"}"#, at: .harmony)) },
        .harmony(.appsEmpty): { harmony(Fixture.served(#"{"applinking": {"apps": []}}"#, at: .harmony)) },
        .harmony(.app): { harmony(Fixture.served(#"{"applinking": {"apps": [{"appIdentifier": 5}]}}"#, at: .harmony)) },
        .harmony(.index): {
            harmony(
                Fixture.served(#"{"applinking": {"apps": [{"appIdentifier": "576", "index": 101}]}}"#, at: .harmony))
        },
        .harmony(.unknownKey): {
            harmony(Fixture.served(#"{"applinking": {"apps": [{"appIdentifier": "576", "name": "x"}]}}"#, at: .harmony))
        },
        .harmony(.appMissing): {
            HarmonyChecks.assess(Fixture.served(harmonyFile, at: .harmony), expected: ["42"]).findings
        },
        .applePay(.status): { applePay(Fixture.served("Forbidden", at: .applePay, contentType: nil, status: 403)) },
        .applePay(.redirect): {
            applePay(
                Fixture.redirect(
                    to: "https://example.com/.well-known/apple-developer-merchantid-domain-association.txt",
                    at: .applePay))
        },
        .applePay(.textOnly): {
            applePay(
                Fixture.served("", at: .applePay, status: 404),
                textCopy: Fixture.served(merchantFile, at: .applePay, contentType: "text/plain"))
        },
        .applePay(.page): { applePay(Fixture.served("<!doctype html><title>Shop</title>", at: .applePay)) },
        .applePay(.empty): { applePay(Fixture.served("", at: .applePay, contentType: nil)) },
        .applePay(.tooLarge): {
            applePay(Fixture.served(String(repeating: "7B", count: 40_000), at: .applePay, contentType: nil))
        },
        .applePay(.hashMismatch): {
            applePay(Fixture.served(merchantFile, at: .applePay), sha256: String(repeating: "0", count: 64))
        },
        .applePay(.tls): { applePay(Fixture.failed(.tlsHandshake, at: .applePay)) },
        .applePay(.certificateExpiring): {
            var record = Fixture.served(merchantFile, at: .applePay).record
            record.certificateExpires = Date(timeIntervalSince1970: 1_800_000_000 + 86_400)
            return CertificateExpiry.findings(
                [record], host: "example.com", now: Date(timeIntervalSince1970: 1_800_000_000),
                watch: ApplePayChecks.certificateWatch)
        },
        .webApp(.status): {
            WebAppChecks.assess(Fixture.served("", at: .webApp, status: 404), domain: "example.com", expected: [])
                .findings
        },
        .webApp(.redirect): {
            WebAppChecks.assess(
                Fixture.redirect(to: "https://www.example.com/.well-known/web-app-origin-association", at: .webApp),
                domain: "example.com", expected: []
            ).findings
        },
        .webApp(.tooLarge): {
            WebAppChecks.assess(
                Fixture.served(Array(repeating: UInt8(ascii: " "), count: 1_000_001), at: .webApp),
                domain: "example.com", expected: []
            ).findings
        },
        .webApp(.jsonInvalid): { webApp("{,}") },
        .webApp(.notObject): { webApp("[]") },
        .webApp(.empty): { webApp("{}") },
        .webApp(.legacyShape): { webApp(#"{"web_apps": []}"#) },
        .webApp(.idInvalid): { webApp(#"{"app": {}}"#) },
        .webApp(.valueType): { webApp(#"{"https://app.example.com/app": []}"#) },
        .webApp(.scopeInvalid): { webApp(#"{"https://app.example.com/app": {"scope": "https://other.example/"}}"#) },
        .webApp(.scopeType): { webApp(#"{"https://app.example.com/app": {"scope": true}}"#) },
        .webApp(.allowMigration): { webApp(#"{"https://app.example.com/app": {"allow_migration": 1}}"#) },
        .webApp(.unknownKey): { webApp(#"{"https://app.example.com/app": {"name": "x"}}"#) },
        .webApp(.appMissing): { webApp(webAppFile, expected: ["https://other.example.com/app"]) },
        .webApp(.manifestUnreachable): { webAppManifest("", status: 404) },
        .webApp(.manifestInvalid): { webAppManifest("[]") },
        .webApp(.manifestScope): { webAppManifest(#"{"start_url": "https://app.example.com/app"}"#) },
        .webApp(.manifestID): {
            webAppManifest(
                #"{"start_url": "https://app.example.com/other", "scope_extensions": [{"type": "origin", "origin": "https://example.com"}]}"#
            )
        },
        .assetLinks(.status): { android(Fixture.served("", at: .assetlinks, status: 404)) },
        .assetLinks(.redirect): {
            android(Fixture.redirect(to: "https://www.example.com/.well-known/assetlinks.json", at: .assetlinks))
        },
        .assetLinks(.contentType): {
            android(Fixture.served(Fixture.assetLinks, at: .assetlinks, contentType: "text/plain"))
        },
        .assetLinks(.tooLarge): {
            android(Fixture.served(Array(repeating: UInt8(ascii: " "), count: 200_000), at: .assetlinks))
        },
        .assetLinks(.jsonInvalid): { android(Fixture.served("[{\"relation\": [],}]", at: .assetlinks)) },
        .assetLinks(.notList): { android(Fixture.served("{\"relation\": []}", at: .assetlinks)) },
        .assetLinks(.relation): {
            android(
                Fixture.served(
                    Fixture.assetLinks.replacingOccurrences(
                        of: "delegate_permission/common.handle_all_urls", with: "handle all urls"), at: .assetlinks))
        },
        .assetLinks(.statement): {
            android(
                Fixture.served(
                    "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"ios_app\"}}]",
                    at: .assetlinks))
        },
        .assetLinks(.fingerprint): { android(Fixture.served(Fixture.assetLinks.lowercased(), at: .assetlinks)) },
        .assetLinks(.include): {
            // An include with other standard fields (an error), and a valid one in lint (a note).
            android(
                Fixture.served(
                    "[{\"include\": \"https://example.com/more.json\", \"relation\": [\"delegate_permission/common.handle_all_urls\"]}]",
                    at: .assetlinks))
                + AssetLinksChecks.assessContent(
                    Array("[{\"include\": \"https://example.com/more.json\"}]".utf8), expected: [], at: .file
                ).findings
        },
        .assetLinks(.includeFailed): {
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
        .assetLinks(.unknownKey): {
            android(
                Fixture.served(
                    "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"android_app\", \"package_name\": \"com.example.app\", \"sha256_cert_fingerprints\": [\"\(String(repeating: "AB:", count: 31))AB\"]}, \"conditions\": [{\"host\": \"example.com\", \"pathPattern\": \"/api/.*\"}]}]",
                    at: .assetlinks))
        },
        .assetLinks(.site): {
            android(
                Fixture.served(
                    "[{\"relation\": [\"delegate_permission/common.get_login_creds\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://example.com/\"}}]",
                    at: .assetlinks), expected: [])
        },
        .assetLinks(.dynamicRules): {
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
        .assetLinks(.manifestScope): {
            AndroidManifestScope.findings(
                rules: DynamicAppLinkRules(components: [.init(index: 0, path: "/admin/*", exclude: false)]),
                package: "com.example.app",
                scope: AndroidManifest.HostScope(host: "example.com", paths: [.prefix("/shop")]))
        },
        .assetLinks(.packageMissing): {
            android(
                Fixture.served(Fixture.assetLinks, at: .assetlinks),
                expected: [AndroidApp(package: "com.example.other")])
        },
        .assetLinks(.fingerprintMissing): {
            android(
                Fixture.served(Fixture.assetLinks, at: .assetlinks),
                expected: [AndroidApp(package: "com.example.app", fingerprint: Fixture.otherFingerprint)])
        },
        .aasa(.matchCutShort): {
            DomainChecks.assess(
                target: DomainTarget(
                    domain: "example.com",
                    expectations: [URLExpectation(url: "https://example.com/buy/1", opensApp: true, inputLine: 2)]),
                wellKnown: Fixture.served(valid), root: Fixture.served("", at: .root, status: 404),
                options: ValidationOptions(matchVisits: 1)
            ).findings
        },
        .aasa(.matchExpectedBrowser): {
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
            (.aasa(.entryMixedFormats), .mixedFormatsForOldIOS), (.aasa(.valueType), .commentNotString),
            (.aasa(.componentUnknownKey), .matchesEverything), (.aasa(.applinksLegacyApps), .appsMissingForOldIOS),
            (.assetLinks(.include), .includeNotFollowedOffline),
            (.assetLinks(.dynamicRules), .dynamicRulesNotice), (.aasa(.applinksMissing), .servicesOnly),
            (.aasa(.ruleUnreachable), .changesNothing), (.aasa(.serviceInvalid), .emptySection),
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
        #expect(
            content.contains(.aasa(.jsonInvalid)) && content.contains(.aasa(.bodyTooLarge))
                && content.contains(.aasa(.ruleUnreachable)))
        #expect(
            !content.contains(.aasa(.httpContentType)) && !content.contains(.aasa(.bodyEmpty))
                && !content.contains(.aasa(.appIDMissing)))
    }
}
