import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real program the suite talks to (Alertmanager, node_exporter), started on 127.0.0.1 on a
/// port the kernel has just handed out and let go, and ready once `readyPath` answers 200.
public final class LocalDaemon: Sendable {
    public let running: ProcessRunner.Running
    public let port: Int

    public struct DidNotStart: Error, CustomStringConvertible {
        public var description: String
    }

    /// - Parameter arguments: the program's arguments for the port it is to listen on.
    public init(_ executable: String, readyPath: String, arguments: (Int) -> [String]) async throws {
        var output = ""
        // Another process may take the port meanwhile: then again, with another.
        for _ in 0..<3 {
            let port = try Self.freePort()
            let running = try ProcessRunner.start(URL(fileURLWithPath: executable), arguments(port))
            for _ in 0..<2400 where running.isRunning {
                if (try? await HTTPTestClient.get(port: port, readyPath))?.status == 200 {
                    (self.running, self.port) = (running, port)
                    return
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            running.send(SIGTERM)
            output = running.wait().stderr
        }
        throw DidNotStart(description: "\(executable) did not start: \(output)")
    }

    /// Ends the program; what it printed.
    @discardableResult public func stop() -> ProcessRunner.Result {
        running.send(SIGTERM)
        return running.wait()
    }

    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Debian's node_exporter (`prometheus-node-exporter`) reading one folder with its textfile
/// collector alone: what a team's node_exporter makes of a `--metrics` file.
public enum NodeExporter {
    public static let path = "/usr/bin/prometheus-node-exporter"

    /// Whether it can run here. On CI (CI=true) it must: `.ci/run` installs it.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: path) || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    public static let unavailableMessage =
        "node_exporter is not installed (apt-get install prometheus-node-exporter): skipping"

    /// What it exposes after reading the `.prom` files of `folder`, and what it logged.
    public static func scrape(textfiles folder: URL) async throws -> (exposed: String, log: String) {
        let daemon = try await LocalDaemon(path, readyPath: "/metrics") { port in
            [
                "--collector.disable-defaults", "--collector.textfile",
                "--collector.textfile.directory=\(folder.path)", "--web.listen-address=127.0.0.1:\(port)",
            ]
        }
        let exposed = try await HTTPTestClient.get(port: daemon.port, "/metrics").text
        let ended = daemon.stop()
        return (exposed, ended.stdout + ended.stderr)
    }
}
