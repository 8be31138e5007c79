import Foundation

/// A line of the input that could not be audited (or was merged), with why.
public struct InputProblem: Codable, Sendable, Equatable {
    /// What kind of problem it is (`InputProblemCode`); absent in reports written before codes.
    public var code: InputProblemCode?
    public var file: String
    public var line: Int
    /// The line's text, cut to a bounded length.
    public var text: String
    /// The catalog's (`InputProblemCode.severity`).
    public var severity: Severity
    public var message: String

    /// At an explicit severity, inside the model only (tests reach it with `@testable`):
    /// everywhere else a problem's severity comes from its code.
    init(file: String, line: Int, text: String, severity: Severity, message: String) {
        self.file = file
        self.line = line
        self.text = text
        self.severity = severity
        self.message = message
    }
}
