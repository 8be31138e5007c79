/// A compiled pattern of the AASA pattern language (aasa-matching.md §6): `*` any run of
/// characters (including `/`), `?` exactly one character, `$(name)` one of a variable's
/// values, everything else literal. Characters are Unicode scalars. A pattern must match the
/// whole text.
///
/// Matching runs the pattern as a nondeterministic automaton with each variable reference
/// expanded into its alternatives (`PatternAutomaton`), in one pass over the text: its cost is
/// at most the automaton's size × the text's length, whatever the pattern and the variables'
/// values hold. The expansion is capped at `maximumAutomatonSize`; a bigger pattern matches
/// nothing (and validation says so).
public struct Pattern: Sendable, Equatable, CustomStringConvertible {
    enum Token: Sendable, Equatable {
        case literal(Unicode.Scalar)
        case one
        case run
        case variable(Variable)
        /// A reference to an undefined variable: matches nothing.
        case never(String)
        /// A pattern over the length bound: matches nothing.
        case tooLong
    }

    /// A variable's alternatives, split into plain strings (looked up by length) and ones
    /// holding wildcards (matched as patterns).
    struct Variable: Sendable, Equatable {
        var name: String
        var literals: [Int: Set<[Unicode.Scalar]>]
        var patterns: [Pattern]
    }

    public let source: String
    let tokens: [Token]
    let caseSensitive: Bool

    public var description: String { source }

    /// - Parameters:
    ///   - variables: values of `$(name)` references; nil leaves `$(` literal (legacy paths).
    ///   - caseSensitive: false folds the pattern and, at match time, the text.
    public init(_ source: String, variables: VariableTable?, caseSensitive: Bool) {
        self.source = source
        self.caseSensitive = caseSensitive
        tokens = Self.compile(source, variables: variables, caseSensitive: caseSensitive)
    }

    /// Whether the pattern has no wildcard or variable: it then matches exactly its own text.
    public var isLiteral: Bool {
        tokens.allSatisfy { if case .literal = $0 { true } else { false } }
    }

    /// Whether the pattern is a lone `*`, which matches every text.
    public var matchesEverything: Bool { tokens == [.run] }

    /// The names of the undefined variables it refers to.
    public var undefinedVariables: [String] {
        tokens.compactMap { if case .never(let name) = $0 { name } else { nil } }
    }

    /// Whether the pattern matches the whole text, with no limit on the work.
    public func matches(_ text: String) -> Bool {
        var budget = MatchBudget.unlimited
        return matches(text, budget: &budget)
    }

    /// Whether the pattern matches the whole text; false once `budget` is spent.
    public func matches(_ text: String, budget: inout MatchBudget) -> Bool {
        // Reading the text (and folding it) and building the automaton are work too: charged at
        // a visit a byte and a state, before they are done.
        guard budget.spend(text.utf8.count + automatonSize + 1) else { return false }
        let scalars = caseSensitive ? Array(text.unicodeScalars) : Self.fold(Array(text.unicodeScalars))
        guard let automaton = PatternAutomaton(tokens, limit: Self.maximumAutomatonSize) else { return false }
        return automaton.accepts(scalars[...], budget: &budget)
    }

    /// The automaton's states with every variable expanded; over this, the pattern matches
    /// nothing. Each reference to a built-in such as `$(region)` costs about 750.
    public static let maximumAutomatonSize = 20_000

    /// The number of states the pattern expands to (compare with `maximumAutomatonSize`).
    public var automatonSize: Int { PatternAutomaton.size(of: tokens) }

    // MARK: Compiling

    /// Longer patterns match nothing: no real rule is near this long, and the bound keeps
    /// matching time and recursion depth small.
    public static let maximumLength = 4096

    static func compile(_ source: String, variables: VariableTable?, caseSensitive: Bool) -> [Token] {
        let scalars = Array(source.unicodeScalars)
        guard scalars.count <= maximumLength else { return [.tooLong] }
        var tokens: [Token] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "$", let variables, index + 1 < scalars.count, scalars[index + 1] == "(",
                let close = scalars[(index + 2)...].firstIndex(of: ")")
            {
                let name = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
                if let values = variables.values(of: name) {
                    tokens.append(.variable(variable(name, values, caseSensitive: caseSensitive)))
                } else {
                    tokens.append(.never(name))
                }
                index = close + 1
                continue
            }
            switch scalar {
            case "*":
                // Consecutive stars are one star.
                if tokens.last != .run { tokens.append(.run) }
            case "?":
                tokens.append(.one)
            default:
                tokens.append(.literal(caseSensitive ? scalar : fold(scalar)))
            }
            index += 1
        }
        return tokens
    }

    static func variable(_ name: String, _ values: [String], caseSensitive: Bool) -> Variable {
        var literals: [Int: Set<[Unicode.Scalar]>] = [:]
        var patterns: [Pattern] = []
        for value in values {
            if value.unicodeScalars.contains(where: { $0 == "*" || $0 == "?" }) {
                // A value may hold wildcards but not another variable.
                patterns.append(Pattern(value, variables: nil, caseSensitive: caseSensitive))
            } else {
                let scalars = caseSensitive ? Array(value.unicodeScalars) : fold(Array(value.unicodeScalars))
                literals[scalars.count, default: []].insert(scalars)
            }
        }
        return Variable(name: name, literals: literals, patterns: patterns)
    }

    /// Simple case folding, scalar by scalar: a scalar whose lower-case form is one scalar is
    /// replaced by it (ASCII, and most letters); others are kept.
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
        }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first! : scalar
    }

    static func fold(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        scalars.map(fold)
    }
}
