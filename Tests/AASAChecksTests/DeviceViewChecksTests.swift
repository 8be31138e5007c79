import AASAChecks
import AASAModel
import Testing

@Suite struct DeviceViewChecksTests {
    static let reordered =
        #"{"webcredentials":{"apps":["ABCDE12346.com.example.app"]},"applinks":{"details":[{"components":[{"/":"/buy/*"}],"appIDs":["ABCDE12346.com.example.app"]}]}}"#
    static let other =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.beta"],"components":[{"/":"*"}]}]}}"#

    func cdn(_ body: String, status: Int = 200, reason: String? = nil, details: String? = nil) -> FetchedLocation {
        var fetched = Fixture.served(body, at: .cdn, status: status)
        fetched.record.headers.appleFailureReason = reason
        fetched.record.headers.appleFailureDetails = details
        return fetched
    }

    func check(
        cdn: FetchedLocation? = nil, bot: FetchedLocation? = nil, browser: FetchedLocation? = nil,
        root: FetchedLocation? = nil
    ) -> [String] {
        let view = DomainChecks.DeviceView(cdn: cdn, bot: bot, browser: browser)
        let file = Fixture.validFile.replacingOccurrences(
            of: "}]}}", with: "}]},\"webcredentials\":{\"apps\":[\"ABCDE12346.com.example.app\"]}}")
        let result = DomainChecks.assess(
            target: Fixture.target(), wellKnown: Fixture.served(file),
            root: root ?? Fixture.served("", at: .root, status: 404), deviceView: view)
        return result.findings.filter { $0.code != .aasa(.httpStatus) && $0.code != .aasa(.locationRootAbsent) }.map {
            "\($0.code.rawValue)/\($0.severity.rawValue)/\($0.location.rawValue): \($0.message)"
        }
    }

    /// An origin this audit never asked (held past its deadline by `--per-address`, or the run
    /// cancelled) is compared with nothing: Apple's CDN copy is not "stale" against a file
    /// nobody fetched, and the domain's record says only that it was not checked (issue 46,
    /// item 2: each such domain was counted as checked and failing, and alerted).
    @Test(arguments: [TransferErrorKind.local, .cancelled])
    func nothingIsComparedWithAnOriginNotAsked(kind: TransferErrorKind) {
        let skipped = FetchedLocation(
            record: {
                var record = FetchRecord(location: .root, url: "https://example.com/apple-app-site-association")
                record.error = TransferError(kind: .skipped, curlCode: 0, message: "Not fetched")
                return record
            }())
        let result = DomainChecks.assess(
            target: Fixture.target([Fixture.appID]), wellKnown: Fixture.failed(kind, message: "Not fetched: waited"),
            root: skipped, deviceView: DomainChecks.DeviceView(cdn: cdn(Fixture.validFile)))
        #expect(!result.findings.contains { $0.location == .cdn }, "\(result.findings.summary)")
        let report = DomainReport(
            domain: "example.com", inputLine: 1, expectedAppIDs: [Fixture.appID], fetches: [],
            appIDs: ServiceAppIDs(), findings: result.findings)
        #expect(kind != .local || FlaggedDomain(report)?.notChecked == true, "\(result.findings.summary)")
    }

    @Test func aCDNCopyEqualInMeaningIsFine() {
        #expect(check(cdn: cdn(Self.reordered)).isEmpty)
    }

    @Test func aCDNCopyThatDiffersIsStaleAndOnlyAWarning() {
        let findings = check(cdn: cdn(Self.other))
        #expect(findings.count == 1)
        #expect(
            findings[0].hasPrefix(
                "cdn.stale/warning/cdn: Apple's CDN copy differs from the origin's .well-known file (applinks app IDs: the CDN names ABCDE12346.com.example.beta, .well-known names ABCDE12346.com.example.app; applinks rules; webcredentials)"
            ))
    }

    @Test func noCDNCopyQuotesApple() {
        let findings = check(cdn: cdn("", status: 404, reason: "SWCERR00301 Timeout", details: "origin did not answer"))
        #expect(findings.count == 1)
        #expect(
            findings[0].hasPrefix(
                "cdn.missing/error/cdn: Apple's CDN has no copy of the file (HTTP 404; Apple says: SWCERR00301 Timeout — origin did not answer). SWCERR00301: Apple's bot timed out fetching the file from the origin"
            ), "\(findings)")
        #expect(findings[0].contains("Fix: answer quickly"))
    }

    @Test func aCDNFailureQuotesAppleAndSaysWhatItMeans() {
        let failure = check(cdn: cdn("", status: 502, reason: "SWCERR00101 Bad HTTP Response: 403 Forbidden"))
        #expect(
            failure.first?.hasPrefix(
                "cdn.error/error/cdn: Apple's CDN reports a failure: HTTP 502; Apple says: SWCERR00101 Bad HTTP Response: 403 Forbidden. SWCERR00101: Apple's bot got an HTTP answer other than 200"
            ) == true, "\(failure)")
        let unknown = check(cdn: cdn("", status: 404, reason: "SWCERR99999 Something New"))
        #expect(unknown.first?.contains("SWCERR99999 is a reason this audit does not know yet") == true, "\(unknown)")
        var unreachable = Fixture.failed(.dns, at: .cdn, message: "Could not resolve host")
        unreachable.record.location = .cdn
        // Apple's CDN out of this machine's reach is not the site's failure.
        #expect(
            check(cdn: unreachable).first?.hasPrefix(
                "cdn.unchecked/info/cdn: Apple's CDN could not be reached from here") == true)
        #expect(
            check(cdn: cdn("<html>not json</html>")) == [
                "cdn.error/error/cdn: Apple's CDN serves a copy that is not a JSON object."
            ])
    }

    @Test func aBotRefusedWhileABrowserIsServedIsBlocked() {
        let findings = check(
            bot: Fixture.served("<h1>Forbidden</h1>", contentType: "text/html", status: 403),
            browser: Fixture.served(Self.reordered))
        #expect(
            findings == [
                "ua.blocked/error/well-known: Apple's bot (AASA-Bot/1.0.0) is refused: it gets HTTP 403, while a browser gets the file. Apple's CDN cannot fetch it."
            ])
        let challenged = check(
            bot: Fixture.served("<html>Just a moment...</html>", contentType: "text/html"),
            browser: Fixture.served(Self.reordered))
        #expect(challenged.first?.contains("without a usable file (a challenge page?)") == true)
    }

    @Test func theSameFileForBotAndBrowserIsFine() {
        #expect(
            check(
                bot: Fixture.served(Self.reordered),
                browser: Fixture.served(
                    Fixture.validFile.replacingOccurrences(
                        of: "}]}}", with: "}]},\"webcredentials\":{\"apps\":[\"ABCDE12346.com.example.app\"]}}"))
            ).isEmpty)
        let differ = check(bot: Fixture.served(Self.other), browser: Fixture.served(Self.reordered))
        #expect(differ.first?.hasPrefix("ua.differ/warning/well-known") == true)
    }

    @Test func twoCopiesThatDifferInMeaningAreNamed() {
        let findings = check(root: Fixture.served(Self.other, at: .root))
        #expect(
            findings.first?.hasPrefix(
                "location.differ/warning/domain: The two copies differ: applinks app IDs: .well-known names ABCDE12346.com.example.app, root names ABCDE12346.com.example.beta"
            ) == true)
        #expect(check(root: Fixture.served(Self.reordered, at: .root)).isEmpty)
    }

    @Test func entitlementsForOtherServicesNeedTheirSections() {
        let webOnly = DomainTarget(
            domain: "example.com", expectedAppIDs: ["ABCDE12346.com.example.app"],
            services: [AssociatedService(service: .webcredentials, file: "E")])
        let file = #"{"webcredentials":{"apps":["ABCDE12346.com.example.app"]}}"#
        let passing = DomainChecks.assess(
            target: webOnly, wellKnown: Fixture.served(file), root: Fixture.served(file, at: .root))
        #expect(passing.findings.isEmpty, "no applinks needed for a webcredentials-only host")
        let clips = DomainTarget(
            domain: "example.com", expectedAppIDs: ["ABCDE12346.com.example.app"],
            services: [AssociatedService(service: .appclips, file: "E")])
        let missing = DomainChecks.assess(
            target: clips, wellKnown: Fixture.served(file), root: Fixture.served(file, at: .root))
        #expect(missing.findings.map(\.code) == [.aasa(.serviceMissing)])
        #expect(missing.findings.first?.message.contains("no appclips section") == true)
    }

    /// An app the input names with its service (`webcredentials:ID`) is judged in that section
    /// only: a passkeys-only file passes without applinks; a bare ID still means applinks; a
    /// domain that declares passkeys needs its bare IDs in webcredentials too.
    @Test func anExpectedAppIsJudgedAgainstItsServiceOnly() {
        let webOnly = #"{"webcredentials":{"apps":["ABCDE12346.com.example.app"]}}"#
        func findings(_ file: String, _ appIDs: [String], passkeys: Bool = false) -> [String] {
            var target = DomainTarget(domain: "example.com", expectedAppIDs: appIDs)
            if passkeys { target.wants.insert(PasskeyEndpointsWant()) }
            return DomainChecks.assess(
                target: target, wellKnown: Fixture.served(file), root: Fixture.served("", at: .root, status: 404)
            ).findings.filter { $0.severity != .info }.map(\.code.rawValue)
        }
        #expect(findings(webOnly, ["webcredentials:ABCDE12346.com.example.app"]).isEmpty)
        #expect(findings(webOnly, ["webcredentials:ABCDE12346.com.example.other"]) == ["service.missing"])
        #expect(findings(webOnly, ["ABCDE12346.com.example.app"]) == ["applinks.missing", "appid.missing"])
        #expect(findings(Fixture.validFile, ["webcredentials:ABCDE12346.com.example.app"]) == ["service.missing"])
        #expect(findings(Fixture.validFile, [Fixture.appID]).isEmpty)
        #expect(findings(Fixture.validFile, [Fixture.appID], passkeys: true) == ["service.missing"])
        let both =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.app"],"components":[{"/":"*"}]}]},"webcredentials":{"apps":["ABCDE12346.com.example.app"]}}"#
        #expect(findings(both, [Fixture.appID], passkeys: true).isEmpty)
        // A web-only passkeys site (no app) needs no webcredentials.
        #expect(findings(Fixture.validFile, [], passkeys: true).isEmpty)
    }
}
