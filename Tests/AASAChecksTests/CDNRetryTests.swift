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
        #expect(findings.map(\.code) == [.cdnMissing])
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
