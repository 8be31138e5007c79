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
