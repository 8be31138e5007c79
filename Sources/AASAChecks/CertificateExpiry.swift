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
        guard warningDays > 0, let (earliest, when) = expiring(fetches, host: host, now: now, days: warningDays) else {
            return []
        }
        return [
            Finding(
                .aasa(.tlsExpiring), FindingLocation(earliest.location),
                "A TLS certificate of \(host)'s chain \(when) (the warning starts \(warningDays) days ahead, \(OptionName.certificateWarningDays)): once it lapses, iOS cannot fetch the file and links stop opening the app."
            )
        ]
    }

    /// A kind's own warning, when its client acts on the certificate's expiry sooner than the
    /// house's window (Apple Pay re-verifies 30 days ahead).
    public static func findings(_ fetches: [FetchRecord], host: String, now: Date, watch: CertificateWatch)
        -> [Finding]
    {
        let own = fetches.filter { $0.location == watch.location }
        guard let (_, when) = expiring(own, host: host, now: now, days: watch.days) else { return [] }
        return [
            Finding(
                watch.code, FindingLocation(watch.location),
                "The TLS certificate of \(host) \(when) (\(watch.days) days ahead): \(watch.consequence)")
        ]
    }

    /// The earliest of `host`'s certificates when it ends within `days` of `now`, and when, in words.
    static func expiring(_ fetches: [FetchRecord], host: String, now: Date, days: Int) -> (FetchRecord, String)? {
        guard let earliest = earliest(fetches, host: host), let expires = earliest.certificateExpires else {
            return nil
        }
        let left = Int(expires.timeIntervalSince(now).rounded(.down))
        guard left < days * 86_400 else { return nil }
        let seconds = Int(expires.timeIntervalSince1970)
        let when =
            left <= 0
            ? "expired on \(UTCCalendar.date(seconds)) at \(UTCCalendar.clock(seconds)) UTC"
            : "expires on \(UTCCalendar.date(seconds)) at \(UTCCalendar.clock(seconds)) UTC, \(remaining(left))"
        return (earliest, when)
    }

    /// "in 10 days", "in 5 hours"
    static func remaining(_ seconds: Int) -> String {
        let days = seconds / 86_400
        if days >= 2 { return "in \(days) days" }
        let hours = seconds / 3600
        return hours >= 2 ? "in \(hours) hours" : "within two hours"
    }
}

/// A kind whose client acts on the host's certificate expiry ahead of the house's window: its
/// own warning, judged with the judge's clock.
public struct CertificateWatch: Sendable {
    public let days: Int
    public let code: FindingCode
    /// Its fetches' location (the certificate of their connection).
    public let location: AASALocation
    /// What follows when it lapses, as a sentence.
    public let consequence: String

    public init(days: Int, code: FindingCode, location: AASALocation, consequence: String) {
        self.days = days
        self.code = code
        self.location = location
        self.consequence = consequence
    }
}
