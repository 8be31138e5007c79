import AASAChecks
import AASAModel
import Testing

/// A NUL in a URL a file names would end it at the C boundary (libcurl): the prefix would be
/// fetched and the file judged as written (issue 54). Each such URL is refused where it is
/// read, with the finding its kind gives an invalid URL.
@Suite struct NULRefusalTests {
    @Test func aPasskeyEndpointsURLWithANULIsRefused() {
        let file = #"{"enroll": "https://accounts.example-login.com/enroll.html\u0000/../../x"}"#
        let result = PasskeyEndpointsWant.lint(Array(file.utf8), size: file.utf8.count, wants: AssociationWants())
        let finding = result.findings.first { $0.code == .passkeyEndpoints(.url) }
        #expect(finding?.message.contains("NUL character") == true, "\(result.findings.map(\.message))")
        #expect(result.verdict == .fail)
    }

    @Test func anAssetLinksIncludeWithANULIsRefused() {
        let file = #"[{"include": "https://static.example-shop.com/shared/assetlinks.json\u0000.y"}]"#
        let result = AndroidWant.lint(Array(file.utf8), size: file.utf8.count, wants: AssociationWants())
        let finding = result.findings.first { $0.code == .assetLinks(.include) }
        #expect(finding?.message.contains("NUL character") == true, "\(result.findings.map(\.message))")
    }
}
