import PropertyBased
import Testing

@testable import AASAMatching

/// The matcher's automaton: the same answers as a plain backtracking reading of the pattern
/// language, at a cost bounded by states × text length whatever the pattern holds.
@Suite struct PatternAutomatonTests {
    /// The pattern language read literally (aasa-matching.md §6), by backtracking: exponential
    /// in the worst case, fine for the short texts generated here.
    static func reference(_ pattern: [Character], _ text: [Character], variables: [String: [String]]) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        let rest = Array(pattern.dropFirst())
        switch first {
        case "*":
            return (0...text.count).contains { reference(rest, Array(text.dropFirst($0)), variables: variables) }
        case "?":
            return !text.isEmpty && reference(rest, Array(text.dropFirst()), variables: variables)
        case "V":
            // "V" stands for $(v) in the generated patterns.
            return variables["v", default: []].contains { value in
                (0...text.count).contains { end in
                    reference(Array(value), Array(text.prefix(end)), variables: [:])
                        && reference(rest, Array(text.dropFirst(end)), variables: variables)
                }
            }
        default:
            return text.first == first && reference(rest, Array(text.dropFirst()), variables: variables)
        }
    }

    static let patternText = Gen<Character?>.element(of: Array("ab*?V")).map { $0! }.string(of: 0...8)
    static let valueText = Gen<Character?>.element(of: Array("ab*?")).map { $0! }.string(of: 0...4)
    static let subject = Gen<Character?>.element(of: Array("abc")).map { $0! }.string(of: 0...9)

    @Test func agreesWithTheBacktrackingReading() async {
        await propertyCheck(input: Self.patternText, Self.valueText, Self.valueText, Self.subject) {
            pattern, first, second, text in
            let variables = ["v": [first, second]]
            let source = pattern.replacingOccurrences(of: "V", with: "$(v)")
            let compiled = Pattern(source, variables: VariableTable(user: variables), caseSensitive: true)
            let expected = Self.reference(Array(pattern), Array(text), variables: variables)
            #expect(compiled.matches(text) == expected, "\(source) with v = \(variables["v"]!) against \(text)")
        }
    }

    /// Issue 17's file: a variable whose value is `*a*a*a…*b`, referenced three times, against a
    /// long path of `a`s that never ends in `b`. Backtracking through the references took 40 s at
    /// 1,000 characters; the automaton visits at most states × (length + 1) states.
    @Test(arguments: [300, 1_000, 4_000])
    func wildcardVariablesCannotMakeMatchingExplode(length: Int) throws {
        let value = String(repeating: "*a", count: 100) + "*b"
        let pattern = Pattern("/$(v)$(v)$(v)", variables: VariableTable(user: ["v": [value]]), caseSensitive: true)
        let automaton = try #require(PatternAutomaton(pattern.tokens, limit: Pattern.maximumAutomatonSize))
        let text = Array(("/" + String(repeating: "a", count: length)).unicodeScalars)
        var budget = MatchBudget.unlimited
        let (accepted, work) = automaton.run(text[...], budget: &budget)
        #expect(!accepted)
        #expect(work <= automaton.states.count * (text.count + 1))
        #expect(automaton.states.count == pattern.automatonSize)
        // The same pattern does match where it should.
        #expect(pattern.matches("/" + String(repeating: String(repeating: "a", count: 100) + "b", count: 3)))
    }

    @Test func anExpansionOverTheCapMatchesNothing() {
        let variables = VariableTable(user: ["v": (0..<2_000).map { "value\($0)" }])
        let small = Pattern("/$(v)", variables: variables, caseSensitive: true)
        #expect(small.automatonSize <= Pattern.maximumAutomatonSize)
        #expect(small.matches("/value1999"))
        let large = Pattern("/$(v)/$(v)", variables: variables, caseSensitive: true)
        #expect(large.automatonSize > Pattern.maximumAutomatonSize)
        #expect(!large.matches("/value1/value2"))
    }
}
