import AASAChecks
import AASAJSON
import AASAModel
import PublicSuffix
import Testing

/// `/.well-known/webauthn` read to the letter of Chromium's `ValidateWellKnownJSON` and
/// Firefox's fetcher: each case is a file and what Chromium answers `https://b.test` (and the
/// origins the file allows), from the sources, not from this code.
@Suite struct WebAuthnChecksTests {
    static let caller = WebOrigin("https://b.test")!

    static let cases: [(name: String, file: String, result: WebAuthnChecks.ClientResult)] = [
        ("listed", #"{"origins": ["https://b.test"]}"#, .success),
        ("a bare host is not a URL: skipped", #"{"origins": ["b.test"]}"#, .noMatch),
        ("a path is ignored", #"{"origins": ["https://b.test/login?x=1"]}"#, .success),
        ("the default port is the same origin", #"{"origins": ["https://b.test:443"]}"#, .success),
        ("another port is another origin", #"{"origins": ["https://b.test:8443"]}"#, .noMatch),
        ("http is another origin", #"{"origins": ["http://b.test"]}"#, .noMatch),
        ("scheme and host case fold", #"{"origins": ["HTTPS://B.Test"]}"#, .success),
        ("a wildcard is a literal host", #"{"origins": ["https://*.test"]}"#, .noMatch),
        ("a non-string entry stops the read", #"{"origins": [1, "https://b.test"]}"#, .parseError),
        ("a match before a non-string entry still counts", #"{"origins": ["https://b.test", 1]}"#, .success),
        ("origins not an array", #"{"origins": "https://b.test"}"#, .parseError),
        ("an array, not an object", #"["https://b.test"]"#, .parseError),
        ("no origins key", #"{"origin": ["https://b.test"]}"#, .parseError),
        (
            "a sixth label is dropped",
            #"{"origins": ["https://a1.com", "https://a2.com", "https://a3.com", "https://a4.com", "https://a5.com", "https://b.test"]}"#,
            .noMatchHitLimits
        ),
        (
            "labels count once: a repeated label is not new",
            #"{"origins": ["https://a1.com", "https://x.a1.com", "https://a2.com", "https://a3.com", "https://a4.com", "https://b.test"]}"#,
            .success
        ),
        (
            "the same label under another suffix is not new",
            #"{"origins": ["https://b.com", "https://a2.com", "https://a3.com", "https://a4.com", "https://a5.com", "https://b.test"]}"#,
            .success
        ),
        ("an IP address has no registrable domain", #"{"origins": ["https://127.0.0.1"]}"#, .noMatch),
        ("user info is dropped", #"{"origins": ["https://user@b.test"]}"#, .success),
    ]

    @Test(arguments: cases.indices)
    func chromiumsAnswerForEachFile(index: Int) throws {
        let (name, file, expected) = Self.cases[index]
        let json = try JSONParser.parse(file)
        #expect(WebAuthnChecks.result(of: json, for: Self.caller) == expected, "\(name)")
        // The audit agrees: an expected origin is missing exactly when Chromium refuses it.
        let findings = WebAuthnChecks.assessContent(Array(file.utf8), expected: ["https://b.test"], at: .file).findings
        #expect(findings.contains { $0.code == .webAuthn(.originMissing) } == !expected.allowsTheOrigin, "\(name)")
    }

    @Test func theServedAnswerIsJudgedAsChromiumFetchesIt() {
        func served(_ body: String, type: String? = "application/json", status: Int = 200) -> FetchedLocation {
            var record = FetchRecord(location: .webauthn, url: "https://a.test/.well-known/webauthn", status: status)
            record.headers.contentType = type
            record.bodyBytes = body.utf8.count
            return FetchedLocation(record: record, body: Array(body.utf8))
        }
        let file = #"{"origins": ["https://b.test"]}"#
        #expect(WebAuthnChecks.result(of: served(file), for: Self.caller) == .success)
        #expect(
            WebAuthnChecks.result(of: served(file, type: "application/json; charset=utf-8"), for: Self.caller)
                == .success)
        #expect(WebAuthnChecks.result(of: served(file, type: "text/plain"), for: Self.caller) == .wrongContentType)
        #expect(WebAuthnChecks.result(of: served(file, status: 404), for: Self.caller) == .attemptedFetch)
        let big = #"{"origins": ["https://b.test"], "pad": ""# + String(repeating: "x", count: 300_000) + #""}"#
        #expect(WebAuthnChecks.result(of: served(big), for: Self.caller) == .attemptedFetch)
    }

    @Test func findingsNameWhatBrowsersDoAndTheFix() throws {
        let file =
            #"{"origins": ["example.co.uk", "https://*.example.com", "https://shop.example/login", 7, "https://late.example"]}"#
        let assessed = WebAuthnChecks.assessContent(Array(file.utf8), expected: ["https://late.example"], at: .file)
        let byCode = Dictionary(grouping: assessed.findings, by: \.code)
        #expect(byCode[.webAuthn(.entrySkipped)]?.first?.message.contains("Write https://example.co.uk") == true)
        #expect(byCode[.webAuthn(.entryRead)]?.count == 2, "the wildcard and the path")
        #expect(byCode[.webAuthn(.entryType)]?.first?.message.contains("origins[3]") == true)
        #expect(
            byCode[.webAuthn(.originMissing)]?.first?.message.contains("BAD_RELYING_PARTY_ID_JSON_PARSE_ERROR") == true)
        #expect(assessed.declarations?.origins == ["https://*.example.com", "https://shop.example"])
    }

    /// Issue 54: an entry skipped for its host (it has a scheme already) gets no "Write
    /// https://https…" advice, and a UTF-8 byte-order mark before the JSON is read past, as
    /// Chromium's JSON reader does.
    @Test func skippedEntriesGetAdviceOnlyWhenItHelpsAndAByteOrderMarkIsReadPast() {
        let file = #"{"origins": ["https://localhost", "https://vercel.app", "login.an-ordinary-shop-name.com"]}"#
        let assessed = WebAuthnChecks.assessContent(Array(file.utf8), expected: [], at: .file)
        let skipped = assessed.findings.filter { $0.code == .webAuthn(.entrySkipped) }.map(\.message)
        #expect(skipped.count == 3, "\(skipped)")
        #expect(skipped.allSatisfy { !$0.contains("https://https") }, "\(skipped)")
        #expect(skipped.filter { $0.contains(" Write ") } == [skipped[2]])
        #expect(skipped[2].contains("Write https://login.an-ordinary-shop-name.com."))

        let withMark = [0xEF, 0xBB, 0xBF] + Array(#"{"origins": ["https://b.test"]}"#.utf8)
        let read = WebAuthnChecks.assessContent(withMark, expected: ["https://b.test"], at: .file)
        #expect(read.findings.isEmpty, "\(read.findings.map(\.message))")
        var record = FetchRecord(location: .webauthn, url: "https://a.test/.well-known/webauthn")
        record.status = 200
        record.headers.set(name: "content-type", value: "application/json")
        record.bodyBytes = withMark.count
        #expect(
            WebAuthnChecks.result(of: FetchedLocation(record: record, body: withMark), for: Self.caller) == .success)
    }

    @Test func theLabelLimitSaysWhichEntriesAreDropped() throws {
        let names = (1...7).map { "https://site\($0).com" }
        let file = #"{"origins": ["# + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]}"
        let assessed = WebAuthnChecks.assessContent(Array(file.utf8), expected: [], at: .file)
        #expect(assessed.declarations?.labels == ["site1", "site2", "site3", "site4", "site5"])
        #expect(assessed.declarations?.dropped == ["https://site6.com", "https://site7.com"])
        let limit = try #require(assessed.findings.first { $0.code == .webAuthn(.labelLimit) })
        #expect(limit.message.contains("site6.com") && limit.message.contains("site7.com"))
    }

    @Test func originsParseAsABrowserReadsThem() {
        #expect(WebOrigin("https://Shop.Example:443/x")?.serialized == "https://shop.example")
        #expect(WebOrigin("https:shop.example")?.serialized == "https://shop.example")
        #expect(WebOrigin("https://[::1]:8443")?.serialized == "https://[::1]:8443")
        #expect(WebOrigin("example.co.uk") == nil && WebOrigin("https://") == nil && WebOrigin("https://a b") == nil)
        #expect(WebOrigin("android:apk-key-hash:abc") == nil)
        #expect(WebOrigin("https://a.test:99999") == nil)
        #expect(RegistrableDomain.label(of: "shop.example.co.uk") == "example")
        #expect(RegistrableDomain.label(of: "me.github.io") == "me", "private registries count")
        #expect(RegistrableDomain.of("127.0.0.1") == nil && RegistrableDomain.of("localhost") == nil)
    }
}
