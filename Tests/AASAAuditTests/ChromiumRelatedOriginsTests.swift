import AASAAudit
import AASAFetch
import AASAModel
import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// aasa-audit's verdict on a `/.well-known/webauthn` file held to Chromium's own (issue 48,
/// step 5): a real headless Chromium, on a page of `https://b.com` with a virtual authenticator,
/// creates a passkey for an RP ID whose loopback server serves each file below, and aasa-audit
/// audits the same server expecting `origin:https://b.com`. Every name resolves to the loopback
/// server (`--host-resolver-rules`), whose key Chromium trusts; nothing leaves the machine.
@Suite(.live, .tags(.live)) struct ChromiumRelatedOriginsTests {
    static let caller = "b.com"
    static let webauthnPath = AASALocation.webauthn.path

    /// A case: the RP ID's host and how it answers for its webauthn file.
    struct Case: Sendable {
        var host: String
        var answer: ScriptedResponse
        var why: String
    }

    static func file(_ origins: String, type: String = "application/json") -> ScriptedResponse {
        .json(#"{"origins": \#(origins)}"#, contentType: type)
    }

    static let cases: [Case] = [
        Case(host: "listed.com", answer: file(#"["https://b.com"]"#), why: "the caller's origin, listed"),
        Case(host: "barehost.com", answer: file(#"["b.com"]"#), why: "a bare host name is skipped"),
        Case(
            host: "fivelabels.com",
            answer: file(#"["https://c1.com", "https://c2.com", "https://c3.com", "https://c4.com", "https://b.com"]"#),
            why: "the fifth label still counts"),
        Case(
            host: "sixlabels.com",
            answer: file(
                #"["https://c1.com", "https://c2.com", "https://c3.com", "https://c4.com", "https://c5.com", "https://b.com"]"#
            ),
            why: "a sixth label is dropped"),
        Case(host: "stringfirst.com", answer: file(#"["https://b.com", 42]"#), why: "matched before a non-string"),
        Case(
            host: "numberfirst.com", answer: file(#"[42, "https://b.com"]"#),
            why: "a non-string entry stops the reading"),
        Case(host: "texttype.com", answer: file(#"["https://b.com"]"#, type: "text/plain"), why: "the wrong type"),
        Case(
            host: "httpredirect.com", answer: .redirect(302, to: "http://listed.com\(webauthnPath)"),
            why: "a redirect to http"),
        Case(
            host: "httpsredirect.com", answer: .redirect(302, to: "https://listed.com\(webauthnPath)"),
            why: "a redirect over https"),
        Case(host: "toplevelarray.com", answer: .json(#"["https://b.com"]"#), why: "an array, not an object"),
        Case(
            host: "huge.com",
            answer: .json(
                #"{"origins": ["https://b.com"], "pad": ""# + String(repeating: "x", count: 300 * 1024) + "\"}"),
            why: "300 KiB, past the 256 KiB browsers read"),
        Case(host: "withpath.com", answer: file(#"["https://b.com/login"]"#), why: "an entry's path is ignored"),
        Case(host: "otherport.com", answer: file(#"["https://b.com:8443"]"#), why: "another port is another origin"),
        Case(host: "wildcard.com", answer: file(#"["https://*.com"]"#), why: "a wildcard is no pattern"),
        Case(host: "notfound.com", answer: .status(404), why: "no file"),
        Case(host: "emptylist.com", answer: file("[]"), why: "no origins"),
    ]

    static func answer(host: String, path: String) -> ScriptedResponse {
        if host == caller {
            return .respond(
                status: 200, headers: [("Content-Type", "text/html")],
                body: Array("<!doctype html><title>b</title>".utf8))
        }
        guard path == webauthnPath, let found = cases.first(where: { $0.host == host }) else { return .status(404) }
        return found.answer
    }

    /// Chromium's `AuthenticatorStatus` from the message it gives the page (its
    /// `webauth_request_security_checker.cc` results); nil for a message of no such result.
    static func chromiumStatus(_ message: String) -> String? {
        let statuses = [
            ("limit on the number of eTLD+1 labels", "BAD_RELYING_PARTY_ID_NO_JSON_MATCH_HIT_LIMITS"),
            ("no listed origin matched", "BAD_RELYING_PARTY_ID_NO_JSON_MATCH"),
            ("JSON parse error", "BAD_RELYING_PARTY_ID_JSON_PARSE_ERROR"),
            ("wrong content-type", "BAD_RELYING_PARTY_ID_WRONG_CONTENT_TYPE"),
            ("attempt to fetch", "BAD_RELYING_PARTY_ID_ATTEMPTED_FETCH"),
        ]
        return statuses.first { message.contains($0.0) }?.1
    }

    @Test func aasaAuditsVerdictIsChromiumsCaseForCase() async throws {
        guard BrowserDriver.isAvailable else {
            print(BrowserDriver.unavailableMessage)
            return
        }
        let ca = try TrustedTestCA()
        defer { ca.directory.remove() }
        let identity = try ca.pki.issueServerIdentity(for: [Self.caller] + Self.cases.map(\.host))
        let server = try LoopbackServer(identity: identity, script: Self.answer)
        defer { server.shutdown() }

        let chromium = try await BrowserDriver.createPasskeys(
            page: "https://\(Self.caller)/", rpIDs: Self.cases.map(\.host), port: server.port,
            publicKeySHA256: identity.publicKeySHA256)

        let fetcher = try Fetcher(
            configuration: FetcherConfiguration(
                timeoutSeconds: 30, userAgent: "aasa-audit-tests", connectTo: [server.connectTo], caCertFile: ca.caFile,
                addressPolicy: .testServers))
        defer { fetcher.shutdown() }
        let auditor = DomainAuditor(fetcher: fetcher)
        var agreed = 0
        for test in Self.cases {
            var target = DomainTarget(domain: test.host)
            target.wants.insert(try WebAuthnWant.parsing(["https://\(Self.caller)"]))
            target.aasa = nil
            let report = await auditor.audit(target).report
            let ours = !report.findings.contains { $0.code == .webAuthn(.originMissing) }
            let outcome = try #require(chromium[test.host], "Chromium gave no outcome for \(test.host)")
            let theirs = outcome == "ok"
            #expect(
                ours == theirs,
                "\(test.host) (\(test.why)): aasa-audit says \(ours ? "usable" : "refused"), Chromium: \(outcome); findings \(report.findings.map(\.code.rawValue))"
            )
            if ours == theirs { agreed += 1 }
            // The reason too: Chromium's message says which of its results it was, and the
            // finding names that result.
            if let status = Self.chromiumStatus(outcome) {
                let message = report.findings.first { $0.code == .webAuthn(.originMissing) }?.message ?? ""
                #expect(message.contains(status), "\(test.host): Chromium's \(status), our \(message)")
            }
        }
        // Both answers occur, so the comparison is not one-sided.
        #expect(chromium.values.contains("ok") && chromium.values.contains { $0 != "ok" }, "\(chromium)")
        print("Chromium and aasa-audit agree on \(agreed) of \(Self.cases.count) webauthn files: \(chromium)")
    }
}
