import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain HTTP/1.1 client for tests of `serve`: raw bytes on a socket to 127.0.0.1, so that
/// a test sees exactly what the server sends (and can send what no library would).
public enum HTTPTestClient {
    public struct Response: Sendable {
        public var status: Int
        /// Lower-case names.
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// One request on its own connection (`Connection: close`).
    public static func get(
        port: Int, _ target: String, headers: [String: String] = [:], method: String = "GET"
    ) async throws -> Response {
        // Host: 127.0.0.1 unless the caller names another.
        let host = headers.keys.contains { $0.lowercased() == "host" } ? "" : "Host: 127.0.0.1\r\n"
        var request = "\(method) \(target) HTTP/1.1\r\n\(host)Connection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        let raw = try await exchange(port: port, Array((request + "\r\n").utf8))
        do {
            return try parse(raw)
        } catch {
            throw ClientError(description: "\(method) \(target.prefix(80)): \(error)")
        }
    }

    /// Sends `bytes`, reads until the server closes (or `timeout` seconds pass).
    public static func exchange(port: Int, _ bytes: [UInt8], timeout: Double = 120) async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try blockingExchange(port: port, bytes, timeout: timeout) })
            }
        }
    }

    /// Opens a connection and leaves it open, sending nothing; the descriptor is the caller's.
    public static func openIdle(port: Int) throws -> Int32 {
        try connect(port: port)
    }

    /// `isClosed(_:within:)` on a thread of its own: an async test must not hold one of the
    /// concurrency pool's few threads for seconds (the other tests' tasks wait behind it).
    public static func closes(_ descriptor: Int32, within seconds: Double) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: isClosed(descriptor, within: seconds)) }
        }
    }

    /// Whether the server has closed an idle connection (a read gives end of file). Blocks for
    /// up to `seconds`: from an async test, use `closes(_:within:)`.
    public static func isClosed(_ descriptor: Int32, within seconds: Double) -> Bool {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) == 0
    }

    struct ClientError: Error, CustomStringConvertible {
        var description: String
    }

    static func connect(port: Int) throws -> Int32 {
        TestLayer.enteringLive("a loopback connection")
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ClientError(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw ClientError(description: "connect: \(errno)")
        }
        return descriptor
    }

    static func blockingExchange(port: Int, _ bytes: [UInt8], timeout: Double) throws -> [UInt8] {
        let descriptor = try connect(port: port)
        defer { close(descriptor) }
        var timeval = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            // A server may answer and close before reading everything (a request too large).
            if count <= 0 { break }
            sent += count
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[..<count]
        }
        return received
    }

    /// The first response in `raw` (its body by Content-Length, or decoded from chunks).
    public static func parse(_ raw: [UInt8]) throws -> Response {
        guard let end = raw.firstRange(of: Array("\r\n\r\n".utf8)) else {
            throw ClientError(description: "no response head in \(raw.count) bytes")
        }
        let head = String(decoding: raw[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = head[0].split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw ClientError(description: "bad status line \(head[0])")
        }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            return Response(status: status, headers: headers, body: dechunked(raw[end.upperBound...]))
        }
        let length = headers["content-length"].flatMap(Int.init) ?? (raw.count - end.upperBound)
        let body = Array(raw[end.upperBound...].prefix(length))
        return Response(status: status, headers: headers, body: body)
    }

    /// A chunked body's data (a hexadecimal size line, that many bytes, CR LF; to the chunk of
    /// size 0 or the end of what arrived).
    static func dechunked(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        var body: [UInt8] = []
        var rest = raw
        while let line = rest.firstRange(of: Array("\r\n".utf8)) {
            let sizeText = String(decoding: rest[..<line.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size > 0 else { break }
            let data = rest[line.upperBound...].prefix(size)
            body += data
            rest = rest[(line.upperBound + data.count)...].dropFirst(2)
        }
        return body
    }

    /// Every response in `raw`, one after another (keep-alive answers to pipelined requests).
    public static func parseAll(_ raw: [UInt8]) -> [Response] {
        var responses: [Response] = []
        var rest = raw[...]
        while let response = try? parse(Array(rest)) {
            responses.append(response)
            guard let end = rest.firstRange(of: Array("\r\n\r\n".utf8)) else { break }
            rest = rest[(end.upperBound + response.body.count)...]
        }
        return responses
    }
}
