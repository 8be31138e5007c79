import Foundation

/// A refusal: the status, why, and the headers it needs (`Retry-After`, `WWW-Authenticate`).
/// Routing, the middleware and every handler throw it; it is encoded in one place, `response`,
/// as `{"status": 404, "error": "why"}` (docs/openapi.json's Error). A page for people shows the
/// same reason in its own layout (`/check`).
public struct HTTPError: Error, Sendable, Equatable {
    public var status: Int
    public var reason: String
    public var retryAfter: Int?
    public var authenticate: String?

    public init(_ status: Int, _ reason: String, retryAfter: Int? = nil, authenticate: String? = nil) {
        self.status = status
        self.reason = reason
        self.retryAfter = retryAfter
        self.authenticate = authenticate
    }

    /// The headers of the refusal besides its type.
    var headers: [(String, String)] {
        var headers: [(String, String)] = [("Cache-Control", "no-store")]
        if let retryAfter { headers.append(("Retry-After", String(retryAfter))) }
        if let authenticate { headers.append(("WWW-Authenticate", authenticate)) }
        return headers
    }

    /// The answer, as JSON.
    public var response: ServeResponse {
        struct Problem: Encodable {
            var status: Int
            var error: String
        }
        let body = (try? JSONEncoder().encode(Problem(status: status, error: reason))) ?? Data()
        return ServeResponse(status: status, type: "application/json", bytes: Array(body) + [0x0A], headers: headers)
    }
}
