import AASAChecks
import Testing

@testable import AASAModel

/// One case per finding code and per severity rule of the two locations.
@Suite struct DomainChecksTests {
    func check(_ wellKnown: FetchedLocation, _ root: FetchedLocation, expecting appIDs: [String] = [])
        -> DomainChecks.Result
    {
        DomainChecks.assess(target: Fixture.target(appIDs), wellKnown: wellKnown, root: root)
    }

    @Test func aGoodFileAtBothLocationsPasses() {
        let result = check(
            Fixture.served(Fixture.validFile), Fixture.served(Fixture.validFile, at: .root), expecting: [Fixture.appID])
        #expect(result.findings.isEmpty)
        #expect(Verdict(findings: result.findings) == .pass)
        #expect(result.appIDs.applinks == [Fixture.appID])
        #expect(result.wellKnownFile != nil)
    }

    @Test func aRedirectAtWellKnownIsAnErrorNamingItsTarget() {
        let result = check(
            Fixture.redirect(to: "https://www.example.com/.well-known/apple-app-site-association"),
            Fixture.served(Fixture.validFile, at: .root))
        #expect(result.findings.summary == ["http.redirect/error/well-known", "location.root-only/error/domain"])
        #expect(
            result.findings[0].message.contains("to https://www.example.com/.well-known/apple-app-site-association"))
    }

    @Test func aRootRedirectBesideAGoodWellKnownFileIsOnlyInfo() {
        let result = check(
            Fixture.served(Fixture.validFile),
            Fixture.redirect(to: "/.well-known/apple-app-site-association", at: .root))
        #expect(result.findings.summary == ["http.redirect/info/root"])
        #expect(Verdict(findings: result.findings) == .pass)
    }

    @Test(arguments: [403, 404, 500, 204])
    func anyStatusButTwoHundredAtWellKnownFails(status: Int) {
        let result = check(Fixture.served("", status: status), Fixture.served("", at: .root, status: 404))
        #expect(
            result.findings.summary == [
                "http.status/error/well-known", "location.root-absent/info/root", "location.none/error/domain",
            ])
        #expect(result.findings[0].message.contains("HTTP \(status)"))
    }

    @Test func aValidFileOnlyAtTheRootIsRootOnly() {
        let result = check(
            Fixture.served("nope", status: 404), Fixture.served(Fixture.validFile, at: .root),
            expecting: [Fixture.appID])
        #expect(result.findings.summary == ["http.status/error/well-known", "location.root-only/error/domain"])
        #expect(result.appIDs == ServiceAppIDs())
    }

    @Test(arguments: [
        ("application/json", [String]()),
        ("application/json; charset=utf-8", []),
        ("Application/JSON ;charset=UTF-8", []),
        ("\t application/json\t ", []),
        ("application/json-seq", ["http.content-type/warning/well-known"]),
        ("application/ json", ["http.content-type/warning/well-known"]),
        ("ÀPPLICATION/JSON", ["http.content-type/warning/well-known"]),
        // The signed format's own type, for a file that is plain JSON: mislabelled.
        ("application/pkcs7-mime", ["http.content-type/warning/well-known"]),
        ("text/plain", ["http.content-type/warning/well-known"]),
        ("application/octet-stream", ["http.content-type/warning/well-known"]),
        ("text/html; charset=utf-8", ["http.content-type/warning/well-known"]),
    ])
    func contentTypes(contentType: String, expected: [String]) {
        let result = check(
            Fixture.served(Fixture.validFile, contentType: contentType), Fixture.served(Fixture.validFile, at: .root))
        #expect(result.findings.summary == expected)
    }

    @Test func aMissingContentTypeIsAWarning() {
        let result = check(
            Fixture.served(Fixture.validFile, contentType: nil), Fixture.served(Fixture.validFile, at: .root))
        #expect(result.findings.summary == ["http.content-type/warning/well-known"])
    }

    @Test func aFileOverOneHundredTwentyEightKilobytesIsTooLarge() {
        let padding = String(repeating: " ", count: AppleLimits.maximumFileBytes + 1 - Fixture.validFile.utf8.count)
        let result = check(Fixture.served(Fixture.validFile + padding), Fixture.served(Fixture.validFile, at: .root))
        #expect(result.findings.summary == ["body.too-large/error/well-known", "location.root-only/error/domain"])
        #expect(result.findings[0].message.contains("131073 bytes"))

        let exactlyAtTheLimit = check(
            Fixture.served(Fixture.validFile + padding.dropLast()), Fixture.served(Fixture.validFile, at: .root))
        #expect(exactlyAtTheLimit.findings.isEmpty)
    }

    @Test func aBodyCutAtTheReadCapIsTooLarge() {
        let result = check(
            Fixture.served(Array(repeating: 0x20, count: 4096), truncated: true),
            Fixture.served("", at: .root, status: 404))
        #expect(result.findings.summary == ["body.too-large/error/well-known", "location.root-absent/info/root"])
        #expect(result.findings[0].message.contains("more than 4096 bytes"))
    }

    @Test func anEmptyBodyIsReported() {
        let result = check(Fixture.served(""), Fixture.served(Fixture.validFile, at: .root))
        #expect(result.findings.summary == ["body.empty/error/well-known", "location.root-only/error/domain"])
    }

    @Test func invalidJSONNamesLineAndColumn() {
        let result = check(
            Fixture.served("{\n  \"applinks\": {\n    \"details\": [],\n  }\n}"),
            Fixture.served("", at: .root, status: 404))
        #expect(result.findings.summary == ["json.invalid/error/well-known", "location.root-absent/info/root"])
        #expect(result.findings[0].message.contains("line 4, column 3"))
        #expect(result.findings[0].message.contains("trailing comma"))
    }

    @Test func aTopLevelArrayIsNotAnObject() {
        let result = check(Fixture.served("[]"), Fixture.served("", at: .root, status: 404))
        #expect(result.findings.summary == ["json.not-object/error/well-known", "location.root-absent/info/root"])
    }

    /// A file of other services (Password AutoFill, passkeys) is what Apple asks of a domain that
    /// serves only those: a note when nothing expects universal links of it, an error when an app
    /// ID, a + URL or an applinks entitlement does (issue 37).
    @Test func aFileWithoutApplinksOpensNoLinks() {
        let file = Fixture.served(#"{"webcredentials":{"apps":["ABCDE12346.com.example.app"]}}"#)
        let root = Fixture.served("", at: .root, status: 404)
        let expected = check(file, root, expecting: [Fixture.appID])
        #expect(
            expected.findings.summary.prefix(1) == ["applinks.missing/error/well-known"], "\(expected.findings.summary)"
        )
        #expect(expected.findings[0].message.contains("webcredentials"))
        #expect(expected.appIDs.webcredentials == [Fixture.appID])
        let servicesOnly = check(file, root)
        #expect(
            servicesOnly.findings.summary == ["applinks.missing/info/well-known", "location.root-absent/info/root"])
        // A file of no service at all is never valid.
        #expect(check(Fixture.served("{}"), root).findings.summary.first == "applinks.missing/error/well-known")
    }

    @Test(arguments: [
        ("TEAM_ID.com.example.app", "placeholder"),
        ("<TeamID>.com.example.app", "placeholder"),
        ("YOUR_TEAM_ID.com.example.app", "placeholder"),
        ("ABCDE12345.com.example.app", "sample prefix"),
        ("12345ABCDE.com.example.app", "sample prefix"),
        ("9JA89QQLNQ.com.example.app", "sample prefix"),
        ("com.example.app", "not a 10-character Team ID"),
        ("ABCD1234.com.apple.wwdc", "not a 10-character Team ID"),
        ("abcde12346.com.example.app", "must be upper case"),
        ("ABCDE12346", "has no prefix"),
        ("ABCDE12346.", "has no bundle ID"),
        ("ABCDE12346.com.example app", "may hold only"),
        ("ABCDE12346.com..app", "empty component"),
    ])
    func malformedAppIDs(appID: String, reason: String) {
        let file = #"{"applinks":{"details":[{"appIDs":["\#(appID)"],"components":[{"/":"*"}]}]}}"#
        let result = check(Fixture.served(file), Fixture.served(file, at: .root))
        #expect(result.findings.summary == ["appid.malformed/error/well-known"])
        #expect(result.findings[0].message.contains(reason), "\(result.findings[0].message)")
    }

    @Test func appIDsComeFromEveryServiceAndBothDetailForms() {
        let modern =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12346.a.one","ABCDE12346.a.two","ABCDE12346.a.one"],"components":[{}]}]},"webcredentials":{"apps":["ABCDE12346.a.web"]},"appclips":{"apps":["ABCDE12346.a.one.Clip"]},"activitycontinuation":{"apps":["ABCDE12346.a.ac"]}}"#
        let result = check(Fixture.served(modern), Fixture.served(modern, at: .root))
        #expect(result.findings.isEmpty)
        #expect(
            result.appIDs
                == ServiceAppIDs(
                    applinks: ["ABCDE12346.a.one", "ABCDE12346.a.two"], webcredentials: ["ABCDE12346.a.web"],
                    appclips: ["ABCDE12346.a.one.Clip"], activitycontinuation: ["ABCDE12346.a.ac"]))
        let legacy = #"{"applinks":{"apps":[],"details":{"ABCDE12346.a.old":{"paths":["*"]}}}}"#
        let legacyResult = check(Fixture.served(legacy), Fixture.served(legacy, at: .root))
        #expect(legacyResult.appIDs.applinks == ["ABCDE12346.a.old"])
        #expect(legacyResult.findings.summary == ["details.dictionary/warning/well-known"])
    }

    @Test func anExpectedAppIDMissingFromTheFileIsAnError() {
        let result = check(
            Fixture.served(Fixture.validFile), Fixture.served(Fixture.validFile, at: .root),
            expecting: [Fixture.appID, "FGHIJ67890.com.example.other", "ABCDE12346.COM.EXAMPLE.APP"])
        #expect(result.findings.summary == ["appid.missing/error/well-known", "appid.missing/error/well-known"])
        #expect(result.findings[0].message.contains("FGHIJ67890.com.example.other"))
        #expect(result.findings[1].message.contains("differs only in case"))
    }

    @Test func aRootCopyWithTheSameBytesDoesNotRepeatContentFindingsButKeepsItsOwnHeaders() {
        let broken = "{\"applinks\": {},}"
        let identical = check(Fixture.served(broken), Fixture.served(broken, at: .root, contentType: "text/plain"))
        #expect(identical.findings.summary == ["json.invalid/error/well-known", "http.content-type/warning/root"])
        let different = check(Fixture.served(broken), Fixture.served(broken + " ", at: .root))
        #expect(different.findings.summary == ["json.invalid/error/well-known", "json.invalid/warning/root"])
    }

    /// The root's body checks are taken over from `.well-known` when the bytes are the same:
    /// what that gives must be what checking the root's body again gives.
    @Test(arguments: [
        Fixture.validFile, "{\"applinks\": {},}", "", "[1]",
        "{\"applinks\":{\"details\":[{\"appID\":\"bad\",\"paths\":[\"*\"]}]}}",
        ##"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/x/*","#":"$(undefined)"}]}]},"a":1,"a":2}"##,
    ])
    func aBodyTakenOverFromTheOtherLocationIsJudgedAsIfCheckedAgain(body: String) throws {
        let wellKnown = Fixture.served(body)
        let root = Fixture.served(body, at: .root, contentType: "text/plain")
        #expect(LocationChecks.sameBytes(root, as: wellKnown))
        let primary = LocationChecks.assess(wellKnown)
        let again = LocationChecks.assess(root)
        let takenOver = LocationChecks.assess(root, sameBody: primary)
        #expect(takenOver.findings == again.findings)
        #expect(takenOver.findings.allSatisfy { $0.location == .root })
        #expect(takenOver.file == again.file)
        #expect(takenOver.content?.appIDs == again.content?.appIDs)
        #expect(!takenOver.findings.isEmpty)  // the content type, at least: the test compares something
        #expect(!LocationChecks.sameBytes(Fixture.served(body + " ", at: .root), as: wellKnown))
        #expect(!LocationChecks.sameBytes(Fixture.served(body, at: .root, status: 404), as: wellKnown))
        #expect(!LocationChecks.sameBytes(Fixture.served(Array(body.utf8), at: .root, truncated: true), as: wellKnown))
    }

    @Test func aBrokenRootCopyBesideAGoodWellKnownFileIsAtMostAWarning() {
        let result = check(
            Fixture.served(Fixture.validFile), Fixture.served("{,}", at: .root, contentType: "text/html"))
        #expect(result.findings.summary == ["http.content-type/warning/root", "json.invalid/warning/root"])
        #expect(Verdict(findings: result.findings) == .warn)
    }

    @Test(arguments: [
        (TransferErrorKind.dns, "net.dns"), (.connect, "net.connect"), (.timeout, "net.timeout"),
        (.tlsCertificate, "tls.certificate"), (.tlsHandshake, "tls.handshake"), (.other, "net.other"),
        (.local, "audit.unchecked"),
    ])
    func transferFailuresMapToTheirCodes(kind: TransferErrorKind, code: String) {
        let result = check(Fixture.failed(kind), Fixture.failed(.skipped, at: .root))
        #expect(result.findings.summary == ["\(code)/error/well-known"])
        #expect(result.findings[0].message == "curl says no")
    }

    @Test func aTwoHundredThatTimesOutMidBodyIsATimeoutNotAMissingFile() {
        var trickle = Fixture.served("{\"applinks\"")
        trickle.record.error = TransferError(
            kind: .timeout, curlCode: 28, message: "Operation timed out after 5000 milliseconds")
        let result = check(trickle, Fixture.failed(.skipped, at: .root))
        #expect(result.findings.summary == ["net.timeout/error/well-known"])
    }

    @Test func verdictsFollowTheWorstSeverity() {
        let info = Finding(code: .aasa(.httpRedirect), severity: .info, location: .root, message: "")
        let warning = Finding(code: .aasa(.httpContentType), severity: .warning, location: .wellKnown, message: "")
        let error = Finding(code: .aasa(.jsonInvalid), severity: .error, location: .wellKnown, message: "")
        #expect(Verdict(findings: []) == .pass)
        #expect(Verdict(findings: [info]) == .pass)
        #expect(Verdict(findings: [info, warning]) == .warn)
        #expect(Verdict(findings: [warning, error, info]) == .fail)
        #expect(Verdict.warn.fails(at: .warning) && !Verdict.warn.fails(at: .error))
        #expect(Verdict.fail.fails(at: .error) && !Verdict.pass.fails(at: .warning))
    }
}
