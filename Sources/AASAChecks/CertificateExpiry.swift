import AASAModel
import Foundation

/// What will break soon: the host's TLS certificate (read on each of its connections) expiring
/// within the warning window. Pure: the time is given.
public enum CertificateExpiry {
    /// The standard warning window, in days (`--cert-warn-days`).
    public static let standardWarningDays = 21

    /// The earliest expiry among `host`'s own connections: Apple's CDN is Apple's host, and a
    /// file another host serves (an included file) is that host's, both left out.
    public static func earliest(_ fetches: [FetchRecord], host: String) -> FetchRecord? {
        fetches.filter { $0.location != .cdn && $0.certificateExpires != nil && Self.host(of: $0.url) == host }
            .min { $0.certificateExpires! < $1.certificateExpires! }
    }

    /// The host of an `https://HOST[:PORT]/…` URL, lower case.
    static func host(of url: String) -> String {
        let rest = url.drop { $0 != "/" }.drop { $0 == "/" }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            return String(authority[...end]).lowercased()
        }
        return String(authority.prefix { $0 != ":" }).lowercased()
    }

    /// One warning when the earliest expiry of `host`'s certificates falls within `warningDays`
    /// of `now`.
    public static func findings(_ fetches: [FetchRecord], host: String, now: Date, warningDays: Int) -> [Finding] {
        guard warningDays > 0, let earliest = earliest(fetches, host: host), let expires = earliest.certificateExpires
        else {
            return []
        }
        let left = Int(expires.timeIntervalSince(now).rounded(.down))
        guard left < warningDays * 86_400 else { return [] }
        let seconds = Int(expires.timeIntervalSince1970)
        let when =
            left <= 0
            ? "expired on \(UTCCalendar.date(seconds)) at \(UTCCalendar.clock(seconds)) UTC"
            : "expires on \(UTCCalendar.date(seconds)) at \(UTCCalendar.clock(seconds)) UTC, \(remaining(left))"
        return [
            Finding(
                .aasa(.tlsExpiring), FindingLocation(earliest.location),
                "A TLS certificate of \(host)'s chain \(when) (the warning starts \(warningDays) days ahead, \(OptionName.certificateWarningDays)): once it lapses, iOS cannot fetch the file and links stop opening the app."
            )
        ]
    }

    /// "in 10 days", "in 5 hours"
    static func remaining(_ seconds: Int) -> String {
        let days = seconds / 86_400
        if days >= 2 { return "in \(days) days" }
        let hours = seconds / 3600
        return hours >= 2 ? "in \(hours) hours" : "within two hours"
    }
}
