import Foundation

/// Prometheus' own checker (`promtool`, Debian's `prometheus` package): rules, rule unit tests
/// and the exposition format's lint, run as the real program.
public enum Promtool {
    public static let path: String? = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether it can run here. On CI (CI=true) it must: `.ci/run` installs it.
    public static var isAvailable: Bool { path != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    public static let unavailableMessage = "promtool is not installed (apt-get install prometheus): skipping"

    /// Runs promtool with `arguments` (and `input` on its standard input): its status and output.
    public static func run(_ arguments: [String], input: String? = nil) async throws -> (status: Int32, output: String)
    {
        guard let path else { return (127, unavailableMessage) }
        var stdin: URL?
        if let input {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("promtool-\(UUID().uuidString)")
            try input.write(to: file, atomically: true, encoding: .utf8)
            stdin = file
        }
        defer { stdin.map { try? FileManager.default.removeItem(at: $0) } }
        // `check metrics` reads its standard input: the shell hands it the file.
        if let stdin {
            let script = "exec \"$0\" \"$@\" < \"$PROMTOOL_INPUT\""
            let result = try await ProcessRunner.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", script, path] + arguments,
                environment: ProcessInfo.processInfo.environment.merging(["PROMTOOL_INPUT": stdin.path]) { $1 })
            return (result.status, result.stdout + result.stderr)
        }
        let result = try await ProcessRunner.run(URL(fileURLWithPath: path), arguments)
        return (result.status, result.stdout + result.stderr)
    }
}
