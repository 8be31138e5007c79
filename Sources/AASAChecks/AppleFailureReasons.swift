/// What the reasons Apple's CDN gives in `Apple-Failure-Reason` mean, for the codes seen in the
/// wild (docs/cdn-failure-reasons.md lists the sources). The raw header is always quoted too;
/// a code not listed here is said to be unknown rather than guessed at.
public enum AppleFailureReasons {
    public struct Explanation: Sendable, Equatable {
        public var meaning: String
        public var fix: String
    }

    public static let known: [String: Explanation] = [
        "SWCERR00101": Explanation(
            meaning:
                "Apple's bot got an HTTP answer other than 200 from the origin (the header names it, e.g. 403 Forbidden from a firewall or bot protection, or 404)",
            fix: "serve the file with 200 to Apple's bot (AASA-Bot) and to Apple's address ranges, without challenges"),
        "SWCERR00301": Explanation(
            meaning:
                "Apple's bot timed out fetching the file from the origin (Apple-Failure-Details carries the bot's own error, e.g. \"context deadline exceeded\")",
            fix:
                "answer quickly from everywhere: check that Apple's bot is not slowed or dropped by a firewall, rate limit or geo block, and that every A/AAAA record answers"
        ),
    ]

    /// The code at the start of a reason (`SWCERR00301 Timeout` → `SWCERR00301`).
    public static func code(of reason: String) -> String {
        String(reason.prefix { !$0.isWhitespace })
    }

    /// A sentence for the finding: what the code means and what to do, or that it is unknown.
    public static func explain(_ reason: String) -> String {
        let code = code(of: reason)
        guard let explanation = known[code] else {
            return "\(code) is a reason this audit does not know yet; the header is quoted as Apple sent it."
        }
        return "\(code): \(explanation.meaning). Fix: \(explanation.fix)."
    }
}
