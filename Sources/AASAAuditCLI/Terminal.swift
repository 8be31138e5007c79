import AASAAudit
import Foundation

/// Facts about where output goes, and writing to it.
enum Terminal {
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Colour only on a terminal, and never when NO_COLOR is set (no-color.org).
    static var colourOnStandardOutput: Bool {
        standardOutputIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// The progress line an audit shows on stderr while it runs on a terminal: redrawn in place,
/// at most ten times a second.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var lastDrawn = ContinuousClock.now - .seconds(1)

    func update(_ progress: AuditProgress) {
        let now = ContinuousClock.now
        let due = lock.withLock {
            guard progress.done == progress.total || now - lastDrawn >= .milliseconds(100) else { return false }
            lastDrawn = now
            return true
        }
        guard due else { return }
        let rate = progress.elapsedSeconds > 0 ? Double(progress.done) / progress.elapsedSeconds : 0
        Terminal.printError(String(format: "\r\u{1B}[2K%d/%d domains · %.1f/s · %d failing", progress.done, progress.total, rate, progress.failing))
    }

    func clear() {
        Terminal.printError("\r\u{1B}[2K")
    }
}
