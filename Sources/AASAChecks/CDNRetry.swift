import AASAModel

/// When Apple's CDN will next ask the origin after a failure: its answer's `Cache-Control`
/// max-age, less its `Age`, from its `Date`. Pure: the time comes from the answer's own
/// headers, not a clock.
public enum CDNRetry {
    /// "Apple's CDN will not ask the origin again before about 03:40 UTC (…)", or nil when the
    /// answer gives no max-age.
    public static func sentence(_ headers: ResponseHeaders) -> String? {
        guard let maxAge = maxAge(headers.cacheControl), maxAge > 0 else { return nil }
        let age = headers.age.flatMap { deltaSeconds($0[...].trimmingASCIIWhitespace()) } ?? 0
        let left = max(0, maxAge - age)
        guard let date = headers.date.flatMap(httpDate) else {
            return
                "Apple's CDN will not ask the origin again for about \(duration(left)) after this answer (Cache-Control max-age=\(maxAge)\(age > 0 ? ", Age \(age)" : "")): a fix shows on devices after that."
        }
        let retry = date + left
        return
            "Apple's CDN will not ask the origin again before about \(UTCCalendar.clock(retry)) UTC\(left >= 86_400 ? " on day \(UTCCalendar.civil(retry).day)" : "") (Cache-Control max-age=\(maxAge)\(age > 0 ? ", Age \(age)" : ""), answered at \(UTCCalendar.clock(date)) UTC): a fix shows on devices after that."
    }

    /// The `max-age` directive's seconds.
    static func maxAge(_ cacheControl: String?) -> Int? {
        guard let cacheControl else { return nil }
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingASCIIWhitespace().lowercased() }
            if parts.count == 2, parts[0] == "max-age" { return deltaSeconds(parts[1].filter { $0 != "\"" }[...]) }
        }
        return nil
    }

    /// The largest number of seconds a delta-seconds value is taken to be: 2^31, as RFC 9111
    /// (section 1.2.2) tells a cache to take any larger value, so that no sum of them overflows.
    static let deltaSecondsLimit = 1 << 31

    /// A delta-seconds value (RFC 9111: digits only), at most `deltaSecondsLimit`; nil for
    /// anything that is not digits (a sign, a fraction, nothing).
    static func deltaSeconds(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var value = 0
        for digit in text.utf8 {
            value = value * 10 + Int(digit - 0x30)
            if value >= deltaSecondsLimit { return deltaSecondsLimit }
        }
        return value
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Seconds since 1970 of an IMF-fixdate (`Tue, 24 Nov 2026 03:15:00 GMT`, RFC 9110: a
    /// four-digit year), the form servers send; nil for anything else.
    static func httpDate(_ text: String) -> Int? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[5] == "GMT", let day = Int(fields[1]), fields[3].utf8.count == 4,
            let year = deltaSeconds(fields[3]),
            let month = months.firstIndex(of: fields[2].lowercased()).map({ $0 + 1 })
        else { return nil }
        let time = fields[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (1...31).contains(day), (0...23).contains(time[0]), (0...59).contains(time[1]),
            (0...60).contains(time[2])
        else { return nil }
        return UTCCalendar.days(year, month, day) * 86_400 + time[0] * 3600 + time[1] * 60 + time[2]
    }

    static func duration(_ seconds: Int) -> String {
        let minutes = max(1, seconds / 60)
        return seconds >= 5400
            ? "\(Int((Double(seconds) / 3600).rounded())) hours" : "\(minutes) minute\(minutes == 1 ? "" : "s")"
    }
}
