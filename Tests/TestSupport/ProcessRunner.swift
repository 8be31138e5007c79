import Foundation

/// Runs a program to completion and collects what it printed. Both pipes are drained while it
/// runs (one on a Dispatch thread, never on the concurrency pool), so neither can fill up.
public enum ProcessRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs a short-lived tool, blocking the caller (for quick helpers such as gzip or python).
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil
    ) throws -> Result {
        try start(executable, arguments, in: directory, environment: environment).wait()
    }

    /// Runs a program without blocking a thread of the concurrency pool while it runs.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil
    ) async throws -> Result {
        try await start(executable, arguments, in: directory, environment: environment).finished()
    }

    /// Starts a program; `wait()` collects what it printed once it ends.
    /// - Parameter openStandardInput: standard input is a pipe nobody writes to or closes (a
    ///   reader waits forever), not the null device (a reader sees its end at once).
    public static func start(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        openStandardInput: Bool = false
    ) throws -> Running {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = openStandardInput ? Pipe() : nil
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
        return Running(process: process, stdout: DrainedPipe(out), stderr: DrainedPipe(err), input: input)
    }

    /// A started program.
    public final class Running: @unchecked Sendable {
        let process: Process
        let stdout: DrainedPipe
        let stderr: DrainedPipe
        /// Held open while the program runs.
        let input: Pipe?

        init(process: Process, stdout: DrainedPipe, stderr: DrainedPipe, input: Pipe? = nil) {
            self.process = process
            self.stdout = stdout
            self.stderr = stderr
            self.input = input
        }

        public var processIdentifier: Int32 { process.processIdentifier }

        /// Whether the program has not ended yet.
        public var isRunning: Bool { process.isRunning }

        public func send(_ signal: Int32) {
            kill(process.processIdentifier, signal)
        }

        public func wait() -> Result {
            let out = stdout.wait()
            let err = stderr.wait()
            process.waitUntilExit()
            return Result(
                status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                stderr: String(decoding: err, as: UTF8.self))
        }

        /// `wait()` on a Dispatch thread, so that the awaiting task frees its pool thread.
        public func finished() async -> Result {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: self.wait()) }
            }
        }
    }
}

/// A pipe read to its end on a Dispatch thread.
final class DrainedPipe: @unchecked Sendable {
    private let group = DispatchGroup()
    /// Written once by the reading thread before `group` leaves; read after `wait()`.
    private var data = Data()

    init(_ pipe: Pipe) {
        DispatchQueue.global().async(group: group) { [self] in
            data = pipe.fileHandleForReading.readDataToEndOfFile()
        }
    }

    func wait() -> Data {
        group.wait()
        return data
    }
}
