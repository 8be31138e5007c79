import AASAChecks
import AASAJSON
import AASAMatching
import AASAModel
import Testing

/// Android 15's dynamic rules: read to Android's documented shape, decided in order.
@Suite struct DynamicAppLinkRulesTests {
    static func file(_ components: String) -> [UInt8] {
        Array(
            Fixture.assetLinks.replacingOccurrences(
                of: "\"target\"",
                with:
                    "\"relation_extensions\": {\"delegate_permission/common.handle_all_urls\": {\"dynamic_app_link_components\": \(components)}}, \"target\""
            ).utf8)
    }

    static func rules(_ components: String) -> (DynamicAppLinkRules?, [StatementList.Problem]) {
        let list = StatementList.parse(file(components))
        return (list.statements.first?.dynamicRules, list.problems)
    }

    @Test func theFirstMatchingComponentDecides() throws {
        let (rules, problems) = Self.rules(
            ##"[{"/": "/shop/admin/*", "exclude": true}, {"/": "/shop/*", "?": {"ref": "?*"}}, {"#": "app-*", "comment": "fragments"}]"##
        )
        #expect(problems.isEmpty)
        let decided = try #require(rules)
        func decide(_ url: String) -> String {
            switch decided.decide(try! MatchURL.parse(url).get()) {
            case .app(let component): "app \(component.index)"
            case .excluded(let component): "excluded \(component.index)"
            case .none: "none"
            case .undecided: "undecided"
            }
        }
        #expect(decide("https://example.com/shop/admin/users") == "excluded 0")
        #expect(decide("https://example.com/shop/shoes?ref=mail") == "app 1")
        #expect(decide("https://example.com/shop/shoes?ref=") == "none", "?* needs one character")
        #expect(decide("https://example.com/shop/shoes") == "none", "every ? parameter must be present")
        #expect(decide("https://example.com/blog#app-open") == "app 2")
        #expect(decide("https://example.com/blog") == "none")
    }

    /// 300 query parameters against rules of many parameters: every pattern compiled once per
    /// component and every step charged to the budget; a spent budget is undecided, never "stays
    /// in the browser" (issue 36, item 9).
    @Test func aSpentBudgetIsUndecidedAndEveryStepIsCharged() throws {
        let keys = (0..<50).map { "\"k\($0)\": \"*v*\"" }.joined(separator: ", ")
        let (rules, _) = Self.rules("[" + (0..<100).map { _ in "{\"?\": {\(keys)}}" }.joined(separator: ", ") + "]")
        let decided = try #require(rules)
        let query = (0..<300).map { "k\($0 % 50)=\($0)value" }.joined(separator: "&")
        let url = try MatchURL.parse("https://example.com/shop?\(query)").get()
        #expect(decided.decide(url) != .undecided, "the standard budget decides it")
        #expect(decided.decide(url, budget: 10_000) == .undecided)
    }

    @Test func whatMakesAndroidDropEveryRuleIsAnError() {
        for components in [
            #"{"/": "/shop/*"}"#, #"["/shop/*"]"#, #"[{"/": 7}]"#, #"[{"?": "ref=1"}]"#, #"[{"?": {"ref": 1}}]"#,
            #"[{"/": "/a", "exclude": "yes"}]"#, ##"[{"#": "x", "comment": 3}]"##,
        ] {
            let (rules, problems) = Self.rules(components)
            #expect(rules == nil, "\(components)")
            #expect(problems.map(\.effect) == [.dropsDynamicRules], "\(components): \(problems.map(\.message))")
            #expect(problems.first?.message.contains("Android discards every dynamic rule") == true)
            #expect(problems.first?.place.contains("/0/relation_extensions/") == true, "\(problems.first?.place ?? "")")
        }
        // The statement itself still counts: Google keeps it.
        #expect(!StatementList.parse(Self.file(#"{"/": 1}"#)).googleReportsError)
    }

    @Test func unknownKeysAreWarningsThatSayWhatTheyCost() {
        let (rules, problems) = Self.rules(#"[{"/": "/shop/*", "query": "x"}]"#)
        #expect(rules?.components.count == 1)
        #expect(problems.map(\.severityCase) == [.dynamicRulesNotice])
        #expect(problems[0].message.contains("the key is \"?\""))
        #expect(problems[0].message.contains("matches more than it seems"))
        // Nothing left to match on: every URL goes to the app, an error.
        let (_, everything) = Self.rules(#"[{"path": "/shop/*"}]"#)
        #expect(everything.map(\.severityCase) == [.dynamicRulesNotice, nil])
        #expect(everything[1].message.contains("matches every URL"))
        let lint = FileLint.lintAssetLinks(Self.file(#"[{"path": "/shop/*"}]"#), size: 1, expected: [])
        #expect(lint.verdict == .fail)
    }

    @Test func blogPostShapesAreNamed() {
        let includeShape = Array(
            Fixture.assetLinks.replacingOccurrences(
                of: "\"target\"", with: "\"include\": {\"paths\": [\"/shop/*\"]}, \"target\""
            ).utf8)
        let list = StatementList.parse(includeShape)
        #expect(list.statements.isEmpty, "Google skips the statement, and the app with it")
        #expect(list.problems.map(\.code) == [.assetLinks(.dynamicRules)])
        #expect(list.problems[0].message.contains("dynamic_app_link_components"))
        #expect(list.problems[0].message.contains("com.example.app's declaration"))
        let excludeShape = Array(
            Fixture.assetLinks.replacingOccurrences(
                of: "\"target\"", with: "\"exclude\": {\"paths\": [\"/admin/*\"]}, \"target\""
            ).utf8)
        let kept = StatementList.parse(excludeShape)
        #expect(kept.statements.count == 1 && !kept.googleReportsError)
        #expect(kept.problems.map(\.severityCase) == [.dynamicRulesNotice])
    }

    @Test func rulesThatTheManifestNeverReachesAreFlagged() {
        let rules = DynamicAppLinkRules(components: [
            .init(index: 0, path: "/shop/sale/*", exclude: false), .init(index: 1, path: "/admin/*", exclude: false),
            .init(index: 2, path: "/admin/*", exclude: true), .init(index: 3, path: "/*", exclude: false),
            .init(index: 4, fragment: "x", exclude: false),
        ])
        let scope = AndroidManifest.HostScope(
            host: "example.com", paths: [.prefix("/shop"), .exact("/help")], file: "AndroidManifest.xml", line: 12)
        let findings = AndroidManifestScope.findings(rules: rules, package: "com.example.app", scope: scope)
        #expect(findings.map(\.code) == [.assetLinks(.manifestScope)])
        #expect(findings[0].message.contains("rule 1") && findings[0].message.contains("AndroidManifest.xml (line 12)"))
        let everyPath = AndroidManifest.HostScope(host: "example.com", paths: nil)
        #expect(AndroidManifestScope.findings(rules: rules, package: "com.example.app", scope: everyPath).isEmpty)
    }

    @Test func theLocatorPointsAtTheValue() {
        let text = "[\n  {\"a\": 1,\n   \"b\": [true, {\"c\": \"x\"}]}\n]"
        let position = JSONLocator.locate([.index(0), .key("b"), .index(1), .key("c")], in: Array(text.utf8))
        #expect(position?.line == 3 && position?.column == 22, "\(String(describing: position))")
        #expect(JSONLocator.locate([.index(1)], in: Array(text.utf8)) == nil)
        #expect(JSONLocator.pointer([.index(0), .key("a/b~c")]) == "/0/a~1b~0c")
    }
}
