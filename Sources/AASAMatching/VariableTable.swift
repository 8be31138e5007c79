/// The values of `$(name)` references: the file's `substitutionVariables` and the eight
/// built-ins (aasa-matching.md §10). A user variable with a built-in's name replaces the
/// built-in (not observed on devices; our reading).
public struct VariableTable: Sendable, Equatable {
    public var user: [String: [String]]

    public init(user: [String: [String]] = [:]) {
        self.user = user
    }

    public func values(of name: String) -> [String]? {
        user[name] ?? BuiltinVariables.values[name]
    }
}

/// The built-in substitution variables. Each value is one alternative: `$(digit)` stands for
/// exactly one digit, `$(region)` for exactly one region code.
public enum BuiltinVariables {
    public static let names = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]

    static let upper = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
    static let lower = (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }
    static let digit = (UInt8(ascii: "0")...UInt8(ascii: "9")).map { String(UnicodeScalar($0)) }

    public static let values: [String: [String]] = [
        "alpha": upper + lower,
        "upper": upper,
        "lower": lower,
        "alnum": upper + lower + digit,
        "digit": digit,
        "xdigit": digit + ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"],
        "region": LocaleSnapshot.regionCodes,
        "lang": LocaleSnapshot.languageCodes,
    ]
}
