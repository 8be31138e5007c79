import Foundation

/// Where a command's text goes: standard output and error, and what they are connected to.
public protocol Console: Sendable {
    func print(_ text: String)
    func printError(_ text: String)
    /// Colour on standard output (a terminal, and NO_COLOR unset).
    var colour: Bool { get }
    /// Standard error is a terminal: a progress line may be drawn there.
    var errorIsTerminal: Bool { get }
}

/// The process's own standard output and error.
public struct StandardConsole: Console {
    public init() {}

    public func print(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    public func printError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Colour only on a terminal, and never when NO_COLOR is set (no-color.org).
    public var colour: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    public var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
