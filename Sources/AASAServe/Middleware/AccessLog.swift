import AASAModel
import Foundation

/// The access log: one line per request answered (or not parsed), with the client as parsed,
/// the target in printable ASCII, the status, the length and the time taken.
enum AccessLog {
    static func line(
        client: String, method: String, target: String, status: Int, length: Int, elapsed: Duration
    ) -> String {
        "\(Date.now.formatted(.iso8601)) \(client) \(method) \(loggable(target)) \(status) \(length) \(String(format: "%.1f", elapsed.seconds * 1000))ms"
    }

    /// A request NIO's parser refused (it answered 400 and closed the connection).
    static func unparsed(client: String, error: any Error) -> String {
        "\(Date.now.formatted(.iso8601)) \(client) - - 400 0 - (request not parsed: \(error))"
    }

    /// A request target as the log shows it: printable ASCII only (others percent-encoded),
    /// at most 300 bytes.
    static func loggable(_ target: String) -> String {
        var out = ""
        for byte in target.utf8.prefix(300) {
            if byte > 0x20, byte < 0x7F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return target.utf8.count > 300 ? out + "…" : out
    }
}
