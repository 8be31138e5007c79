import Foundation

/// PyPI's `mcp` (the reference Python SDK, 2.3.0), as a client of `aasa-audit mcp`: runs a
/// Python script that drives the server over stdio with `ClientSession` and prints one JSON
/// line, which the test reads. Installed by `Scripts/install-deps.sh test` in a virtual
/// environment of its own, beside Debian's jsonschema.
public enum MCPClient {
    public static var python: String {
        let cache =
            ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".cache")
        return (cache as NSString).appendingPathComponent("aasa-audit/mcp-client/bin/python")
    }

    /// Whether it can run here. On CI (CI=true) it must: `.ci/run` installs it.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: python) || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    public static let unavailableMessage =
        "PyPI's mcp client is not installed (Scripts/install-deps.sh test): skipping"

    public struct Failed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `script` with `arguments` (its sys.argv[1...]); the last line it printed, as JSON.
    public static func run(_ script: String, _ arguments: [String]) async throws -> Data {
        try await output(of: start(script, arguments).finished())
    }

    /// Starts `script`, for a test that watches something while it runs.
    public static func start(_ script: String, _ arguments: [String]) throws -> ProcessRunner.Running {
        try ProcessRunner.start(URL(fileURLWithPath: python), ["-c", script] + arguments)
    }

    /// The last line a finished run printed, as JSON.
    public static func output(of result: ProcessRunner.Result) throws -> Data {
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last else {
            throw Failed(description: "the MCP client failed (\(result.status)): \(result.stdout)\(result.stderr)")
        }
        return Data(line.utf8)
    }
}
