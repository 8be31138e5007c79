import AASAJSON
import AASAMatching
import PropertyBased
import Testing

/// Properties over generated patterns and URLs.
@Suite struct MatcherPropertyTests {
    /// Characters of URL paths, none of them a wildcard or a variable's `$(`.
    static let pathCharacters: [Character] = Array("abcXYZ019/-._~%é")
    static let text = characters(pathCharacters).string(of: 0...24)

    static func characters(_ set: [Character]) -> Generator<Character, Shrink.None<Character?>> {
        Gen<Character?>.element(of: set).map { $0! }
    }

    @Test func aPatternWithoutWildcardsMatchesExactlyItself() async {
        await propertyCheck(input: Self.text, Self.text) { pattern, other in
            let compiled = Pattern(pattern, variables: VariableTable(), caseSensitive: true)
            #expect(compiled.isLiteral)
            #expect(compiled.matches(pattern))
            #expect(compiled.matches(other) == (other == pattern))
        }
    }

    @Test func aLoneStarMatchesEveryText() async {
        await propertyCheck(
            input: Self.characters(Self.pathCharacters + ["*", "?", "$", "(", ")", "#", "&", "="]).string(of: 0...40)
        ) { text in
            #expect(Pattern("*", variables: VariableTable(), caseSensitive: true).matches(text))
            #expect(Pattern("*", variables: VariableTable(), caseSensitive: false).matches(text))
        }
    }

    @Test func aCatchAllRuleSendsEveryURLOnTheHostToTheApp() async throws {
        let file = try #require(
            try JSONParser.parse(#"{"applinks":{"details":[{"appIDs":["T.a"],"components":[{"/":"*"}]}]}}"#).objectValue
        )
        let matcher = Matcher(file: file, domain: "acme.example")
        await propertyCheck(input: Self.text, Self.text) { path, query in
            let decision = try matcher.decide("https://acme.example/\(path)?\(query)").get()
            #expect(decision.outcome == .app)
        }
    }

    @Test func anExclusionListedFirstBlocksEveryURLItMatches() async throws {
        await propertyCheck(input: Self.text, Self.text) { prefix, rest in
            let excluded = "/" + prefix.filter { $0 != "%" && $0 != "/" }
            let json =
                #"{"applinks":{"details":[{"appIDs":["T.a"],"components":[{"/":"\#(excluded)*","exclude":true},{"/":"*"},{"/":"\#(excluded)"}]}]}}"#
            let file = try #require(try JSONParser.parse(json).objectValue)
            let matcher = Matcher(file: file, domain: "acme.example")
            let decision = try matcher.decide("https://acme.example\(excluded)\(rest.filter { $0 != "%" })").get()
            #expect(decision.outcome == .excluded)
        }
    }
}
