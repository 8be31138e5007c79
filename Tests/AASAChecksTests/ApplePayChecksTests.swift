import AASAModel
import Foundation
import Testing

@testable import AASAChecks

/// Apple Pay's merchant file judged as Apple fetches it (issue 58, work in progress).
@Suite struct ApplePayChecksTests {
    static let url = "https://shop.example.com/.well-known/apple-developer-merchantid-domain-association"
    static let body = Array(String(repeating: "7B2270737022", count: 500).utf8)
    static let hash = String(repeating: "ab", count: 32)

    static func answer(
        _ status: Int?, body: [UInt8] = body, type: String? = "text/plain", location: String? = nil,
        sha256: String? = hash
    ) -> FetchedLocation {
        var record = FetchRecord(location: .applePay, url: url)
        record.status = status
        record.bodyBytes = body.count
        record.bodySHA256 = sha256
        if let type { record.headers.set(name: "content-type", value: type) }
        if let location { record.headers.set(name: "location", value: location) }
        var fetched = FetchedLocation(record: record)
        fetched.body = body
        return fetched
    }

    func codes(_ fetched: FetchedLocation, text: FetchedLocation? = nil, want: ApplePayWant = ApplePayWant())
        -> [String]
    {
        ApplePayChecks.assess(fetched, textCopy: text, want: want).findings.map(\.code.rawValue)
    }

    @Test func eachWayTheFileIsServedWrongIsItsOwnCode() {
        #expect(codes(Self.answer(200)).isEmpty, "any content type, any size: Apple checks neither")
        #expect(codes(Self.answer(301, location: Self.url + ".txt")) == ["applepay.redirect"])
        #expect(codes(Self.answer(404), text: Self.answer(200)) == ["applepay.txt-only"])
        #expect(codes(Self.answer(404), text: Self.answer(404)) == ["applepay.status"])
        #expect(codes(Self.answer(403)) == ["applepay.status"])
        #expect(codes(Self.answer(200, body: [])) == ["applepay.empty"])
        let page = Array("<!doctype html><div id=root></div>".utf8)
        #expect(codes(Self.answer(200, body: page, type: "text/html")) == ["applepay.page"])
        #expect(codes(Self.answer(200, body: page, type: nil)) == ["applepay.page"])
        let other = String(repeating: "cd", count: 32)
        #expect(codes(Self.answer(200), want: ApplePayWant(sha256: other)) == ["applepay.hash-mismatch"])
        #expect(codes(Self.answer(200), want: ApplePayWant(sha256: Self.hash)).isEmpty)
        let file = ApplePayChecks.assess(Self.answer(200), textCopy: nil, want: ApplePayWant()).file
        #expect(file == ApplePayFile(bytes: Self.body.count, sha256: Self.hash, contentType: "text/plain"))
    }

    @Test func aCertificateWithinThirtyDaysIsAWarningAtItsOwnLocation() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        var record = FetchRecord(location: .applePay, url: Self.url)
        func codes(_ records: [FetchRecord]) -> [Finding] {
            CertificateExpiry.findings(
                records, host: "shop.example.com", now: now, watch: ApplePayChecks.certificateWatch)
        }
        record.certificateExpires = now.addingTimeInterval(25 * 86_400)
        let findings = codes([record])
        #expect(findings.map(\.code.rawValue) == ["applepay.certificate-expiring"])
        #expect(findings.first?.location == .applePay)
        #expect(findings.first?.message.contains("in 25 days") == true, "\(findings.map(\.message))")
        // The house's 21-day window says nothing yet: Apple's re-check comes first.
        #expect(
            CertificateExpiry.findings(
                [record], host: "shop.example.com", now: now, warningDays: CertificateExpiry.standardWarningDays
            ).isEmpty)
        record.certificateExpires = now.addingTimeInterval(31 * 86_400)
        #expect(codes([record]).isEmpty)
        // Another file's connection is not the merchant file's.
        var other = FetchRecord(location: .wellKnown, url: "https://shop.example.com/.well-known/x")
        other.certificateExpires = now.addingTimeInterval(2 * 86_400)
        #expect(codes([record, other]).isEmpty)
        record.certificateExpires = nil
        #expect(codes([record]).isEmpty)
    }

    @Test func aLocalCopyIsLintedAndSaysItsHash() throws {
        // FIPS 180-2's first example: SHA-256("abc").
        let abc = Array("abc".utf8)
        let sha256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        let result = ApplePayWant.lint(abc, size: abc.count, wants: AssociationWants())
        #expect(result.findings.isEmpty)
        let section = try #require(result.associations.all.first as? ApplePayRecord)
        #expect(section.applePay == ApplePayFile(bytes: 3, sha256: sha256))
        var wants = AssociationWants()
        wants.insert(ApplePayWant(sha256: String(repeating: "0", count: 64)))
        let mismatch = ApplePayWant.lint(abc, size: abc.count, wants: wants)
        #expect(mismatch.findings.map(\.code.rawValue) == ["applepay.hash-mismatch"])
        #expect(mismatch.findings.first?.location == .file)
        wants.insert(ApplePayWant(sha256: sha256))
        #expect(ApplePayWant.lint(abc, size: abc.count, wants: wants).findings.isEmpty)
        #expect(
            ApplePayWant.lint([], size: 0, wants: AssociationWants()).findings.map(\.code.rawValue) == [
                "applepay.empty"
            ])
        let page = Array(" <html><body>Shop</body></html>".utf8)
        #expect(
            ApplePayWant.lint(page, size: page.count, wants: AssociationWants()).findings.map(\.code.rawValue) == [
                "applepay.page"
            ])
        #expect(ApplePayWant.looksLikeItsFile(Self.body))
        #expect(!ApplePayWant.looksLikeItsFile(Array("{\"applinks\": {}}".utf8)))
        #expect(!ApplePayWant.looksLikeItsFile(Array("abc".utf8)))
    }
}
