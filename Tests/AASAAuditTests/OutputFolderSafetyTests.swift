import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// A folder others can write into, used by a job that may run as root: planted links, FIFOs,
/// devices and look-alike folders are refused or left alone, never followed, replaced or
/// deleted (issue 25, items 4 to 9).
@Suite(.live, .tags(.live)) struct OutputFolderSafetyTests {
    let world: TestWorld
    var root: URL { world.directory.url }
    var out: URL { root.appendingPathComponent("out") }

    init() throws {
        world = try TestWorld()
        try "good.aasa.test \(TestWorld.appID)\n".write(
            to: root.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    }

    func audit(_ extra: [String] = [], environment: [String: String] = [:]) async throws -> ProcessRunner.Result {
        let arguments =
            [
                "audit", "--out", out.path, "--connect-to", world.connectTo, "--cacert", world.caFile, "--timeout",
                "10", "--no-cdn",
            ]
            + LoopbackNetworks.allowArguments + extra
        let running = try ProcessRunner.start(
            CommandLineTests.binary, arguments, in: root,
            environment: environment.merging(["NO_COLOR": "1"]) { first, _ in first })
        // A hang is a failure, not a stuck suite.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            running.send(SIGKILL)
        }
        defer { watchdog.cancel() }
        return await running.finished()
    }

    func history(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.run(
            CommandLineTests.binary, ["history", "--out", out.path] + arguments, in: root,
            environment: ["NO_COLOR": "1"])
    }

    @Test(arguments: [".lock", "latest.json", "history.json", "index.html"])
    func aPlantedLinkIsRefusedAndItsTargetUntouched(name: String) async throws {
        let target = root.appendingPathComponent("precious.txt")
        try "keep me\n".write(to: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent(name), withDestinationURL: target)
        let result = try await audit()
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("is a symbolic link"), "\(result.stderr)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me\n")
        let index = try await history(["--write-index"])
        #expect(index.status == 2 && index.stderr.contains("symbolic link"), "\(index.stderr)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me\n")
    }

    @Test(arguments: ["latest.json", "history.json", ".lock"])
    func aPlantedFIFOIsRefusedAtOnce(name: String) async throws {
        #expect(mkfifo(out.appendingPathComponent(name).path, 0o644) == 0)
        let result = try await audit()
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("is a FIFO"), "\(result.stderr)")
        let read = try await history([])
        #expect(read.status == 2, "\(read.stdout)\(read.stderr)")
    }

    @Test func aHistoryLinkPlantedAfterARunIsNotAppendedThrough() async throws {
        #expect(try await audit().status == 0)
        let target = root.appendingPathComponent("elsewhere.json")
        let history = out.appendingPathComponent("history.json")
        try FileManager.default.moveItem(at: history, to: target)
        try FileManager.default.createSymbolicLink(at: history, withDestinationURL: target)
        let before = try Data(contentsOf: target)
        let result = try await audit()
        #expect(result.status == 2 && result.stderr.contains("history.json"), "\(result.stderr)")
        #expect(try Data(contentsOf: target) == before)
    }

    @Test func aBusyLockIsReadInBoundsAndItsControlsEscaped() async throws {
        // The lock held by another process, its note hostile: 4 MB with escape sequences.
        let lock = out.appendingPathComponent(".lock")
        try Data(("\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2J" + String(repeating: "x", count: 4 << 20)).utf8).write(to: lock)
        // The holder keeps the lock until it is stopped (no fork: stopping it frees the lock): on a
        // loaded machine this test's next step may run many seconds late. It says when it has the
        // lock; trying the lock here would take it from under a waiting holder.
        let held = root.appendingPathComponent("held")
        let holder = try ProcessRunner.start(
            URL(fileURLWithPath: "/usr/bin/flock"),
            ["--no-fork", lock.path, "-c", "touch '\(held.path)' && exec sleep 600"])
        defer { holder.send(SIGKILL) }  // a test thread's blocked signals are the child's too
        func holds() -> Bool { FileManager.default.fileExists(atPath: held.path) }
        for _ in 0..<600 {
            guard !holds(), holder.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(holds(), "the holder never took the lock (running: \(holder.isRunning))")
        let result = try await audit()
        #expect(result.status == 2)
        #expect(result.stderr.contains("another audit is writing"), "\(result.stderr.prefix(500))")
        #expect(!result.stderr.contains("\u{1B}"), "an escape reached the terminal")
        #expect(result.stderr.utf8.count < 1_000, "\(result.stderr.utf8.count) bytes")
    }

    @Test func keepPrunesOnlyFoldersThisToolMade() async throws {
        // Look-alikes: fullwidth and Arabic-Indic digits (Swift's \d matches them), a link to
        // a folder, a folder with the right name but no mark and no report.
        let fullwidth = "２０９９-１２-３１T２３５９５９Z"
        let arabic = "٢٠٢٠-٠١-٠١T٠٠٠٠٠٠Z"
        let unmarked = "2001-01-01T000000Z"
        for name in [fullwidth, arabic, unmarked] {
            let folder = out.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "user data".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        }
        let linked = root.appendingPathComponent("linked-target")
        try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: true)
        try "user data".write(to: linked.appendingPathComponent("report.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: out.appendingPathComponent("2000-01-01T000000Z"), withDestinationURL: linked)

        let first = try await audit(["--keep", "1"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let second = try await audit(["--keep", "1"])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        for name in [fullwidth, arabic, unmarked, "2000-01-01T000000Z"] {
            #expect(names.contains(name), "\(name) was deleted")
        }
        #expect(FileManager.default.fileExists(atPath: linked.appendingPathComponent("report.json").path))
        // The tool's own: exactly one run folder left, the newest, which latest.json names.
        let runs = names.filter {
            $0.hasPrefix("20") && $0.count >= 18 && $0.allSatisfy(\.isASCII) && $0 != unmarked
                && $0 != "2000-01-01T000000Z"
        }
        #expect(runs.count == 1, "\(runs)")
        #expect(
            FileManager.default.fileExists(
                atPath: out.appendingPathComponent(runs[0]).appendingPathComponent(".aasa-audit-run").path))
    }

    @Test func historyShowsHostileCodesEscaped() async throws {
        #expect(try await audit().status == 0)
        let file = out.appendingPathComponent("history.json")
        var text = try String(contentsOf: file, encoding: .utf8)
        // A code rewritten into terminal escapes, a clipboard write and a bidi override.
        text = text.replacingOccurrences(
            of: "[\"good.aasa.test\",\"pass\"]",
            with: "[\"good.aasa.test\",\"fail\",\"\\u001b]52;c;cHduZWQ=\\u0007\\u202e\\u001b[31mevil\"]")
        #expect(text.contains("evil"))
        try text.write(to: file, atomically: true, encoding: .utf8)
        let result = try await history(["good.aasa.test"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("evil"), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{202E}"), "\(result.stdout)")
    }

    @Test func aDeviceNamedAsAnOutputIsWrittenInPlaceNeverReplaced() async throws {
        let result = try await audit(["--junit", "/dev/null", "--metrics", "/dev/null", "--stats", "/dev/null"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        var status = stat()
        #expect(
            lstat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "/dev/null is no longer a device")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.hasPrefix(".null") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        // A directory or a FIFO nobody reads is refused before the run.
        let fifo = root.appendingPathComponent("unread.fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        for destination in [root.path, fifo.path] {
            let refused = try await audit(["--junit", destination])
            #expect(refused.status == 2, "\(destination): \(refused.stderr)")
            #expect(
                refused.stderr.contains("not a regular file") || refused.stderr.contains("nobody reads"),
                "\(refused.stderr)")
        }
    }

    @Test func aSpoolNamePlantedInTheTemporaryFolderIsNotWrittenTo() async throws {
        // The metrics' duration spool lives in TMPDIR, a folder anyone can write into: a FIFO
        // planted under its name, with a reader waiting, must get nothing.
        let temporary = root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let planted = temporary.appendingPathComponent("aasa-audit-metrics-durations")
        #expect(mkfifo(planted.path, 0o644) == 0)
        let reader = open(planted.path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let metrics = root.appendingPathComponent("metrics.prom")
        let result = try await audit(["--metrics", metrics.path], environment: ["TMPDIR": temporary.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        var byte: UInt8 = 0
        #expect(read(reader, &byte, 1) <= 0, "the planted FIFO received the spool")
        #expect(try String(contentsOf: metrics, encoding: .utf8).contains("aasa_audit_fetch_duration_seconds"))
    }
}
