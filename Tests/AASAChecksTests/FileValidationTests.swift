import AASAChecks
import AASAModel
import Testing

/// One case (or more) per finding code of the whole-file validation.
struct ValidationCase: CustomTestStringConvertible, Sendable {
    let file: String
    let expected: [String]
    let detail: String
    var minimumIOS: String?
    var testDescription: String { expected.joined(separator: ", ") + (minimumIOS.map { " (min iOS \($0))" } ?? "") }
}

@Suite struct FileValidationTests {
    static let id = "ABCDE12346.com.example.app"
    /// An applinks section with one entry: `entry` is the inside of the entry's object.
    static func entry(_ entry: String, applinks extra: String = "", top: String = "") -> String {
        #"{"applinks":{\#(extra)"details":[{\#(entry)}]}\#(top)}"#
    }
    static let good = #""appIDs":["\#(id)"],"components":[{"/":"/buy/*"}]"#

    // A table: one case a line, however long (the formatter leaves it alone).
    // swift-format-ignore
    static let cases: [ValidationCase] = [
        ValidationCase(file: entry(good), expected: [], detail: ""),
        ValidationCase(file: entry(good, top: #","applink":{}"#), expected: ["file.unknown-key/warning"], detail: "did you mean \"applinks\""),
        ValidationCase(file: entry(good, top: #","webcredentials":["\#(id)"]"#), expected: ["service.invalid/error"], detail: "webcredentials is an array"),
        ValidationCase(file: entry(good, top: #","webcredentials":{"apps":"\#(id)"}"#), expected: ["service.invalid/error"], detail: "webcredentials.apps is a string"),
        ValidationCase(file: entry(good, top: #","appclips":{"apps":[7]}"#), expected: ["service.invalid/error"], detail: "appclips.apps[0] is a number"),
        ValidationCase(file: entry(good, top: #","appclips":{"apps":["\#(id)"]}"#), expected: ["appclip.suffix/info"], detail: "does not end in .Clip"),
        ValidationCase(file: entry(good, top: #","appclips":{"apps":["\#(id).Clip"]}"#), expected: [], detail: ""),
        ValidationCase(file: entry(good, applinks: #""detials":[],"#), expected: ["applinks.unknown-key/warning"], detail: "\"detials\""),
        ValidationCase(file: entry(good, applinks: #""apps":["\#(id)"],"#), expected: ["applinks.legacy-apps/warning"], detail: "must be []"),
        ValidationCase(file: entry(good, applinks: #""apps":{},"#), expected: ["value.type/error"], detail: "applinks.apps is an object"),
        ValidationCase(file: #"{"applinks":{"apps":[]}}"#, expected: ["details.missing/error"], detail: "no details"),
        ValidationCase(file: #"{"applinks":{"details":[]}}"#, expected: ["details.empty/error"], detail: "is empty"),
        ValidationCase(file: #"{"applinks":{"details":"\#(id)"}}"#, expected: ["details.invalid/error"], detail: "is a string"),
        ValidationCase(file: #"{"applinks":{"details":{"\#(id)":{"paths":["*"]}}}}"#, expected: ["details.dictionary/warning"], detail: "iOS 9 era dictionary"),
        ValidationCase(file: #"{"applinks":{"details":{"\#(id)":{"paths":[]}}}}"#, expected: ["details.dictionary/warning", "entry.no-rules/error"], detail: "has no paths"),
        ValidationCase(file: #"{"applinks":{"details":["\#(id)"]}}"#, expected: ["entry.invalid/error"], detail: "applinks.details[0] is a string"),
        ValidationCase(file: entry(#""components":[{"/":"*"}]"#), expected: ["entry.no-app/error"], detail: "no appID or appIDs"),
        ValidationCase(file: entry(#""appIDs":[],"components":[{"/":"*"}]"#), expected: ["entry.no-app/error"], detail: "its appIDs is empty"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"]"#), expected: ["entry.no-rules/error"], detail: "no rules"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[]"#), expected: ["entry.no-rules/error"], detail: "no rules"),
        ValidationCase(file: entry(#""appId":"\#(id)","paths":["*"]"#), expected: ["entry.unknown-key/warning", "entry.no-app/error"], detail: "did you mean \"appID\""),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"path":["*"]"#), expected: ["entry.unknown-key/warning", "entry.no-rules/error"], detail: "did you mean \"paths\""),
        ValidationCase(file: entry(#""appID":"\#(id)","appIDs":["\#(id)"],"components":[{}]"#), expected: ["entry.mixed-app-keys/warning"], detail: "both appID and appIDs"),
        ValidationCase(file: entry(#""appID":"\#(id)","appIDs":["\#(id)"],"paths":["*"],"components":[{}]"#), expected: ["entry.mixed-app-keys/warning", "entry.mixed-formats/warning"], detail: "say --min-ios"),
        ValidationCase(file: entry(#""appID":"\#(id)","paths":["*"],"components":[{}]"#, applinks: #""apps":[],"#), expected: ["entry.mixed-formats/info"], detail: "as an app supporting iOS 12 needs", minimumIOS: "12"),
        ValidationCase(file: entry(#""appID":"\#(id)","paths":["/a/*"]"#), expected: ["applinks.legacy-apps/error"], detail: "required it present and empty", minimumIOS: "12"),
        ValidationCase(file: entry(#""appID":"\#(id)","paths":["/a/*"]"#), expected: [], detail: "", minimumIOS: "13"),
        ValidationCase(file: entry(#""appID":"\#(id)","paths":["*"],"components":[{}]"#), expected: ["entry.mixed-formats/warning"], detail: "only components are read", minimumIOS: "15"),
        ValidationCase(file: entry(good), expected: ["feature.min-ios/warning"], detail: "needs iOS 13", minimumIOS: "12.4"),
        ValidationCase(file: entry(good, applinks: #""defaults":{"caseSensitive":false},"#), expected: ["feature.min-ios/warning"], detail: "applinks.defaults needs iOS 14", minimumIOS: "13.5"),
        ValidationCase(file: entry(good, applinks: #""substitutionVariables":{"s":["a"]},"#), expected: ["feature.min-ios/warning", "variable.unused/info"], detail: "needs iOS 13.5", minimumIOS: "13.4"),
        ValidationCase(file: entry(#""appIDs":"\#(id)","components":[{}]"#), expected: ["value.type/error", "entry.no-app/error"], detail: "appIDs is a string, not an array"),
        ValidationCase(file: entry(#""appID":["\#(id)"],"paths":["*"]"#), expected: ["value.type/error", "entry.no-app/error"], detail: "appID is an array, not a string"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":{"/":"*"}"#), expected: ["value.type/error", "entry.no-rules/error"], detail: "components is an object"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":["/buy/*"]"#), expected: ["value.type/error"], detail: "components[0] is a string"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":["/a"]}]"#), expected: ["value.type/error"], detail: "not a pattern string"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"exclude":"true"}]"#), expected: ["value.type/error"], detail: "not true or false"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"?":7}]"#), expected: ["value.type/error"], detail: "or a dictionary of them"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"path":"/a"}]"#), expected: ["component.unknown-key/error"], detail: "did you mean \"/\""),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"path":"/buy/*"}]"#), expected: ["component.unknown-key/error"], detail: "so it matches every URL: every link to this site opens the app"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"path":"/a","exclude":true}]"#), expected: ["component.unknown-key/warning", "entry.no-rules/error"], detail: "matches more than intended"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":"/a","casesensitive":false}]"#), expected: ["component.unknown-key/warning"], detail: "did you mean \"caseSensitive\""),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":"/s","?":{"q":"?*","debug":false}}]"#), expected: ["component.query-disabled/warning"], detail: "ignores the whole dictionary"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":"*"},{"/":"/x","exclude":true}]"#), expected: ["rule.unreachable/warning"], detail: "this exclusion never applies"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"paths":["*","NOT /x/*"]"#), expected: ["rule.unreachable/warning"], detail: "applinks.details[0].paths[0] matches every URL first"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":"/a"},{"/":"/a"}]"#), expected: ["rule.unreachable/info"], detail: "repeats an earlier rule"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":"/a/*","?":{"x":"1"}},{"/":"/b"}]"#), expected: [], detail: ""),
        ValidationCase(file: #"{"applinks":{"details":[{"appIDs":["\#(id)"],"components":[{"/":"*"}]},{"appIDs":["\#(id)"],"components":[{"/":"/x"}]}]}}"#, expected: ["entry.unreachable/warning"], detail: "already sends them every URL"),
        ValidationCase(file: #"{"applinks":{"details":[{"appIDs":["\#(id)"],"components":[{"/":"*"}]},{"appIDs":["ABCDE12346.com.example.beta"],"components":[{"/":"*"}]}]}}"#, expected: [], detail: ""),
        ValidationCase(file: #"{"applinks":{"defaults":{"exclude":true},"details":[{"appIDs":["\#(id)"],"components":[{}]},{"appIDs":["ABCDE12346.b.c"],"components":[{}]}]}}"#, expected: ["entry.no-rules/error", "entry.no-rules/error", "entry.unreachable/warning"], detail: "excludes every URL first"),
        ValidationCase(file: entry(#""appID":"\#(id)","paths":["https://example.com/a/*"]"#), expected: ["paths.url/error"], detail: "is a full URL"),
        ValidationCase(file: entry(#""appID":"\#(id)","paths":[5]"#), expected: ["value.type/error"], detail: "paths[0] is a number"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":"/\#(String(repeating: "a", count: 5000))"}]"#), expected: ["pattern.too-long/error"], detail: "5001 characters"),
        ValidationCase(file: entry(good + #","defaults":{"percentencoded":false}"#), expected: ["defaults.unknown-key/warning"], detail: "did you mean \"percentEncoded\""),
        ValidationCase(file: entry(good + #","defaults":[]"#), expected: ["value.type/error"], detail: "defaults is an array"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":"/$(locale)/*"}]"#), expected: ["variable.undefined/error"], detail: "uses $(locale)"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":"/$(s)/*"}]"#, applinks: #""substitutionVariables":{"s":[]},"#), expected: ["variable.empty/warning"], detail: "has no values"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":"/$(s)/*"}]"#, applinks: #""substitutionVariables":{"s":"a"},"#), expected: ["variable.invalid/error", "variable.undefined/error"], detail: "not an array of strings"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":"/$(s)/*"}]"#, applinks: #""substitutionVariables":{"s":["$(digit)x"]},"#), expected: ["variable.invalid/error"], detail: "refers to another variable"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":"/$(region)$(lang)/$(region)$(lang)/$(region)$(lang)/$(region)$(lang)/$(region)$(lang)/$(region)$(lang)/$(region)$(lang)/$(region)$(lang)/$(region)$(lang)/$(region)$(lang)/$(region)$(lang)/$(region)$(lang)/$(region)$(lang)/$(region)$(lang)/$(region)$(lang)/*"}]"#), expected: ["pattern.too-long/error"], detail: "matcher states"),
        ValidationCase(file: entry(good, applinks: #""substitutionVariables":{"a(b":["x"]},"#), expected: ["variable.invalid/error", "variable.unused/info"], detail: "may not be empty or hold"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":"/$(digit)"}]"#, applinks: #""substitutionVariables":{"digit":["x"]},"#), expected: ["variable.shadows-builtin/warning"], detail: "reuses the name of the built-in $(digit)"),
        ValidationCase(file: entry(good, applinks: #""substitutionVariables":{"unused":["x"]},"#), expected: ["variable.unused/info"], detail: "is never used"),
        ValidationCase(file: entry(#""appIDs":["\#(id)"],"components":[{"/":"/$(used)"}]"#, applinks: #""substitutionVariables":{"used":["x"]},"#), expected: [], detail: ""),
    ]

    @Test(arguments: cases)
    func validation(_ testCase: ValidationCase) {
        let options = ValidationOptions(minimumIOS: testCase.minimumIOS.flatMap(IOSVersion.init))
        let result = FileLint.lint(Array(testCase.file.utf8), size: testCase.file.utf8.count, options: options)
        let summary = result.findings.map { "\($0.code.rawValue)/\($0.severity.rawValue)" }
        #expect(summary == testCase.expected, "\(result.findings.map(\.message))")
        if !testCase.detail.isEmpty {
            #expect(
                result.findings.contains { $0.message.contains(testCase.detail) }, "\(result.findings.map(\.message))")
        }
        #expect(result.findings.allSatisfy { $0.location == .file })
    }

    @Test(arguments: [
        ("\u{FEFF}{\"applinks\":{}}", "byte-order mark"),
        ("---\nlayout: null\n---\n{\"applinks\":{}}", "front matter"),
        ("{\n  // links\n  \"applinks\": {}\n}", "a comment"),
        ("{\"applinks\": {\"details\": [],}}", "a trailing comma"),
        ("{\"applinks\": {\u{201C}details\u{201D}: []}}", "typographic quotes"),
        ("{\"applinks\" {}}", "expected ':' after the member name at line 1, column 13"),
    ])
    func namesUnusableBytesForWhatTheyAre(file: String, cause: String) {
        let result = FileLint.lint(Array(file.utf8), size: file.utf8.count)
        #expect(result.findings.map(\.code) == [.aasa(.jsonInvalid)])
        #expect(result.findings.first?.message.contains(cause) == true, "\(result.findings.first?.message ?? "")")
        #expect(result.findings.first?.message.contains("line ") == true)
    }

    /// An entry of exclusions only opens no URL, as `match` knows: lint says so (issue 37); one
    /// with an exclusion before a rule that opens is fine.
    @Test func anEntryOfExclusionsOnlyOpensNothing() {
        func codes(_ paths: String) -> [FindingCode] {
            let file = #"{"applinks":{"details":[{"appIDs":["QX7TM4K2RB.com.example.app"],"paths":[\#(paths)]}]}}"#
            return FileLint.lint(Array(file.utf8), size: file.utf8.count).findings.map(\.code)
        }
        #expect(codes(#""NOT /auth/callback/*""#) == [.aasa(.entryNoRules)])
        #expect(!codes(#""NOT /auth/callback/*", "/shop/*""#).contains(.aasa(.entryNoRules)))
    }

    /// With --min-ios 12, what each version reads (issue 37): the legacy paths entry after a
    /// components entry is the one iOS 12 reads, not unreachable; a legacy entry naming its app
    /// only in appIDs names none there.
    @Test func minIOS12ReasonsAsIOS12Reads() {
        func codes(_ file: String, minimumIOS: String?) -> [FindingCode] {
            FileLint.lint(
                Array(file.utf8), size: file.utf8.count,
                options: ValidationOptions(minimumIOS: minimumIOS.flatMap(IOSVersion.init))
            ).findings.map(\.code)
        }
        let both =
            #"{"applinks":{"apps":[],"details":[{"appIDs":["QX7TM4K2RB.com.example.app"],"components":[{"/":"*"}]},{"appID":"QX7TM4K2RB.com.example.app","paths":["*"]}]}}"#
        #expect(codes(both, minimumIOS: nil).contains(.aasa(.entryUnreachable)))
        #expect(!codes(both, minimumIOS: "12").contains(.aasa(.entryUnreachable)))
        let appIDsOnly =
            #"{"applinks":{"apps":[],"details":[{"appIDs":["QX7TM4K2RB.com.example.app"],"paths":["*"]}]}}"#
        #expect(codes(appIDsOnly, minimumIOS: "12") == [.aasa(.entryNoApp)])
        #expect(codes(appIDsOnly, minimumIOS: nil).isEmpty)
        #expect(codes(appIDsOnly, minimumIOS: "13").isEmpty)
    }

    @Test func lintJudgesSizeAndEmptinessToo() {
        #expect(FileLint.lint([], size: 0).findings.map(\.code) == [.aasa(.bodyEmpty)])
        let big = FileLint.lint(Array(repeating: 0x20, count: 10), size: 200_000)
        #expect(big.findings.map(\.code) == [.aasa(.bodyTooLarge)])
        #expect(big.findings.first?.message.contains("200000 bytes") == true)
    }

    @Test(arguments: [("12", "12"), ("13.5", "13.5"), ("14.0.1", "14.0.1")])
    func readsIOSVersions(text: String, description: String) {
        #expect(IOSVersion(text)?.description == description)
    }

    @Test func comparesIOSVersions() {
        #expect(IOSVersion("13")! < IOSVersion("13.5")!)
        #expect(IOSVersion("13.5")! < IOSVersion("14")!)
        #expect(IOSVersion("14")! == IOSVersion("14.0")!)
        #expect(IOSVersion("12.4")! < IOSVersion("13")!)
        for bad in ["", "a", "13.", "1.2.3.4", "-1"] { #expect(IOSVersion(bad) == nil) }
    }
}

@Suite struct ExpectationTests {
    static let file =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.app"],"components":[{"/":"/help/*","exclude":true},{"/":"/buy/*"}]},{"appIDs":["ABCDE12346.com.example.other"],"components":[{"/":"/other/*"}]}]}}"#

    func check(_ expectations: [(String, Bool)], appIDs: [String] = ["ABCDE12346.com.example.app"]) -> [Finding] {
        let target = DomainTarget(
            domain: "example.com", expectedAppIDs: appIDs, inputLine: 1,
            expectations: expectations.enumerated().map { URLExpectation(url: $1.0, opensApp: $1.1, inputLine: $0 + 2) }
        )
        let result = DomainChecks.assess(
            target: target, wellKnown: Fixture.served(Self.file), root: Fixture.served(Self.file, at: .root))
        return result.findings
    }

    @Test func metExpectationsAddNothing() {
        #expect(
            check([
                ("https://example.com/buy/1", true), ("https://example.com/help/faq", false),
                ("https://example.com/about", false),
            ]).isEmpty)
    }

    @Test func aURLThatMustOpenTheAppButIsExcluded() {
        let findings = check([("https://example.com/help/faq", true)])
        #expect(findings.map(\.code) == [.aasa(.matchExpectedApp)])
        #expect(
            findings[0].message
                == "https://example.com/help/faq (line 2) must open the app but stays in the browser: excluded by applinks.details[0].components[0]."
        )
    }

    @Test func aURLThatMustOpenTheAppButMatchesNothing() {
        #expect(
            check([("https://example.com/nothing", true)]).map(\.message) == [
                "https://example.com/nothing (line 2) must open the app but no rule matches it."
            ])
    }

    @Test func aURLThatOpensAnotherApp() {
        let findings = check([("https://example.com/other/1", true)])
        #expect(findings.map(\.code) == [.aasa(.matchExpectedApp)])
        #expect(findings[0].message.contains("opens ABCDE12346.com.example.other, not ABCDE12346.com.example.app"))
        #expect(check([("https://example.com/other/1", true)], appIDs: []).isEmpty)
    }

    @Test func aURLThatMustStayInTheBrowserButOpensTheApp() {
        let findings = check([("https://example.com/buy/9", false)])
        #expect(findings.map(\.code) == [.aasa(.matchExpectedBrowser)])
        #expect(
            findings[0].message
                == "https://example.com/buy/9 (line 2) must stay in the browser but opens ABCDE12346.com.example.app (applinks.details[0].components[1])."
        )
        #expect(findings[0].severity == .error)
    }
}
