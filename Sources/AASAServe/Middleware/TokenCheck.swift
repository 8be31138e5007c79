import AASAModel
import Synchronization

/// `Authorization: Bearer TOKEN` for the routes that need it (`Route.needsToken`), when the
/// server has a token (`--token-file`). Compared without stopping at the first difference;
/// wrong or missing tokens are limited per client, so guessing costs a minute per ten tries.
final class TokenCheck: Sendable {
    let token: String?
    private let failures: Mutex<RateLimiter>
    private let seconds: @Sendable () -> Double

    /// Wrong or missing tokens a client may send a minute; more are answered 429 unread.
    static let failuresPerMinute = 10.0

    init(token: String?, seconds: @escaping @Sendable () -> Double) {
        self.token = token
        self.seconds = seconds
        failures = Mutex(RateLimiter(perMinute: Self.failuresPerMinute, burst: Self.failuresPerMinute))
    }

    func check(authorization: String?, client: String) throws(HTTPError) {
        guard let token else { return }
        let given = authorization.flatMap { value -> String? in
            value.lowercased().hasPrefix("bearer ") ? String(value.dropFirst(7)) : nil
        }
        if let given, Self.equalInConstantTime(Array(given.utf8), Array(token.utf8)) { return }
        let now = seconds()
        if let wait = failures.withLock({ $0.take(client, now: now) }) {
            throw HTTPError(
                429, "Too many requests without the right token: try again later.",
                retryAfter: Int(wait.rounded(.up)))
        }
        throw HTTPError(
            401, "This path needs Authorization: Bearer TOKEN (the server's \(OptionName.tokenFile)).",
            authenticate: "Bearer")
    }

    /// Compares without stopping at the first difference.
    static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}
