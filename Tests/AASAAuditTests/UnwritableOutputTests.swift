import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// Standard output that cannot be written (a full disk, a closed pipe) ends no command early
/// and crashes none: the reports and `--stats` are written, and the exit status says what
/// happened (issue 25, item 11).
@Suite(.live, .tags(.live)) struct UnwritableOutputTests {
    /// Runs the binary with standard output on `/dev/full` (ENOSPC) or a pipe whose reader is
    /// gone (EPIPE); returns the status and standard error.
    static func run(_ arguments: [String], stdout kind: String, in directory: URL) async throws -> (
        status: Int32, stderr: String
    ) {
        let closedPipe = Pipe()
        let output: FileHandle
        if kind == "full" {
            output = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        } else {
            try closedPipe.fileHandleForReading.close()
            output = closedPipe.fileHandleForWriting
        }
        let result = try await ProcessRunner.start(
            CommandLineTests.binary, arguments, in: directory, environment: ["NO_COLOR": "1"], standardOutput: output
        ).finished()
        try output.close()
        return (result.status, result.stderr)
    }

    @Test(arguments: ["full", "closed pipe"])
    func everyCommandEndsWithADefinedStatus(stdout: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let good = directory.url.appendingPathComponent("good.json")
        try TestWorld.validFile.write(to: good, atomically: true, encoding: .utf8)
        let bad = directory.url.appendingPathComponent("bad.json")
        try "{".write(to: bad, atomically: true, encoding: .utf8)
        for (arguments, expected) in [
            (["explain", "--codes"], 5), (["lint", good.path], 5), (["lint", bad.path], 1), (["--help"], 0),
        ] {
            let result = try await Self.run(arguments, stdout: stdout, in: directory.url)
            // --help is ArgumentParser's own print: buffered, its loss not seen.
            if arguments != ["--help"] {
                #expect(Int(result.status) == expected, "\(arguments): \(result.status) \(result.stderr)")
            } else {
                #expect(result.status == 0 || result.status == 5, "\(result.status)")
            }
            if expected == 5 { #expect(result.stderr.contains("cannot write standard output"), "\(result.stderr)") }
        }
    }

    @Test func anAuditWritesItsReportsAndStatsWhenStdoutIsFull() async throws {
        let world = try TestWorld()
        try "good.aasa.test \(TestWorld.appID)\n".write(
            to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let stats = world.directory.url.appendingPathComponent("stats.json")
        let arguments =
            [
                "audit", "--out", "out", "--stats", stats.path, "--connect-to", world.connectTo, "--cacert",
                world.caFile,
                "--timeout", "10", "--no-cdn",
            ] + LoopbackNetworks.allowArguments
        let result = try await Self.run(arguments, stdout: "full", in: world.directory.url)
        #expect(result.status == 5, "\(result.stderr)")
        let out = world.directory.url.appendingPathComponent("out")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("latest.json").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("history.json").path))
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as? [String: Any]
        #expect(written?["domains"] as? Int == 1, "\(String(describing: written))")
    }

    /// A report that fills the disk once the run has begun (here --junit and --metrics to
    /// /dev/full, written in place as devices are) names the option, the file and the system's
    /// reason, with this machine's exit status (3), not a usage error's and not Foundation's
    /// error dump (issue 46, item 9). One that cannot be opened at all is named before any fetch.
    @Test func aFullDiskMidRunNamesTheFileAndItsCause() async throws {
        let world = try TestWorld()
        try "good.aasa.test\n".write(
            to: world.directory.url.appendingPathComponent("domains.txt"), atomically: true, encoding: .utf8)
        let base =
            ["audit", "--connect-to", world.connectTo, "--cacert", world.caFile, "--no-cdn"]
            + LoopbackNetworks.allowArguments
        for option in ["--junit", "--metrics"] {
            let result = try await ProcessRunner.run(
                CommandLineTests.binary, base + [option, "/dev/full"], in: world.directory.url)
            #expect(result.status == 3, "\(option): \(result.status) \(result.stderr)")
            #expect(
                result.stderr.contains("cannot write \(option) /dev/full: No space left on device"),
                "\(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("Code="))
        }
        let missing = try await ProcessRunner.run(
            CommandLineTests.binary, base + ["--metrics", "/nonexistent-folder/aasa.prom"], in: world.directory.url)
        #expect(missing.status == 2, "\(missing.stderr)")
        #expect(missing.stderr.contains("cannot write --metrics /nonexistent-folder/aasa.prom: "), "\(missing.stderr)")
        #expect(!missing.stderr.contains("Code="), "\(missing.stderr)")
    }
}
