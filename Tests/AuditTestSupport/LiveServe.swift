import AASAFetch
import AASAModel
import AASAServe
import Foundation
import Synchronization
import TestSupport

/// `serve` on an ephemeral port of 127.0.0.1, its access log kept: the live-port tests'
/// server (`Tests/AASAServeTests/ServeLiveTests.swift`, and the metrics promtool reads).
public final class LiveServe: Sendable {
    public let app: ServeApp
    public let server: HTTPServer
    public let port: Int
    public let task: Task<Void, any Error>
    public let log = LogLines()

    public init(_ settings: ServeSettings) async throws {
        var settings = settings
        settings.port = 0
        let app = try ServeApp(settings: settings)
        let log = log
        let server = HTTPServer(app: app, settings: settings) { line in log.lines.withLock { $0.append(line) } }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task { try await server.run { continuation.yield($0) } }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        (self.app, self.server, self.port, self.task) = (app, server, port, task)
    }

    public func get(_ target: String, headers: [String: String] = [:]) async throws -> HTTPTestClient.Response {
        try await HTTPTestClient.get(port: port, target, headers: headers)
    }

    public func stop() async {
        server.stop()
        _ = try? await task.value
        app.shutdown()
    }

    public final class LogLines: Sendable {
        public let lines = Mutex<[String]>([])
    }

    /// serve over the world's servers (or its `out`), checks of two seconds, origin only.
    public static func settings(_ world: TestWorld, out: URL? = nil, allowLoopback: Bool = true) -> ServeSettings {
        var fetcher = world.fetcherConfiguration(timeout: 2)
        if !allowLoopback { fetcher.addressPolicy = .publicOnly }
        var settings = ServeSettings(
            output: (out ?? world.directory.url.appendingPathComponent("reports")).path, fetcher: fetcher,
            tool: ToolInfo(version: "test"))
        settings.deviceView = .originOnly
        return settings
    }
}
