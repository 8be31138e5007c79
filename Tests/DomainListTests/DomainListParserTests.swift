import AASAModel
import DomainList
import Foundation
import TestSupport
import Testing

@Suite struct DomainListParserTests {
    func parse(_ text: String) -> DomainListParser.Result {
        DomainListParser.parse(Array(text.utf8), fileName: "domains.txt")
    }

    /// The package's domains.txt (a conffile of comments) shows lines a team copies: uncommented,
    /// the tool audits them as written, no app ID refused as a sample (issue 47, item 4: its
    /// example named ABCDE12345, which the tool refuses).
    @Test func thePackagesExampleLinesAreAuditedAsWritten() throws {
        let conffile = try String(contentsOf: Repository.file("Packaging/debian/domains.txt"), encoding: .utf8)
        let examples = conffile.split(separator: "\n").filter { $0.hasPrefix("# ") && $0.contains(".com ") }
            .map { String($0.dropFirst(2)) }
        #expect(examples.count >= 2, "\(examples)")
        let result = parse(examples.joined(separator: "\n") + "\n")
        #expect(result.problems.isEmpty, "\(result.problems.map(\.message))")
        #expect(
            result.targets.count == examples.count
                && result.targets.allSatisfy { !$0.expectedAppIDs.isEmpty || !$0.wants.all.isEmpty })
        // Every kind's token is shown (issue 56, item 5).
        let kinds = Set(result.targets.flatMap { $0.wants.all.map { type(of: $0).kind.id } })
        #expect(kinds == Set(AssociationKinds.all.map(\.id)), "\(kinds)")
    }

    /// `label:KEY=VALUE`: carried with the domain, bounded, and a bad token an input problem
    /// naming its line while the domain is audited without it (issue 35, item 6).
    @Test func labelsSayWhoseADomainIs() {
        let many = (1...11).map { "label:k\($0)=v" }.joined(separator: " ")
        let result = parse(
            """
            pay.example ABCDE12346.com.example.app label:team=payments LABEL:tier=1 label:team=other
            bad.example label:team label:1x=a label:severity=low label:__x=y label:note=\u{7}
            many.example \(many)
            """)
        #expect(result.targets[0].labels == ["team": "payments", "tier": "1"])
        #expect(result.targets[0].expectedAppIDs == ["ABCDE12346.com.example.app"])
        #expect(result.targets[1].labels.isEmpty && result.targets[2].labels.count == 10)
        let messages = result.problems.map { "\($0.line): \($0.message)" }
        #expect(messages.filter { $0.hasPrefix("2: ") }.count == 5, "\(messages)")
        #expect(messages.contains { $0.contains("label:team is not label:KEY=VALUE") })
        #expect(messages.contains { $0.contains("uses the key 'severity', which aasa-audit's alerts set themselves") })
        #expect(messages.contains { $0.hasPrefix("3: ") && $0.contains("at most 10") })
    }

    /// A line whose only platform token is refused is refused whole, never turned into another
    /// platform's check (`ios:none` alone is "assetlinks.json for any app"; a bare host, the
    /// AASA); with something else to check it is audited without the token (issue 55, item 1).
    @Test func aLineWhoseOnlyPlatformTokenIsRefusedIsNotAudited() {
        let result = parse(
            """
            windows-only.example ios:none windows:Acme.App
            + https://windows-only.example/a
            bare-token.example windows:Acme.App
            harmony-only.example ios:none harmony:com.acme.app
            both.example ios:none android:com.example.app windows:Acme.App
            with-app-id.example ABCDE12346.com.example.app windows:Acme.App
            """)
        #expect(result.targets.map(\.domain) == ["both.example", "with-app-id.example"])
        #expect(result.targets[0].wants[AndroidWant.self] != nil && result.targets[0].wants[WindowsWant.self] == nil)
        let messages = result.problems.map { "\($0.line): \($0.message)" }
        #expect(messages.filter { $0.contains("so it is not audited") }.map { $0.prefix(2) } == ["1:", "3:", "4:"])
        #expect(
            messages.contains { $0.hasPrefix("4: ") && $0.contains("AppGallery Connect's app identifier is a number") })
        #expect(messages.contains { $0.hasPrefix("1: ") && $0.contains("Name_PublisherId") })
        #expect(messages.filter { $0.contains("audited without it") }.map { $0.prefix(2) } == ["5:", "6:"])
        // The refused line's URL has no domain above it.
        #expect(messages.contains { $0.hasPrefix("2: ") && $0.contains("must follow the domain") }, "\(messages)")
    }

    /// A kind's word misspelt by a letter (`passkey`, `android:`) is answered with the word, not
    /// refused as an app ID (issue 56, item 2).
    @Test func aNearTokenGetsADidYouMean() {
        let result = parse(
            "a.example ABCDE12346.com.example.app passkey\nb.example ABCDE12346.com.example.app android:\n")
        #expect(result.targets.count == 2)
        let messages = result.problems.map(\.message)
        #expect(messages.contains { $0.contains("passkey is no token: did you mean passkeys?") }, "\(messages)")
        #expect(messages.count == 2 && !messages.contains { $0.hasPrefix("App ID") }, "\(messages)")
    }

    @Test func readsDomainsAppIDsCommentsAndBlankLines() {
        let result = parse(
            """
            # production
            example.com ABCDE12346.com.example.app  FGHIJ67890.com.example.other
            \twww.example.com   # the www host

            Shop.Example.COM.
            """)
        #expect(result.problems.isEmpty)
        #expect(
            result.targets == [
                DomainTarget(
                    domain: "example.com",
                    expectedAppIDs: ["ABCDE12346.com.example.app", "FGHIJ67890.com.example.other"], inputLine: 2),
                DomainTarget(domain: "www.example.com", expectedAppIDs: [], inputLine: 3),
                DomainTarget(domain: "shop.example.com", expectedAppIDs: [], inputLine: 5),
            ])
    }

    @Test(arguments: [
        ("bücher.example", "xn--bcher-kva.example"),
        ("BÜCHER.example", "xn--bcher-kva.example"),
        ("例え.テスト", "xn--r8jz45g.xn--zckzah"),
        ("xn--bcher-kva.example", "xn--bcher-kva.example"),
        ("a-b.c0.example.", "a-b.c0.example"),
    ])
    func normalisesHostNames(input: String, expected: String) {
        #expect(parse(input).targets.map(\.domain) == [expected])
    }

    @Test(arguments: [
        ("ftp://example.com", "is a ftp URL"),
        ("applinks:*.example.com", "wildcard"),
        ("example.com/path", "has a path"),
        ("example.com:8443", "names a port"),
        ("192.0.2.1", "is an IP address"),
        ("[2001:db8::1]", "is an IP address"),
        ("2001:db8::1", "is an IP address"),
        ("0xa9.0xfe.0xa9.0xfe", "is an IP address"),
        ("0x7f.0x1", "is an IP address"),
        ("0177.0.0.1", "is an IP address"),
        ("127.1", "is an IP address"),
        ("0x7F000001.", "is an IP address"),
        ("example.0x1f", "numeric label"),
        ("*.example.com", "wildcard"),
        ("localhost", "single label"),
        ("exa_mple.com", "'_'"),
        ("-bad.example.com", "starts or ends with '-'"),
        ("a..example.com", "empty label"),
        ("user@example.com", "user information"),
        ("example.123", "numeric label"),
    ])
    func rejectsWhatIsNotAHostNameAndKeepsGoing(line: String, reason: String) {
        let result = parse("first.example\n\(line)\nlast.example\n")
        #expect(result.targets.map(\.domain) == ["first.example", "last.example"])
        #expect(result.problems.count == 1)
        let problem = result.problems.first
        #expect(problem?.line == 2)
        #expect(problem?.severity == .error)
        #expect(problem?.message.contains(reason) == true, "\(problem?.message ?? "")")
        #expect(problem?.text == line)
    }

    /// What people paste from Xcode or a browser names its host: audited, with a note.
    @Test(arguments: [
        ("applinks:Example.com", "example.com", "is an entitlement entry"),
        ("webcredentials:example.com?mode=developer", "example.com", "is an entitlement entry"),
        ("https://www.example.com/path?q=1#top", "www.example.com", "is a URL"),
        ("HTTP://example.com", "example.com", "is a URL"),
    ])
    func pastedFormsNameTheirHost(line: String, host: String, note: String) {
        let result = parse("\(line) ABCDE12346.com.example.app\n")
        #expect(result.targets.map(\.domain) == [host])
        #expect(result.targets.first?.expectedAppIDs == ["ABCDE12346.com.example.app"])
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.severity == .info)
        #expect(result.problems.first?.message.contains(note) == true, "\(result.problems)")
    }

    @Test func androidAppsAreReadBesideAppIDsAndBadOnesNamed() {
        let fingerprint = (0..<32).map { String(format: "%02x", $0) }.joined(separator: ":")
        let result = parse(
            """
            a.example ABCDE12346.com.example.app android:com.example.app@\(fingerprint) android:com.example.lite
            b.example android:example android:com.example.app@AB:CD
            c.example
            """)
        // b.example asks for nothing but its refused tokens: refused whole (issue 55).
        #expect(result.targets.map(\.domain) == ["a.example", "c.example"])
        #expect(
            result.targets[0].androidApps == [
                AndroidApp(package: "com.example.app", fingerprint: fingerprint.uppercased()),
                AndroidApp(package: "com.example.lite"),
            ])
        #expect(result.targets[0].auditsAndroid && result.targets[0].expectedAppIDs == ["ABCDE12346.com.example.app"])
        #expect(!result.targets[1].auditsAndroid)
        #expect(result.problems.map(\.line) == [2, 2])
        #expect(result.problems.allSatisfy { $0.message.contains("so it is not audited") })
        #expect(result.problems[0].message.contains("\"example\" is not an Android package name"))
        #expect(result.problems[1].message.contains("\"AB:CD\" is not a SHA-256 certificate fingerprint"))
    }

    /// `origin:URL` tokens ask for the domain's `/.well-known/webauthn`, read by its kind: the
    /// origin normalised, repeats once, a value that is not an https origin named.
    @Test func relatedOriginsAreReadByTheirKind() {
        let result = parse(
            """
            a.example ABCDE12346.com.example.app origin:https://Shop.Example:443 origin:https://shop.example
            a.example origin:https://example.co.uk:8443
            b.example origin:example.co.uk origin:http://shop.example
            """)
        // b.example asks for nothing but its refused tokens: refused whole (issue 55).
        #expect(result.targets.map(\.domain) == ["a.example"])
        #expect(result.targets[0].wants.webauthnOrigins == ["https://shop.example", "https://example.co.uk:8443"])
        let errors = result.problems.filter { !$0.message.contains("already listed") }
        #expect(errors.map(\.line) == [3, 3], "\(result.problems)")
        #expect(errors[0].message.contains("Related origin \"example.co.uk\" is not an https origin"))
        #expect(errors[1].message.contains("\"http://shop.example\" is not an https origin"))
    }

    /// A bare `passkeys` token declares passkeys (a kind whose word takes no value); `origin` alone,
    /// or `passkeys:` with a value, is named.
    @Test func aBareWordIsItsKindsToken() {
        let result = parse("a.example passkeys\nb.example PASSKEYS origin\nc.example passkeys:yes-please\n")
        // c.example asks for nothing but its refused token: refused whole (issue 55).
        #expect(result.targets.map { $0.wants[PasskeyEndpointsWant.self] != nil } == [true, true])
        #expect(result.problems.map(\.line) == [2, 3], "\(result.problems)")
        #expect(result.problems[0].message.contains("names no origin"))
    }

    /// An app ID may carry its service as the entitlement does (`webcredentials:ID`,
    /// `appclips:ID`); a bare one, or `applinks:ID`, is applinks'; another prefix is named.
    @Test func anAppIDCarriesItsServiceAsTheEntitlementDoes() {
        let result = parse(
            "a.example webcredentials:QX7TM4K2RB.com.example.app APPCLIPS:QX7TM4K2RB.com.example.app.Clip applinks:QX7TM4K2RB.com.example.app\nb.example passkey:QX7TM4K2RB.com.example.app webcredentials:ABCDE12345.com.example.app\n"
        )
        #expect(
            result.targets[0].expectedAppIDs == [
                "webcredentials:QX7TM4K2RB.com.example.app", "appclips:QX7TM4K2RB.com.example.app.Clip",
                "QX7TM4K2RB.com.example.app",
            ])
        #expect(result.targets[0].expectedApps.map(\.service) == [.webcredentials, .appclips, .applinks])
        #expect(result.targets[1].expectedAppIDs.isEmpty)
        #expect(result.problems.map(\.line) == [2, 2], "\(result.problems)")
        #expect(result.problems[0].message.contains("names no service before its colon"))
        #expect(result.problems[1].message.contains("sample prefix"), "the app ID after the service is checked too")
    }

    /// keytool's form, apksigner's, either case, a `SHA256:` prefix: all read as Google's form.
    @Test func fingerprintsAreReadAsPeoplePasteThem() throws {
        let google = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")
        let apksigner = google.replacingOccurrences(of: ":", with: "").lowercased()
        for pasted in [
            google, google.lowercased(), apksigner, apksigner.uppercased(), "SHA256:" + google, "sha256:" + apksigner,
            "SHA-256:" + apksigner,
        ] {
            let app = try AndroidApp.parse("com.example.app@" + pasted).get()
            #expect(app.fingerprint == google, "\(pasted)")
        }
        for bad in [
            String(apksigner.dropLast()), apksigner + "0", google.replacingOccurrences(of: ":", with: "-"),
            "SHA1:" + apksigner, String(apksigner.dropLast()) + "g",
        ] {
            #expect(throws: AndroidAppError.self, "\(bad)") { try AndroidApp.parse("com.example.app@" + bad).get() }
        }
        let result = parse("a.example android:com.example.app@\(apksigner)\n")
        #expect(
            result.problems.isEmpty
                && result.targets[0].androidApps == [AndroidApp(package: "com.example.app", fingerprint: google)])
    }

    /// The fast reading of a plain line agrees with the full one: what it accepts, `normalize`
    /// accepts unchanged; what it leaves, `normalize` decides.
    @Test func plainHostsAgreeWithNormalize() {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abz09-x")
        let junk = Array("AZ_:/ é.")
        func plain(_ text: String) -> String? {
            Array(text.utf8).withUnsafeBufferPointer { HostName.plainHost($0) }
        }
        var accepted = 0
        for _ in 0..<20_000 {
            // Labels of plain characters, now and then something else.
            var text = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                String(
                    (0..<Int.random(in: 0...4, using: &generator)).map { _ in letters.randomElement(using: &generator)!
                    })
            }.joined(separator: ".")
            if Int.random(in: 0..<8, using: &generator) == 0 {
                text.insert(
                    junk.randomElement(using: &generator)!,
                    at: text.index(text.startIndex, offsetBy: Int.random(in: 0...text.count, using: &generator)))
            }
            guard let host = plain(text) else { continue }
            accepted += 1
            #expect(HostName.normalize(text) == .success(host), "\(text)")
            #expect(host == text)
        }
        #expect(accepted > 1_000)
        for text in ["example.com", "a-b.example.co", "xn--bcher-kva.example", "123.example.com", "a.b0"] {
            #expect(plain(text) == text, "\(text)")
        }
        for text in [
            "Example.com", "example.com.", "example", "-a.example", "a-.example", "a..b", "1.2.3.4", "a.123", "a.0x1f",
            "a.0xyz", "a b.c", "é.example", ".a.b", "",
        ] {
            #expect(plain(text) == nil, "\(text)")
        }
    }

    /// A NUL would end the name at the C boundary (libidn2, inet_aton): an internationalised name
    /// with one was audited as its prefix, with no note (issue 54). Refused, naming the line.
    @Test func aHostWithANULIsRefusedNotCut() {
        for text in ["bücher-und-zeitschriften.de\u{0}.evil.example", "an-ordinary-shop-name.com\u{0}x"] {
            guard case .failure(let error) = HostName.normalize(text) else {
                Issue.record("\(text.debugDescription) was accepted")
                continue
            }
            #expect(error.reason.contains("NUL"), "\(error.reason)")
            guard case .failure = HostName.normalizePasted("https://\(text)/path") else {
                Issue.record("pasted \(text.debugDescription) was accepted")
                continue
            }
        }
        let result = parse("good-and-long-shop.example\nbücher-und-zeitschriften.de\u{0}.evil.example\n")
        #expect(result.targets.map(\.domain) == ["good-and-long-shop.example"])
        #expect(result.problems.map(\.line) == [2])
    }

    @Test func auditsADomainListedTwiceOnceWithBothLinesAppIDs() {
        let result = parse("a.example ABCDE12346.x.one\nb.example\nA.EXAMPLE. ABCDE12346.x.two ABCDE12346.x.one\n")
        #expect(result.targets.map(\.domain) == ["a.example", "b.example"])
        #expect(result.targets[0].expectedAppIDs == ["ABCDE12346.x.one", "ABCDE12346.x.two"])
        #expect(result.problems.map(\.line) == [3])
        #expect(result.problems.first?.severity == .warning)
        #expect(result.problems.first?.message.contains("line 1") == true)
    }

    @Test func reportsAMalformedAppIDButStillAuditsTheDomain() {
        let result = parse("a.example TEAM_ID.com.example.app ABCDE12346.com.example.app\n")
        #expect(
            result.targets == [
                DomainTarget(domain: "a.example", expectedAppIDs: ["ABCDE12346.com.example.app"], inputLine: 1)
            ])
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.message.contains("placeholder") == true)
    }

    @Test func acceptsCRLFAndAByteOrderMark() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a.example\r\n# c\r\nb.example ABCDE12346.x.y\r\n".utf8)
        let result = DomainListParser.parse(bytes, fileName: "d.txt")
        #expect(result.problems.isEmpty)
        #expect(result.targets.map(\.domain) == ["a.example", "b.example"])
        #expect(result.targets[1].expectedAppIDs == ["ABCDE12346.x.y"])
    }

    @Test func namesALineThatIsNotUTF8() {
        let bytes: [UInt8] =
            Array("a.example\n".utf8) + [0x62, 0xFF, 0x2E, 0x65, 0x78, 0x0A] + Array("c.example\n".utf8)
        let result = DomainListParser.parse(bytes, fileName: "d.txt")
        #expect(result.targets.map(\.domain) == ["a.example", "c.example"])
        #expect(result.problems.map(\.line) == [2])
        #expect(result.problems.first?.message.contains("UTF-8") == true)
    }

    @Test func aHashInsideATokenIsNotAComment() {
        let result = parse("a.example#x\n")
        #expect(result.targets.isEmpty)
        #expect(result.problems.first?.message.contains("'#'") == true)
    }
}

@Suite struct ExpectationLineTests {
    func parse(_ text: String) -> DomainListParser.Result {
        DomainListParser.parse(Array(text.utf8), fileName: "domains.txt")
    }

    @Test func readsPlusAndMinusLinesUnderTheirDomain() {
        let result = parse(
            """
            example.com ABCDE12346.com.example.app
              + https://example.com/buy/1
              - https://example.com/help/x   # stays on the web
            www.example.com
              + https://WWW.example.com/
            """)
        #expect(result.problems.isEmpty)
        #expect(
            result.targets[0].expectations == [
                URLExpectation(url: "https://example.com/buy/1", opensApp: true, inputLine: 2),
                URLExpectation(url: "https://example.com/help/x", opensApp: false, inputLine: 3),
            ])
        #expect(
            result.targets[1].expectations == [
                URLExpectation(url: "https://WWW.example.com/", opensApp: true, inputLine: 5)
            ])
    }

    @Test(arguments: [
        ("+ https://example.com/a\nexample.com\n", 1, "must follow the domain"),
        ("example.com\n  + https://other.example/a\n", 2, "is not example.com"),
        ("example.com\n  + example.com/a\n", 2, "is not an absolute URL"),
        ("example.com\n  - https://example.com/a https://example.com/b\n", 2, "one URL"),
        ("https://bad/x\n  + https://bad/x\n", 2, "must follow the domain"),
    ])
    func reportsBadExpectationLines(text: String, line: Int, reason: String) {
        let result = parse(text)
        #expect(result.problems.contains { $0.line == line && $0.message.contains(reason) }, "\(result.problems)")
        #expect(result.targets.allSatisfy { $0.expectations.isEmpty })
    }
}

@Suite struct LargeInputTests {
    /// Runs CPU-bound work on a Dispatch thread: in a debug build this parse takes ~25 s, and on
    /// a two-core machine a test that holds a thread of the concurrency pool that long stalls
    /// every other test's continuations (and their timing-sensitive assertions).
    func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    @Test func aHundredThousandLinesAreReadWithEveryBadLineNamed() async {
        var text = "\u{FEFF}"
        for line in 1...100_000 {
            text +=
                line % 10 == 0 ? "bad\(line).example:8443\r\n" : "host\(line).example ABCDE12346.com.example.app\r\n"
        }
        let bytes = Array(text.utf8)
        let result = await offThePool { DomainListParser.parse(bytes, fileName: "big.txt") }
        #expect(result.targets.count == 90_000)
        // The first 100 bad lines are listed, the other 9,900 summed up at the first of them.
        #expect(result.problems.count == 101)
        #expect(result.problems.allSatisfy { $0.line % 10 == 0 && $0.message.contains("names a port") })
        #expect(result.problems.prefix(100).map(\.line) == Array(stride(from: 10, through: 1_000, by: 10)))
        #expect(result.problems.last?.line == 1_010)
        #expect(
            result.problems.last?.message.hasPrefix("9900 more lines from here on have a problem like the one above")
                == true)
        #expect(
            result.targets.first
                == DomainTarget(domain: "host1.example", expectedAppIDs: ["ABCDE12346.com.example.app"], inputLine: 1))
        #expect(result.targets.last?.inputLine == 99_999)
    }

    /// Repetition costs neither memory nor report size: a domain listed 200,000 times is one
    /// target; its repeated URLs and app IDs are kept once, and at most 1,000 and 100.
    @Test func repeatedLinesAreCountedNotKept() async {
        var text = ""
        for line in 0..<100_000 {
            text += "a.example ABCDE12346.com.example.app\n+ https://a.example/x\n"
            if line < 1_500 { text += "- https://a.example/n\(line)\na.example ABCDE12346.com.example.a\(line)\n" }
        }
        for line in 0..<200 { text += "a.example ABCDE12346.com.example.b\(line)\n" }
        let bytes = Array(text.utf8)
        let result = await offThePool { DomainListParser.parse(bytes, fileName: "repeats.txt") }
        #expect(result.targets.count == 1)
        let target = result.targets[0]
        #expect(target.expectations.count == DomainListParser.maximumURLsPerDomain)
        #expect(target.expectations.filter { $0.url == "https://a.example/x" }.count == 1)
        #expect(target.expectedAppIDs.count == DomainListParser.maximumAppIDsPerDomain)
        #expect(result.problems.count <= 4 * (DomainListParser.maximumProblemsPerKind + 1))
        // 101,700 lines name a.example: 101,699 repeats, 100 of them listed.
        #expect(result.problems.contains { $0.message.hasPrefix("101599 more lines from here on") })
    }

    @Test func anOverlongLineIsRejectedWithoutHoldingIt() {
        let bytes =
            Array("a.example\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 100_000)
            + Array("\nb.example\n".utf8)
        let result = DomainListParser.parse(bytes, fileName: "d.txt")
        #expect(result.targets.map(\.domain) == ["a.example", "b.example"])
        #expect(result.problems.map(\.line) == [2])
        #expect(result.problems.first?.text.isEmpty == true)
    }
}
