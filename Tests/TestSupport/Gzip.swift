import Foundation

/// gzip compression by the system's `gzip`, for bodies with `Content-Encoding: gzip`.
public enum Gzip {
    public static func compress(_ bytes: [UInt8]) async throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("body")
        try Data(bytes).write(to: file)
        let result = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/gzip"), ["-k", "-9", file.path])
        guard result.status == 0 else { throw CocoaError(.fileWriteUnknown) }
        return Array(try Data(contentsOf: directory.url.appendingPathComponent("body.gz")))
    }
}
