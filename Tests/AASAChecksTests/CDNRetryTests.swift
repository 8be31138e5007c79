import AASAChecks
import AASAModel
import Testing

/// When Apple's CDN answers with a failure, when it will ask the origin again.
@Suite struct CDNRetryTests {
    func headers(_ cacheControl: String?, age: String? = nil, date: String? = "Tue, 24 Nov 2026 02:40:00 GMT")
        -> ResponseHeaders
    {
        var headers = ResponseHeaders()
        headers.cacheControl = cacheControl
        headers.age = age
        headers.date = date
        return headers
    }

    @Test func theRetryTimeIsTheAnswersDatePlusWhatIsLeftOfItsMaxAge() {
        #expect(
            CDNRetry.sentence(headers("max-age=3600"))
                == "Apple's CDN will not ask the origin again before about 03:40 UTC (Cache-Control max-age=3600, answered at 02:40 UTC): a fix shows on devices after that."
        )
        #expect(
            CDNRetry.sentence(headers("public, max-age=3600", age: "600"))?.contains("before about 03:30 UTC") == true)
        // Past midnight, and a day or more ahead, with the day of the month.
        #expect(CDNRetry.sentence(headers("max-age=86400"))?.contains("before about 02:40 UTC on day 25") == true)
        #expect(
            CDNRetry.sentence(headers("max-age=3600", date: "Thu, 31 Dec 2026 23:30:00 GMT"))?.contains("00:30 UTC")
                == true)
        // No date: how long from the answer.
        #expect(
            CDNRetry.sentence(headers("max-age=21600", date: nil))?.contains("for about 6 hours after this answer")
                == true)
        #expect(CDNRetry.sentence(headers("no-cache")) == nil && CDNRetry.sentence(headers(nil)) == nil)
        #expect(
            CDNRetry.sentence(headers("max-age=60", date: "yesterday"))?.contains("for about 1 minute after") == true)
    }

    @Test func aCDNFailureSaysWhenAppleWillAskAgain() {
        var cdn = Fixture.served("", at: .cdn, status: 404)
        cdn.record.headers = headers("max-age=3600")
        let findings = DeviceViewChecks.cdn(cdn, copy: nil, originFile: nil)
        #expect(findings.map(\.code) == [.aasa(.cdnMissing)])
        #expect(findings[0].message.contains("will not ask the origin again before about 03:40 UTC"), "\(findings)")
        // A good copy says nothing of the sort.
        var good = Fixture.served(Fixture.validFile, at: .cdn)
        good.record.headers = headers("max-age=3600")
        #expect(
            DeviceViewChecks.cdn(good, copy: nil, originFile: nil).allSatisfy {
                !$0.message.contains("ask the origin again")
            })
    }
}

/// Whatever plays Apple's CDN (`--cdn-url`, a TLS-inspecting proxy) chooses these headers: no
/// value of them may overflow the arithmetic (issue 36, item 2).
@Suite struct CDNRetryHostileHeaderTests {
    static let hostile: [(cacheControl: String, age: String?, date: String?)] = [
        ("max-age=99999999999999999999999999", nil, "Tue, 24 Nov 2026 02:40:00 GMT"),
        ("max-age=9223372036854775807", "-9223372036854775808", "Tue, 24 Nov 2026 02:40:00 GMT"),
        ("max-age=3600", "-9223372036854775807", "Tue, 24 Nov 2026 02:40:00 GMT"),
        ("max-age=3600", "99999999999999999999", nil),
        ("max-age=9223372036854775807", nil, "Tue, 24 Nov 99999999999999 02:40:00 GMT"),
        ("max-age=3600", nil, "Tue, 24 Nov 99999999999999 02:40:00 GMT"),
        ("max-age=3600", nil, "Tue, 24 Nov -9223372036854775807 02:40:00 GMT"),
        ("max-age=-5", nil, "Tue, 24 Nov 2026 02:40:00 GMT"),
        ("max-age=+60", "+5", "Tue, 24 Nov 2026 02:40:00 GMT"),
    ]

    @Test(arguments: hostile.indices)
    func noHeaderValueOverflowsTheRetryTime(index: Int) {
        let (cacheControl, age, date) = Self.hostile[index]
        var headers = ResponseHeaders()
        (headers.cacheControl, headers.age, headers.date) = (cacheControl, age, date)
        // Reaching the end without a trap is the point; the sentence, when there is one, is bounded.
        let sentence = CDNRetry.sentence(headers)
        #expect((sentence?.utf8.count ?? 0) < 300)
    }

    @Test func aMaxAgeOrAgeBeyondTwoToThe31IsTakenAsTwoToThe31() {
        var headers = ResponseHeaders()
        headers.cacheControl = "max-age=99999999999999999999999999"
        headers.date = "Tue, 24 Nov 2026 02:40:00 GMT"
        // 2^31 seconds after the answer: 2094-12-12 05:54 UTC.
        #expect(CDNRetry.sentence(headers)?.contains("before about 05:54 UTC on day 12") == true)
        headers.age = "99999999999999999999"
        #expect(CDNRetry.sentence(headers)?.contains("before about 02:40 UTC") == true)
        // Not digits: no max-age, and an Age that is not digits is no Age.
        headers.cacheControl = "max-age=-5"
        #expect(CDNRetry.sentence(headers) == nil)
        headers.cacheControl = "max-age=60"
        headers.age = "-9223372036854775808"
        #expect(CDNRetry.sentence(headers)?.contains("before about 02:41 UTC") == true)
        // A year that is not four digits is no date.
        headers.date = "Tue, 24 Nov 99999999999999 02:40:00 GMT"
        #expect(CDNRetry.sentence(headers)?.contains("for about 1 minute after this answer") == true)
    }
}
