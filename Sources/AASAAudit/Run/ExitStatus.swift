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
    /// The audit could not run properly from this machine (`AuditorProblems`): Apple's CDN or
    /// DNS unreachable for most domains.
    public static let auditorProblems = ExitStatus(3)

    /// The run and its reports are fine, but `--notify`'s alert could not be delivered (given
    /// only when the run would otherwise exit 0: a failing run's 1 says more).
    public static let notificationFailed = ExitStatus(4)

    /// Standard output or error could not be written (a closed pipe, a full disk): the command
    /// did its work (reports and `--stats` written) but what it printed was lost. Given only
    /// when the command would otherwise exit 0 or 4: any other status says more.
    public static let outputFailed = ExitStatus(5)

    /// The status once what the command printed is known to be lost or not.
    public func afterOutput(failed: Bool) -> ExitStatus {
        failed && (self == .success || self == .notificationFailed) ? .outputFailed : self
    }

    /// A run ended by a signal: 128 + its number (130 for SIGINT, 143 for SIGTERM).
    public static func interrupted(by signal: Int32) -> ExitStatus { ExitStatus(128 + signal) }
}
