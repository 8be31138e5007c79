import Testing

@testable import AASAModel

/// web-app-origin-association, the model's part (issue 58).
@Suite struct WebAppModelTests {
    /// `webapp:MANIFEST_ID` takes https URLs, compared as Chromium compares manifest ids.
    @Test func manifestIDsAreHTTPSURLsInTheirCanonicalForm() throws {
        let want = try #require(
            try WebAppWant.parsing(["HTTPS://App.Example.com:443/app#x", "https://app.example.com/app"]) as? WebAppWant)
        #expect(want.manifestIDs == ["https://app.example.com/app"])
        #expect(WebAppManifestID.canonical("https://app.example.com") == "https://app.example.com/")
        #expect(
            WebAppManifestID.canonical("https://app.example.com:8443/a?b=1") == "https://app.example.com:8443/a?b=1")
        for bad in ["/app", "app.example.com/app", "http://app.example.com/app", "https:///app", ""] {
            #expect(throws: AssociationValueError.self, "\(bad)") { try WebAppWant.parsing([bad]) }
        }
        #expect(
            WebAppWant(manifestIDs: ["https://a.example/"]).merging(WebAppWant(manifestIDs: ["https://b.example/"]))
                == WebAppWant(manifestIDs: ["https://a.example/", "https://b.example/"]))
    }

    @Test func itsCodesAreItsOwn() {
        let file = AssociationKind.webApp.served
        #expect(file.codes(of: .contentType).isEmpty, "Chromium checks no content type")
        for code in WebAppCode.allCases {
            #expect(code.definition.category == AssociationKind.webApp.category, "\(code.rawValue)")
            #expect(code.rawValue.hasPrefix(AssociationKind.webApp.codePrefix))
        }
    }
}
