import Foundation

/// Runs a program to completion and collects what it printed. Both pipes are drained while it
/// runs (one on a Dispatch thread, never on the concurrency pool), so neither can fill up.
public enum ProcessRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// When the program ended, as a thread of its own saw it (not when a waiter got round to
        /// it: on a starved machine the concurrency pool can be away for seconds).
        public var ended: ContinuousClock.Instant
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
    /// - Parameter standardOutput: where its standard output goes instead of a pipe read here.
    ///
    /// Started with `posix_spawn`, not Foundation's `Process`: on Linux its `run()` over-reads
    /// `/proc/self/fd` entries and crashes now and then in a process with many descriptors open
    /// (swift-corelibs-foundation#5472), which the suite's loopback servers are. The child gets
    /// only its three standard descriptors (every other one is closed in it).
    public static func start(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        openStandardInput: Bool = false, standardOutput: FileHandle? = nil
    ) throws -> Running {
        if !TestLayer.fixtureTools.contains(executable.lastPathComponent) {
            TestLayer.enteringLive("starting \(executable.lastPathComponent)")
        }
        let out = try PipeEnds()
        let err = try PipeEnds()
        let input = openStandardInput ? try PipeEnds() : nil
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input?.read ?? null, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput?.fileDescriptor ?? out.write, 1)
        posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        try SpawnActions.closeFrom(3, in: &actions)
        if let directory { try SpawnActions.changeDirectory(to: directory.path, in: &actions) }
        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        close(out.write)
        close(err.write)
        if let input { close(input.read) }
        guard code == 0 else {
            [out.read, err.read].forEach { close($0) }
            if let input { close(input.write) }
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL)
        }
        return Running(
            pid: pid, stdout: DrainedPipe(out.read), stderr: DrainedPipe(err.read), input: input?.write)
    }

    /// A started program.
    public final class Running: @unchecked Sendable {
        public let processIdentifier: Int32
        let stdout: DrainedPipe
        let stderr: DrainedPipe
        /// The write end of its standard input, held open while it runs.
        let input: Int32?
        private let lock = NSLock()
        /// Its wait status, once reaped.
        private var status: Int32?
        /// When it ended, set by `watcher`, which waits for the end without reaping it.
        private var endedAt: ContinuousClock.Instant?
        private let ended = DispatchSemaphore(value: 0)

        init(pid: pid_t, stdout: DrainedPipe, stderr: DrainedPipe, input: Int32?) {
            processIdentifier = pid
            self.stdout = stdout
            self.stderr = stderr
            self.input = input
            let watcher = Thread { [lock, ended] in
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
                let now = ContinuousClock.now
                lock.withLock { self.endedAt = self.endedAt ?? now }
                ended.signal()
            }
            watcher.name = "process watcher \(pid)"
            watcher.start()
        }

        deinit { if let input { close(input) } }

        /// Whether the program has not ended yet.
        public var isRunning: Bool {
            lock.withLock {
                if status != nil { return false }
                // Not reaped here: `wait()` reaps it once the watcher has seen it end.
                var info = siginfo_t()
                guard waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else {
                    return false
                }
                return info._sifields._sigchld.si_pid == 0  // glibc's si_pid
            }
        }

        /// Sends `signal`; returns when it was sent.
        @discardableResult public func send(_ signal: Int32) -> ContinuousClock.Instant {
            lock.withLock {
                if status == nil { _ = kill(processIdentifier, signal) }
                return ContinuousClock.now
            }
        }

        public func wait() -> Result {
            let out = stdout.wait()
            let err = stderr.wait()
            ended.wait()
            ended.signal()
            let raw = lock.withLock {
                if let status { return status }
                var raw: Int32 = 0
                while waitpid(processIdentifier, &raw, 0) < 0, errno == EINTR {}
                status = raw
                return raw
            }
            // As Foundation reports it: the exit status, or the signal that ended it.
            let exited = raw & 0x7f == 0
            return Result(
                status: exited ? (raw >> 8) & 0xff : raw & 0x7f, stdout: String(decoding: out, as: UTF8.self),
                stderr: String(decoding: err, as: UTF8.self), ended: lock.withLock { endedAt ?? .now })
        }

        /// `wait()` on a Dispatch thread, so that the awaiting task frees its pool thread.
        public func finished() async -> Result {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: self.wait()) }
            }
        }
    }
}

/// A pipe's two ends, close-on-exec.
struct PipeEnds {
    let read: Int32
    let write: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // Children started here close everything past their standard three; others must not
        // inherit these.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        (read, write) = (ends[0], ends[1])
    }
}

/// glibc's posix_spawn file actions that Swift's Glibc module does not declare (glibc 2.29 and
/// 2.34), looked up at run time.
enum SpawnActions {
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    private static func symbol<T>(_ name: String, as type: T.Type) throws -> T {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            throw POSIXError(.ENOSYS)
        }
        return unsafeBitCast(address, to: type)
    }

    static func closeFrom(_ descriptor: Int32, in actions: inout posix_spawn_file_actions_t) throws {
        let call = try symbol("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self)
        guard call(&actions, descriptor) == 0 else { throw POSIXError(.EINVAL) }
    }

    static func changeDirectory(to path: String, in actions: inout posix_spawn_file_actions_t) throws {
        let call = try symbol("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self)
        guard call(&actions, path) == 0 else { throw POSIXError(.EINVAL) }
    }
}

/// A pipe read to its end on a Dispatch thread (the descriptor is closed when read).
final class DrainedPipe: @unchecked Sendable {
    private let group = DispatchGroup()
    /// Written once by the reading thread before `group` leaves; read after `wait()`.
    private var data = Data()

    init(_ descriptor: Int32) {
        DispatchQueue.global().async(group: group) { [self] in
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count > 0 {
                    data.append(contentsOf: buffer[..<count])
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            close(descriptor)
        }
    }

    func wait() -> Data {
        group.wait()
        return data
    }
}
