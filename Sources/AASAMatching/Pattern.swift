/// A compiled pattern of the AASA pattern language (aasa-matching.md §6): `*` any run of
/// characters (including `/`), `?` exactly one character, `$(name)` one of a variable's
/// values, everything else literal. Characters are Unicode scalars. A pattern must match the
/// whole text.
///
/// Matching is memoised over (token, position), so its cost is bounded by
/// tokens × text length × alternatives, whatever the pattern: no hostile file can make it
/// backtrack exponentially.
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

    public func matches(_ text: String) -> Bool {
        let scalars = caseSensitive ? Array(text.unicodeScalars) : Self.fold(Array(text.unicodeScalars))
        return matches(scalars[...])
    }

    func matches(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
        var memo = Memo(tokens: tokens.count, text: text.count)
        return match(0, text.startIndex, text, &memo)
    }

    private func match(_ token: Int, _ position: Int, _ text: ArraySlice<Unicode.Scalar>, _ memo: inout Memo) -> Bool {
        if token == tokens.count { return position == text.endIndex }
        let offset = position - text.startIndex
        if let known = memo[token, offset] { return known }
        let result: Bool
        switch tokens[token] {
        case .literal, .one:
            // Consume the run of fixed-width tokens without recursing, so that recursion depth
            // grows with the number of wildcards only.
            var next = token
            var at = position
            while next < tokens.count, at < text.endIndex {
                if case .literal(let scalar) = tokens[next] {
                    guard text[at] == scalar else { break }
                } else if tokens[next] != .one {
                    break
                }
                next += 1
                at += 1
            }
            let stoppedOnFixed: Bool = next < tokens.count && {
                switch tokens[next] {
                case .literal, .one: true
                default: false
                }
            }()
            result = !stoppedOnFixed && match(next, at, text, &memo)
        case .run:
            result = (position...text.endIndex).contains { match(token + 1, $0, text, &memo) }
        case .never, .tooLong:
            result = false
        case .variable(let variable):
            result = matchVariable(variable, token, position, text, &memo)
        }
        memo[token, offset] = result
        return result
    }

    private func matchVariable(_ variable: Variable, _ token: Int, _ position: Int, _ text: ArraySlice<Unicode.Scalar>, _ memo: inout Memo) -> Bool {
        for (length, values) in variable.literals where position + length <= text.endIndex {
            if values.contains(Array(text[position..<(position + length)])), match(token + 1, position + length, text, &memo) {
                return true
            }
        }
        for alternative in variable.patterns {
            for end in position...text.endIndex where alternative.matches(text[position..<end]) {
                if match(token + 1, end, text, &memo) { return true }
            }
        }
        return false
    }

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
               let close = scalars[(index + 2)...].firstIndex(of: ")") {
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

/// Results of (token, position) already decided.
private struct Memo {
    private var cells: [Int8]
    private let width: Int

    init(tokens: Int, text: Int) {
        width = text + 1
        cells = Array(repeating: -1, count: (tokens + 1) * width)
    }

    subscript(token: Int, offset: Int) -> Bool? {
        get {
            let value = cells[token * width + offset]
            return value < 0 ? nil : value == 1
        }
        set { cells[token * width + offset] = newValue.map { $0 ? 1 : 0 } ?? -1 }
    }
}
