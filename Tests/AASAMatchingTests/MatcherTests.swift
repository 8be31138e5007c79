import AASAJSON
import AASAMatching
import Foundation
import Testing

/// A case: a file (its applinks section), a URL on acme.example, and what must happen.
struct MatchCase: CustomTestStringConvertible, Sendable {
    let section: String
    let applinks: String
    let url: String
    /// "none", "excluded", or the app ID that opens it.
    let expected: String
    let testDescription: String

    init(_ section: String, _ applinks: String, _ url: String, _ expected: String) {
        self.section = section
        self.applinks = applinks
        self.url = url
        self.expected = expected
        testDescription = "§\(section) \(url) → \(expected)"
    }
}

enum Decide {
    static let app = "TEAM123456.com.acme.app"

    /// `rules` as the components of one entry for `app`.
    static func components(_ rules: String, extra: String = "") -> String {
        #"{"details":[{"appIDs":["\#(app)"],"components":\#(rules)\#(extra.isEmpty ? "" : "," + extra)}]}"#
    }

    static func outcome(applinks: String, url: String, domain: String = "acme.example") throws -> String {
        let file = try #require(try JSONParser.parse(#"{"applinks":\#(applinks)}"#).objectValue)
        let decision = try Matcher(file: file, domain: domain).decide(url).get()
        switch decision.outcome {
        case .app: return decision.appIDs.first ?? "?"
        case .excluded: return "excluded"
        case .none: return "none"
        case .undecided: return "undecided"
        }
    }
}

@Suite struct MatcherTests {
    static let a = Decide.app
    /// Defaults at the top (case-insensitive) and in the entry (case-sensitive), one component
    /// overriding them again.
    static let nestedDefaults = Decide.components(
        #"[{"/":"/Promo/*"},{"/":"/Deals/*","caseSensitive":false}]"#,
        extra: #""defaults":{"caseSensitive":true}"#
    ).replacingOccurrences(of: #"{"details""#, with: #"{"defaults":{"caseSensitive":false},"details""#)

    static let cases: [MatchCase] = [
        // §1 inputs: only applinks counts; only the serving host; host case ignored.
        MatchCase("1", Decide.components(#"[{"/":"*"}]"#), "https://acme.example/x", a),
        MatchCase("1", Decide.components(#"[{"/":"*"}]"#), "https://other.example/x", "none"),
        MatchCase("1", Decide.components(#"[{"/":"*"}]"#), "https://ACME.Example/x", a),
        MatchCase("1", #"{"details":[{"components":[{"/":"*"}]}]}"#, "https://acme.example/x", "none"),
        // §3 first match wins, in order; exclusion ends the search, across entries too.
        MatchCase(
            "3", Decide.components(#"[{"/":"/a/*","exclude":true},{"/":"*"}]"#), "https://acme.example/a/b", "excluded"),
        MatchCase("3", Decide.components(#"[{"/":"*"},{"/":"/a/*","exclude":true}]"#), "https://acme.example/a/b", a),
        MatchCase(
            "3", #"{"details":[{"appID":"T.x","paths":["NOT /a/*"]},{"appIDs":["\#(a)"],"components":[{"/":"*"}]}]}"#,
            "https://acme.example/a/1", "excluded"),
        MatchCase(
            "3", #"{"details":[{"appID":"T.x","paths":["NOT /a/*"]},{"appIDs":["\#(a)"],"components":[{"/":"*"}]}]}"#,
            "https://acme.example/b", a),
        MatchCase(
            "3", #"{"details":[{"appIDs":["T.first","T.second"],"components":[{"/":"*"}]}]}"#, "https://acme.example/",
            "T.first"),
        MatchCase(
            "3", #"{"details":[{"appID":"T.legacy","appIDs":["T.modern"],"components":[{"/":"*"}]}]}"#,
            "https://acme.example/", "T.legacy"),
        MatchCase(
            "3", #"{"details":[{"appIDs":["\#(a)"],"paths":["/p/*"],"components":[{"/":"/c/*"}]}]}"#,
            "https://acme.example/p/1", "none"),
        MatchCase(
            "3", #"{"details":[{"appIDs":["\#(a)"],"paths":["/p/*"],"components":[{"/":"/c/*"}]}]}"#,
            "https://acme.example/c/1", a),
        // §4 keys: absent keys accept anything; {} matches everything; unknown keys ignored.
        MatchCase("4", Decide.components(#"[{}]"#), "https://acme.example/any?x=1#f", a),
        MatchCase("4", Decide.components(#"[{"casesensitive":false,"/":"/A"}]"#), "https://acme.example/a", "none"),
        MatchCase("4", Decide.components(#"[{"path":"/only"}]"#), "https://acme.example/elsewhere", a),
        MatchCase("4", Decide.components(#"[{"/":"/x","exclude":true}]"#), "https://acme.example/y", "none"),
        // §5 defaults, key by key, most specific wins; defaults may carry patterns and exclude.
        MatchCase("5", nestedDefaults, "https://acme.example/promo/x", "none"),
        MatchCase("5", nestedDefaults, "https://acme.example/Promo/x", a),
        MatchCase("5", nestedDefaults, "https://acme.example/deals/x", a),
        MatchCase(
            "5",
            #"{"defaults":{"/":"/m/*"},"details":[{"appIDs":["\#(a)"],"components":[{"\u0023":"share"},{"?":{"ref":"?*"}}]}]}"#,
            "https://acme.example/m/post/1#share", a),
        MatchCase(
            "5",
            #"{"defaults":{"/":"/m/*"},"details":[{"appIDs":["\#(a)"],"components":[{"\u0023":"share"},{"?":{"ref":"?*"}}]}]}"#,
            "https://acme.example/post/1#share", "none"),
        MatchCase(
            "5",
            #"{"defaults":{"/":"/m/*"},"details":[{"appIDs":["\#(a)"],"components":[{"\u0023":"share"},{"?":{"ref":"?*"}}]}]}"#,
            "https://acme.example/m/post/1?ref=tw", a),
        MatchCase(
            "5", #"{"defaults":{"exclude":true},"details":[{"appIDs":["\#(a)"],"components":[{"/":"*"}]}]}"#,
            "https://acme.example/x", "excluded"),
        MatchCase(
            "5", Decide.components(#"[{"/":"/own"}]"#, extra: #""defaults":{"/":"/default"}"#),
            "https://acme.example/own", a),
        MatchCase(
            "5", Decide.components(#"[{"\u0023":"f"}]"#, extra: #""defaults":{"/":"/default"}"#),
            "https://acme.example/own#f", "none"),
        // §6 patterns: * crosses /, ? one character, ?* one or more, whole-part match.
        MatchCase("6", Decide.components(#"[{"/":"/a*z"}]"#), "https://acme.example/a/b/c/z", a),
        MatchCase("6", Decide.components(#"[{"/":"/id/???"}]"#), "https://acme.example/id/123", a),
        MatchCase("6", Decide.components(#"[{"/":"/id/???"}]"#), "https://acme.example/id/1234", "none"),
        MatchCase("6", Decide.components(#"[{"/":"/x/?*"}]"#), "https://acme.example/x/", "none"),
        MatchCase("6", Decide.components(#"[{"/":"/x/?*"}]"#), "https://acme.example/x/1", a),
        MatchCase("6", Decide.components(#"[{"/":"abc"}]"#), "https://acme.example/xabc", "none"),
        MatchCase("6", Decide.components(#"[{"/":"/é?"}]"#), "https://acme.example/%C3%A9a", "none"),
        MatchCase("6", Decide.components(#"[{"/":"/é?","percentEncoded":false}]"#), "https://acme.example/%C3%A9a", a),
        MatchCase("6", Decide.components(#"[{"/":"/BIG","caseSensitive":false}]"#), "https://acme.example/big", a),
        // §7 paths: optional leading slash, runs of leading slashes, trailing slashes, empty path, /* parent, no slash added.
        MatchCase("7", Decide.components(#"[{"/":"shop/*"}]"#), "https://acme.example/shop/1", a),
        MatchCase("7", Decide.components(#"[{"/":"//shop"}]"#), "https://acme.example/shop", a),
        MatchCase("7", Decide.components(#"[{"/":"/shop"}]"#), "https://acme.example/shop//", a),
        MatchCase("7", Decide.components(#"[{"/":"/shop//"}]"#), "https://acme.example/shop", a),
        MatchCase("7", Decide.components(#"[{"/":"/"}]"#), "https://acme.example", a),
        MatchCase("7", Decide.components(#"[{"/":"/"}]"#), "https://acme.example/", a),
        MatchCase("7", Decide.components(#"[{"/":"/"}]"#), "https://acme.example/a", "none"),
        MatchCase("7", Decide.components(#"[{"/":"/shop/*"}]"#), "https://acme.example/shop", a),
        MatchCase("7", Decide.components(#"[{"/":"/shop/*"}]"#), "https://acme.example/shopping", "none"),
        MatchCase("7", Decide.components(#"[{"/":"/a/*/c"}]"#), "https://acme.example/a/c", "none"),
        MatchCase("7", Decide.components(#"[{"/":"/id/???"}]"#), "https://acme.example/id/12", "none"),
        // §8a query string: whole raw query, order matters, absent is empty.
        MatchCase("8a", Decide.components(#"[{"/":"/s","?":"a=1&b=2"}]"#), "https://acme.example/s?b=2&a=1", "none"),
        MatchCase("8a", Decide.components(#"[{"/":"/s","?":""}]"#), "https://acme.example/s", a),
        MatchCase("8a", Decide.components(#"[{"/":"/s","?":"?*"}]"#), "https://acme.example/s", "none"),
        MatchCase("8a", Decide.components(#"[{"/":"/s","?":"*"}]"#), "https://acme.example/s", a),
        // §8b query dictionary.
        MatchCase("8b", Decide.components(#"[{"/":"/s","?":{"q":"?*"}}]"#), "https://acme.example/s?other=1&q=x", a),
        MatchCase(
            "8b", Decide.components(#"[{"/":"/s","?":{"q":"?*","lang":"en"}}]"#), "https://acme.example/s?q=x&lang=fr",
            "none"),
        MatchCase("8b", Decide.components(#"[{"/":"/s","?":{"flag":""}}]"#), "https://acme.example/s?flag", a),
        MatchCase("8b", Decide.components(#"[{"/":"/s","?":{"q":"?*"}}]"#), "https://acme.example/s?q=a&q=b", a),
        MatchCase("8b", Decide.components(#"[{"/":"/s","?":{"q":"a"}}]"#), "https://acme.example/s?q=a&q=b", "none"),
        MatchCase("8b", Decide.components(#"[{"/":"/s","?":{"q":"?*","n":1}}]"#), "https://acme.example/s", a),
        MatchCase("8b", Decide.components(#"[{"/":"/s","?":{"q":"?*","n":null}}]"#), "https://acme.example/s", a),
        MatchCase(
            "8b", Decide.components(#"[{"/":"/s","?":{"Q":"x"},"caseSensitive":false}]"#), "https://acme.example/s?q=X",
            a),
        MatchCase(
            "8b", Decide.components(#"[{"/":"/s","?":{"q":"a b"},"percentEncoded":false}]"#),
            "https://acme.example/s?q=a%20b", a),
        MatchCase(
            "8b", Decide.components(#"[{"/":"/s","?":{"q":"a&b"},"percentEncoded":false}]"#),
            "https://acme.example/s?q=a%26b", a),
        // §9 fragment.
        MatchCase("9", Decide.components(#"[{"\u0023":"*"}]"#), "https://acme.example/x", a),
        MatchCase("9", Decide.components(#"[{"\u0023":"?*"}]"#), "https://acme.example/x", "none"),
        MatchCase("9", Decide.components(#"[{"\u0023":"top"}]"#), "https://acme.example/x#top", a),
        MatchCase("9", Decide.components(#"[{"\u0023":"top"}]"#), "https://acme.example/x#top#2", "none"),
        // §10 substitution variables.
        MatchCase("10", Decide.components(#"[{"/":"/$(digit)"}]"#), "https://acme.example/7", a),
        MatchCase("10", Decide.components(#"[{"/":"/$(digit)"}]"#), "https://acme.example/77", "none"),
        MatchCase("10", Decide.components(#"[{"/":"/$(upper)"}]"#), "https://acme.example/q", "none"),
        MatchCase("10", Decide.components(#"[{"/":"/$(upper)","caseSensitive":false}]"#), "https://acme.example/q", a),
        MatchCase("10", Decide.components(#"[{"/":"/$(xdigit)$(xdigit)"}]"#), "https://acme.example/fA", a),
        MatchCase("10", Decide.components(#"[{"/":"/$(xdigit)"}]"#), "https://acme.example/g", "none"),
        MatchCase("10", Decide.components(#"[{"/":"/$(alnum)$(alpha)$(lower)"}]"#), "https://acme.example/9Zz", a),
        MatchCase("10", Decide.components(#"[{"/":"/$(region)"}]"#), "https://acme.example/GB", a),
        MatchCase("10", Decide.components(#"[{"/":"/$(region)"}]"#), "https://acme.example/UK", "none"),
        MatchCase("10", Decide.components(#"[{"/":"/$(region)"}]"#), "https://acme.example/IC", a),
        MatchCase("10", Decide.components(#"[{"/":"/$(lang)-$(region)"}]"#), "https://acme.example/en-GB", a),
        MatchCase("10", Decide.components(#"[{"/":"/$(lang)-$(region)"}]"#), "https://acme.example/qq-ZZ", "none"),
        MatchCase(
            "10",
            #"{"substitutionVariables":{"v":["x*y","plain"]},"details":[{"appIDs":["\#(a)"],"components":[{"/":"/$(v)"}]}]}"#,
            "https://acme.example/xaby", a),
        MatchCase(
            "10",
            #"{"substitutionVariables":{"v":["x*y","plain"]},"details":[{"appIDs":["\#(a)"],"components":[{"/":"/$(v)"}]}]}"#,
            "https://acme.example/plain", a),
        MatchCase(
            "10",
            #"{"substitutionVariables":{"v":["x*y","plain"]},"details":[{"appIDs":["\#(a)"],"components":[{"/":"/$(v)"}]}]}"#,
            "https://acme.example/$(v)", "none"),
        MatchCase(
            "10",
            #"{"substitutionVariables":{"v":["Plain"]},"details":[{"appIDs":["\#(a)"],"components":[{"/":"/$(v)","caseSensitive":false}]}]}"#,
            "https://acme.example/PLAIN", a),
        MatchCase("10", Decide.components(#"[{"/":"/$(undefined)"}]"#), "https://acme.example/$(undefined)", "none"),
        MatchCase("10", Decide.components(#"[{"/":"/$(digit"}]"#), "https://acme.example/$(digit", a),
        // §11 percent-encoding.
        MatchCase("11", Decide.components(#"[{"/":"/a%20b"}]"#), "https://acme.example/a%20b", a),
        MatchCase("11", Decide.components(#"[{"/":"/a%20b"}]"#), "https://acme.example/a%2520b", "none"),
        MatchCase(
            "11", Decide.components(#"[{"/":"/a%20b","percentEncoded":false}]"#), "https://acme.example/a%20b", "none"),
        MatchCase(
            "11", Decide.components(#"[{"/":"/bad%zz","percentEncoded":false}]"#), "https://acme.example/bad%zz", a),
        MatchCase(
            "11", Decide.components(#"[{"\u0023":"a b","percentEncoded":false}]"#), "https://acme.example/x#a%20b", a),
        // §12 legacy paths: NOT, path only, always case-sensitive, no variables.
        MatchCase("12", #"{"details":[{"appID":"\#(a)","paths":["/x/*"]}]}"#, "https://acme.example/x/1?q=1#f", a),
        MatchCase(
            "12", #"{"details":[{"appID":"\#(a)","paths":["/X/*"]}],"defaults":{"caseSensitive":false}}"#,
            "https://acme.example/x/1", "none"),
        MatchCase("12", #"{"details":[{"appID":"\#(a)","paths":["/$(digit)"]}]}"#, "https://acme.example/5", "none"),
        MatchCase("12", #"{"details":[{"appID":"\#(a)","paths":["/$(digit)"]}]}"#, "https://acme.example/$(digit)", a),
        MatchCase(
            "12", #"{"details":{"TEAM123456.b":{"paths":["/b/*"]},"TEAM123456.a":{"paths":["*"]}}}"#,
            "https://acme.example/b/1", "TEAM123456.a"),
        MatchCase(
            "12", #"{"details":{"TEAM123456.b":{"paths":["NOT /b/*","*"]}}}"#, "https://acme.example/b/1", "excluded"),
    ]

    @Test(arguments: cases)
    func rule(_ testCase: MatchCase) throws {
        #expect(try Decide.outcome(applinks: testCase.applinks, url: testCase.url) == testCase.expected)
    }

    // §14: the worked examples, verbatim.
    static let music = "TEAM123456.com.acme.music"
    static let main = "TEAM123456.com.acme.main"
    static let workedExamples: [MatchCase] = [
        MatchCase("14.1", Decide.components(#"[{"/":"/catalog/*"}]"#), "https://acme.example/catalog", a),
        MatchCase("14.1", Decide.components(#"[{"/":"/catalog/*"}]"#), "https://acme.example/catalog/shoes/42", a),
        MatchCase("14.1", Decide.components(#"[{"/":"/catalog/*"}]"#), "https://acme.example/catalogue", "none"),
        MatchCase("14.1", Decide.components(#"[{"/":"catalog/"}]"#), "https://acme.example/catalog", a),
        MatchCase(
            "14.2", Decide.components(#"[{"/":"/account/settings*","exclude":true},{"/":"/account/*"}]"#),
            "https://acme.example/account/settings/privacy", "excluded"),
        MatchCase(
            "14.2", Decide.components(#"[{"/":"/account/settings*","exclude":true},{"/":"/account/*"}]"#),
            "https://acme.example/account/orders", a),
        MatchCase(
            "14.2", Decide.components(#"[{"/":"/account/*"},{"/":"/account/settings*","exclude":true}]"#),
            "https://acme.example/account/settings/privacy", a),
        MatchCase(
            "14.3",
            #"{"details":[{"appIDs":["\#(music)"],"components":[{"/":"/listen/*"}]},{"appIDs":["\#(main)"],"components":[{"/":"*"}]}]}"#,
            "https://acme.example/listen/track/9", music),
        MatchCase(
            "14.3",
            #"{"details":[{"appIDs":["\#(music)"],"components":[{"/":"/listen/*"}]},{"appIDs":["\#(main)"],"components":[{"/":"*"}]}]}"#,
            "https://acme.example/about", main),
        MatchCase(
            "14.4", Decide.components(#"[{"/":"/s","?":{"q":"?*","page":"*"}}]"#), "https://acme.example/s?q=boots", a),
        MatchCase(
            "14.4", Decide.components(#"[{"/":"/s","?":{"q":"?*","page":"*"}}]"#), "https://acme.example/s?page=2",
            "none"),
        MatchCase(
            "14.4", Decide.components(#"[{"/":"/s","?":{"q":"?*","page":"*"}}]"#), "https://acme.example/s?q=boots&q=",
            "none"),
        MatchCase(
            "14.5", Decide.components(#"[{"/":"/s","?":{"q":"?*","debug":false}}]"#), "https://acme.example/s", a),
        MatchCase("14.6", Decide.components(#"[{"/":"/s","?":"ref=mail"}]"#), "https://acme.example/s?ref=mail", a),
        MatchCase(
            "14.6", Decide.components(#"[{"/":"/s","?":"ref=mail"}]"#), "https://acme.example/s?ref=mail&x=1", "none"),
        MatchCase("14.6", Decide.components(#"[{"/":"/s","?":"ref=mail"}]"#), "https://acme.example/s", "none"),
        MatchCase("14.7", Decide.components(#"[{"/":"/menu/crème"}]"#), "https://acme.example/menu/cr%C3%A8me", "none"),
        MatchCase(
            "14.7", Decide.components(#"[{"/":"/menu/crème","percentEncoded":false}]"#),
            "https://acme.example/menu/cr%C3%A8me", a),
        MatchCase(
            "14.7", Decide.components(#"[{"/":"/menu/cr%C3%A8me"}]"#), "https://acme.example/menu/cr%c3%a8me", "none"),
        MatchCase("14.8", Decide.components(#"[{"/":"/files/a/b"}]"#), "https://acme.example/files/a%2Fb", "none"),
        MatchCase(
            "14.8", Decide.components(#"[{"/":"/files/a/b","percentEncoded":false}]"#),
            "https://acme.example/files/a%2Fb", a),
        MatchCase(
            "14.9",
            #"{"substitutionVariables":{"section":["news","sport*"]},"details":[{"appIDs":["\#(a)"],"components":[{"/":"/$(region)/$(section)/$(digit)*"}]}]}"#,
            "https://acme.example/FR/sports/7", a),
        MatchCase(
            "14.9",
            #"{"substitutionVariables":{"section":["news","sport*"]},"details":[{"appIDs":["\#(a)"],"components":[{"/":"/$(region)/$(section)/$(digit)*"}]}]}"#,
            "https://acme.example/fr/news/1", "none"),
        MatchCase(
            "14.9",
            #"{"substitutionVariables":{"section":["news","sport*"]},"details":[{"appIDs":["\#(a)"],"components":[{"/":"/$(region)/$(section)/$(digit)*"}]}]}"#,
            "https://acme.example/UK/news/1", "none"),
        MatchCase(
            "14.9",
            #"{"substitutionVariables":{"section":["news","sport*"]},"details":[{"appIDs":["\#(a)"],"components":[{"/":"/$(region)/$(section)/$(digit)*"}]}]}"#,
            "https://acme.example/FR/news/x", "none"),
        MatchCase(
            "14.12", #"{"details":[{"appID":"TEAM123456.com.acme.old","paths":["NOT /admin/*","*"]}]}"#,
            "https://acme.example/admin/users", "excluded"),
        MatchCase(
            "14.12", #"{"details":[{"appID":"TEAM123456.com.acme.old","paths":["NOT /admin/*","*"]}]}"#,
            "https://acme.example/anything?x=1", "TEAM123456.com.acme.old"),
        MatchCase(
            "14.12", #"{"details":[{"appID":"TEAM123456.com.acme.old","paths":["NOT /admin/*","*"]}]}"#,
            "https://acme.example/Admin/users", "TEAM123456.com.acme.old"),
    ]

    @Test(arguments: workedExamples)
    func workedExample(_ testCase: MatchCase) throws {
        #expect(try Decide.outcome(applinks: testCase.applinks, url: testCase.url) == testCase.expected)
    }

    @Test func saysWhichRuleDecided() throws {
        let file = try #require(
            try JSONParser.parse(
                #"{"applinks":{"details":[{"appIDs":["T.a"],"components":[{"/":"/x"},{"/":"/y/*","exclude":true},{"/":"*"}]}]}}"#
            ).objectValue)
        let matcher = Matcher(file: file, domain: "acme.example")
        let excluded = try matcher.decide("https://acme.example/y/1").get()
        #expect(excluded.outcome == .excluded)
        #expect(excluded.rule?.path == "applinks.details[0].components[1]")
        #expect(excluded.reason == "Excluded by applinks.details[0].components[1].")
        let matched = try matcher.decide("https://acme.example/z").get()
        #expect(matched.rule?.path == "applinks.details[0].components[2]")
        #expect(matched.rule?.source == .object(JSONObject([("/", .string("*"))])))
        let none = try Matcher(file: file, domain: "other.example").decide("https://acme.example/z").get()
        #expect(none.outcome == .none && none.rule == nil && none.reason.contains("only for other.example"))
    }

    @Test(arguments: ["acme.example/x", "ftp://acme.example/x", "https:///x", "mailto:a@b"])
    func rejectsWhatIsNotAWebURL(url: String) {
        #expect(throws: MatchURLError.self) { try MatchURL.parse(url).get() }
    }

    @Test func splitsURLsAsWritten() throws {
        let url = try MatchURL.parse("HTTPS://user@Acme.Example:8443/a%2Fb/?q=1&r#frag?x").get()
        #expect(
            url
                == MatchURL(
                    scheme: "https", host: "acme.example", port: "8443", path: "/a%2Fb/", query: "q=1&r",
                    fragment: "frag?x"))
    }
}
