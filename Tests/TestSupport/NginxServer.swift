import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Debian's nginx, started on 127.0.0.1 for one test: HTTPS and HTTP/2 (as most sites serve
/// their association files) with a certificate of the test CA, serving the files of a folder.
/// A real server for what the suite's own servers do not reproduce: nginx sends a response's
/// DATA frames as its own writes, in its own sizes (`http2_chunk_size`).
public final class NginxServer: Sendable {
    public static let path = "/usr/sbin/nginx"

    /// Whether it can run here. On CI (CI=true) it must: `Scripts/install-deps.sh test` installs it.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: path) || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    public static let unavailableMessage = "nginx is not installed (apt-get install nginx-light): skipping"

    public let port: Int
    private let running: ProcessRunner.Running
    private let directory: TemporaryDirectory

    public struct DidNotStart: Error, CustomStringConvertible {
        public var description: String
    }

    /// Serves `files` (path on the site → body) as `application/json`.
    public init(identity: ServerIdentity, files: [String: String]) async throws {
        let directory = try TemporaryDirectory()
        self.directory = directory
        let root = directory.url.appendingPathComponent("www")
        for (path, body) in files {
            let file = root.appendingPathComponent(String(path.drop { $0 == "/" }))
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try body.write(to: file, atomically: true, encoding: .utf8)
        }
        try identity.certificatePEM.write(
            to: directory.url.appendingPathComponent("server.pem"), atomically: true, encoding: .utf8)
        try identity.privateKeyPEM.write(
            to: directory.url.appendingPathComponent("server.key"), atomically: true, encoding: .utf8)
        var output = ""
        // Another process may take the port meanwhile: then again, with another.
        for _ in 0..<3 {
            let port = try LocalDaemon.freePort()
            let folder = directory.url.path
            let configuration = """
                worker_processes 1;
                daemon off;
                pid \(folder)/nginx.pid;
                error_log \(folder)/error.log;
                events { worker_connections 64; }
                http {
                    access_log off;
                    default_type application/json;
                    client_body_temp_path \(folder)/body;
                    proxy_temp_path \(folder)/proxy;
                    fastcgi_temp_path \(folder)/fastcgi;
                    uwsgi_temp_path \(folder)/uwsgi;
                    scgi_temp_path \(folder)/scgi;
                    server {
                        listen 127.0.0.1:\(port) ssl http2;
                        ssl_certificate \(folder)/server.pem;
                        ssl_certificate_key \(folder)/server.key;
                        root \(root.path);
                    }
                }

                """
            let file = directory.url.appendingPathComponent("nginx.conf")
            try configuration.write(to: file, atomically: true, encoding: .utf8)
            let running = try ProcessRunner.start(URL(fileURLWithPath: Self.path), ["-c", file.path, "-p", folder])
            for _ in 0..<2400 where running.isRunning {
                if Self.accepts(port: port) {
                    (self.running, self.port) = (running, port)
                    return
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            running.send(SIGTERM)
            output =
                running.wait().stderr
                + ((try? String(contentsOf: directory.url.appendingPathComponent("error.log"), encoding: .utf8)) ?? "")
        }
        directory.remove()
        throw DidNotStart(description: "nginx did not start: \(output)")
    }

    /// `--connect-to` for every host to this server.
    public var connectTo: String { "::127.0.0.1:\(port)" }

    /// Stops it and removes its folder.
    public func stop() {
        running.send(SIGQUIT)
        _ = running.wait()
        directory.remove()
    }

    /// Whether something accepts a connection on 127.0.0.1's `port`.
    static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
