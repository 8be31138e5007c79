import AASAJSON
import AASAMatching
import Testing

/// For a URL no rule decides: the nearest rule, and the part that failed.
@Suite struct NearMissTests {
    static let file = try! JSONParser.parse(
        Array(
            #"""
            {"applinks": {"details": [{"appIDs": ["ABCDE12346.com.acme.app"], "components": [
              {"/": "/help/*", "exclude": true},
              {"/": "/buy/*", "?": {"ref": "?*"}},
              {"/": "/sale/*", "#": "promo-*"},
              {"/": "/Shop/*"},
              {"/": "/caf%C3%A9/*", "percentEncoded": true}
            ]}]}}
            """#.utf8)
    ).objectValue!

    func nearest(_ url: String) throws -> NearMiss {
        let matcher = Matcher(file: Self.file, domain: "acme.example")
        let parsed = try MatchURL.parse(url).get()
        #expect(matcher.decide(parsed).outcome == .none, "\(url) is decided")
        return try #require(matcher.nearestRule(to: parsed))
    }

    /// 8,700 rules and a 60 KB path: every step of the search is charged to its budget, so a
    /// small budget stops it after a few rules, and the words are built for the nearest rule
    /// only (issue 36, item 9: 5.5 to 8.8 s outside the budget).
    @Test func theSearchForTheNearestRuleIsChargedToItsBudget() throws {
        let components = (0..<8_700).map { #"{"/": "/p\#($0)/*"}"# }.joined(separator: ",")
        let file = try JSONParser.parse(
            Array(
                #"{"applinks": {"details": [{"appIDs": ["ABCDE12346.com.acme.app"], "components": [\#(components)]}]}}"#
                    .utf8)
        ).objectValue!
        let matcher = Matcher(file: file, domain: "acme.example")
        let url = try MatchURL.parse("https://acme.example/x" + String(repeating: "/y", count: 30_000)).get()
        // Each rule costs about 4 walks of the 60 KB path (its two patterns, the other case):
        // 3 million visits stop the search after about a dozen rules.
        let result = matcher.nearestRule(to: url, budget: 3_000_000)
        let index = result.flatMap { Int($0.rule.path.split(separator: "[").last?.dropLast() ?? "") } ?? .max
        #expect(index < 50, "the budget stopped the search after a few rules")
        #expect(result?.explanation.hasPrefix("the path /x/y/y") == true)
        // A budget too small for one rule: no nearest rule, and no work beyond it.
        let none = matcher.nearestRule(to: url, budget: 1_000)
        #expect(none == nil)
    }

    @Test func aMissingQueryItemIsNamed() throws {
        let miss = try nearest("https://acme.example/buy/1")
        #expect(miss.rule.path == "applinks.details[0].components[1]")
        #expect(miss.failed == [.query])
        #expect(miss.explanation.contains("the query item ref is missing"), "\(miss.explanation)")
    }

    @Test func aWrongFragmentIsNamed() throws {
        let miss = try nearest("https://acme.example/sale/1#top")
        #expect(miss.rule.path == "applinks.details[0].components[2]" && miss.failed == [.fragment])
        #expect(miss.explanation == "the fragment #top does not match #promo-*")
    }

    @Test func caseIsNamedWhenItWouldMatchIgnoringIt() throws {
        let miss = try nearest("https://acme.example/shop/hats")
        #expect(miss.rule.path == "applinks.details[0].components[3]" && miss.failed == [.path])
        #expect(miss.explanation.contains("it would ignoring case: the rule is case-sensitive"), "\(miss.explanation)")
    }

    @Test func percentEncodingIsNamedWhenTheOtherFormWouldMatch() throws {
        let miss = try nearest("https://acme.example/café/menu")
        #expect(miss.rule.path == "applinks.details[0].components[4]")
        #expect(miss.explanation.contains("the rule compares the path as written"), "\(miss.explanation)")
    }

    @Test func aPathNoRuleComesNearStillGetsTheClosestStart() throws {
        let miss = try nearest("https://acme.example/sa")
        #expect(miss.rule.path == "applinks.details[0].components[2]" && miss.failed.first == .path)
        #expect(
            Matcher(file: Self.file, domain: "acme.example").nearestRule(
                to: try MatchURL.parse("https://other.example/").get()) == nil)
    }
}
