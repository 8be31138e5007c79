import Foundation
import Synchronization

/// Where a command's text goes: standard output and error, and what they are connected to.
public protocol Console: Sendable {
    func print(_ text: String)
    func printError(_ text: String)
    /// Colour on standard output (a terminal, and NO_COLOR unset).
    var colour: Bool { get }
    /// Standard error is a terminal: a progress line may be drawn there.
    var errorIsTerminal: Bool { get }
}

/// The process's own standard output and error. A stream that cannot be written (a closed
/// pipe, a full disk) is not written again and never ends the process: the command finishes
/// its work (reports, `--stats`) and `StandardConsole.failedStream` lets `main` give its exit
/// status (`ExitStatus.outputFailed`).
public struct StandardConsole: Console {
    public init() {}

    /// The first stream that failed, and why (`strerror`), if one did.
    public static var failedStream: String? { failures.withLock { $0.first?.value } }
    /// Each failed stream's descriptor, with what to say of it; written once per stream.
    private static let failures = Mutex<[(descriptor: Int32, value: String)]>([])

    public func print(_ text: String) {
        Self.write(text, to: STDOUT_FILENO, name: "standard output")
    }

    public func printError(_ text: String) {
        Self.write(text, to: STDERR_FILENO, name: "standard error")
    }

    /// Ignores SIGPIPE, so that a closed pipe is an EPIPE error here rather than the end of the
    /// process wherever it writes. Called once, first thing.
    public static func prepare() {
        signal(SIGPIPE, SIG_IGN)
    }

    private static func write(_ text: String, to descriptor: Int32, name: String) {
        guard !failures.withLock({ $0.contains { $0.descriptor == descriptor } }) else { return }
        var text = text
        let error = text.withUTF8 { bytes -> Int32? in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        guard let error else { return }
        failures.withLock { $0.append((descriptor, "\(name): \(String(cString: strerror(error)))")) }
    }

    /// Colour only on a terminal, and never when NO_COLOR is set (no-color.org).
    public var colour: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    public var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
