/// The exit statuses of `aasa-audit`, in one place (README, "Exit status").
public struct ExitStatus: Sendable, Equatable {
    public let code: Int32

    public init(_ code: Int32) { self.code = code }

    /// Nothing fails.
    public static let success = ExitStatus(0)
    /// A domain (or file) fails, input lines could not be audited, or the run was incomplete.
    public static let failed = ExitStatus(1)
    /// Usage or input errors: bad options, an unreadable input, an unwritable output.
    public static let usage = ExitStatus(2)

    /// A run ended by a signal: 128 + its number (130 for SIGINT, 143 for SIGTERM).
    public static func interrupted(by signal: Int32) -> ExitStatus { ExitStatus(128 + signal) }
}

/// An error that ends a command: what to tell the user, and the exit status. `main.swift`
/// prints every one the same way.
public protocol UserFacingError: Error {
    var message: String { get }
    var exitStatus: ExitStatus { get }
    /// Lines printed before the message (the input lines behind an input error).
    var context: [String] { get }
}

extension UserFacingError {
    public var context: [String] { [] }
}

/// Why an audit run could not start or write its reports.
public enum AuditRunError: UserFacingError {
    /// libcurl could not be set up.
    case fetcherSetup(String)
    /// The output folder or a run folder in it cannot be made or written.
    case outputFolder(String)
    /// Another audit holds the output folder's lock.
    case outputBusy(String)
    /// A report could not be written.
    case reports(String)

    public var message: String {
        switch self {
        case .fetcherSetup(let text), .outputFolder(let text), .outputBusy(let text), .reports(let text): text
        }
    }

    public var exitStatus: ExitStatus { .usage }
}
