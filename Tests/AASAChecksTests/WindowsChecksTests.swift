import AASAChecks
import AASAMatching
import AASAModel
import Testing

/// Windows' own rule, without a network: which entry decides a URL.
@Suite struct WindowsChecksTests {
    static let app = "MyApp_9jmtgj1pbbz6e"

    /// Windows' rule: the app's entries for the host (or its subdomains with allowSubdomains),
    /// excludePaths before paths, `*` any run and `?` one character.
    @Test func windowsDecidesExcludePathsFirst() throws {
        let declarations = WindowsDeclarations(entries: [
            .init(packageFamilyName: Self.app, paths: ["/shop/*", "/item/?"], excludePaths: ["/shop/admin/*"]),
            .init(packageFamilyName: "Other.App_8wekyb3d8bbwe", paths: ["*"], allowSubdomains: true),
        ])
        func decide(_ url: String, _ app: String = Self.app) throws -> MatchOutcome {
            WindowsChecks.decide(
                try MatchURL.parse(url).get(), packageFamilyName: app, declarations: declarations, host: "example.com"
            ).outcome
        }
        #expect(try decide("https://example.com/shop/shoes") == .app)
        #expect(try decide("https://example.com/shop/admin/users") == .excluded)
        #expect(try decide("https://example.com/item/7") == .app)
        #expect(try decide("https://example.com/item/77") == .none)
        #expect(try decide("https://www.example.com/shop/shoes") == .none, "www is not the apex")
        #expect(try decide("https://www.example.com/any", "Other.App_8wekyb3d8bbwe") == .app)
    }
}
