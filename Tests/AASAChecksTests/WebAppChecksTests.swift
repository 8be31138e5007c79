import AASAModel
import Testing

@testable import AASAChecks

/// web-app-origin-association judged as Chromium's parser reads it (issue 58): each case is what
/// `WebAppOriginAssociationParser` keeps or ignores for the origin https://shop.example.com.
@Suite struct WebAppChecksTests {
    static let origin = "https://shop.example.com"
    static let id = "https://app.example.com/app"

    static func judge(_ text: String, expected: [String] = [id]) -> (codes: [String], apps: [WebAppAssociations.App]) {
        let result = WebAppChecks.assessContent(Array(text.utf8), origin: origin, expected: expected, at: .webApp)
        return (result.findings.map(\.code.rawValue), result.associations?.apps ?? [])
    }

    @Test func theScopeIsResolvedAgainstTheOriginAndStaysOnIt() {
        let root = Self.judge(#"{"https://app.example.com/app": {}}"#)
        #expect(root.codes.isEmpty && root.apps == [.init(manifestID: Self.id, scope: "https://shop.example.com/")])
        let path = Self.judge(#"{"https://app.example.com/app": {"scope": "/shop"}}"#)
        #expect(path.codes.isEmpty && path.apps.first?.scope == "https://shop.example.com/shop")
        let empty = Self.judge(#"{"https://app.example.com/app": {"scope": ""}}"#)
        #expect(empty.codes.isEmpty && empty.apps.first?.scope == "https://shop.example.com/")
        let absolute = Self.judge(#"{"https://app.example.com/app": {"scope": "https://shop.example.com/a"}}"#)
        #expect(absolute.codes.isEmpty && absolute.apps.first?.scope == "https://shop.example.com/a")
        // Off the origin: another host, another scheme, a network path; the app is ignored.
        for scope in ["https://other.example.com/", "http://shop.example.com/", "//other.example.com/x"] {
            let off = Self.judge(#"{"https://app.example.com/app": {"scope": "\#(scope)"}}"#)
            #expect(off.codes == ["webapp.scope-invalid", "webapp.app-missing"], "\(scope)")
            #expect(off.apps.isEmpty)
        }
        // Not a string: Chromium reads it as missing, the whole origin.
        let number = Self.judge(#"{"https://app.example.com/app": {"scope": 5}}"#)
        #expect(number.codes == ["webapp.scope-type"] && number.apps.first?.scope == "https://shop.example.com/")
    }

    @Test func anAppChromiumCannotReadIsIgnoredNotFatal() {
        let ids = Self.judge(#"{"/app": {}, "https://app.example.com/app": {}}"#)
        #expect(ids.codes == ["webapp.id-invalid"] && ids.apps.count == 1)
        let value = Self.judge(#"{"https://app.example.com/app": "/"}"#)
        #expect(value.codes == ["webapp.value-type", "webapp.app-missing"])
        let migration = Self.judge(#"{"https://app.example.com/app": {"allow_migration": "yes", "scop": "/"}}"#)
        #expect(migration.codes == ["webapp.allow-migration", "webapp.unknown-key"] && migration.apps.count == 1)
        // Chromium compares manifest ids as URLs.
        #expect(Self.judge(#"{"HTTPS://APP.example.com:443/app": {}}"#).codes.isEmpty)
    }

    @Test func theFileAsAWholeFailsAsChromiumFailsIt() {
        #expect(Self.judge("{").codes == ["webapp.json-invalid"])
        #expect(Self.judge(#"["https://app.example.com/app"]"#).codes == ["webapp.not-object"])
        #expect(Self.judge("{}").codes == ["webapp.empty"])
        // The older shape: current Chrome reads "web_apps" as a manifest id that is no URL.
        let legacy = Self.judge(
            #"{"web_apps": [{"manifest": "https://app.example.com/manifest.json", "details": {}}]}"#)
        #expect(legacy.codes == ["webapp.legacy-shape", "webapp.app-missing"] && legacy.apps.isEmpty)
        #expect(Self.judge(#"{"https://other.example.com/": {}}"#).codes == ["webapp.app-missing"])
        #expect(Self.judge(#"{"https://other.example.com/": {}}"#, expected: []).codes.isEmpty)
    }

    @Test func aLocalFileIsLintedAndKnownByItsContent() {
        let text = Array(#"{"https://app.example.com/app": {"scope": "/shop"}}"#.utf8)
        let result = WebAppWant.lint(text, size: text.count, wants: AssociationWants())
        #expect(result.findings.isEmpty && result.verdict == .pass)
        #expect(WebAppWant.looksLikeItsFile(text))
        #expect(!WebAppWant.looksLikeItsFile(Array(#"{"applinking": {"apps": []}}"#.utf8)))
        let legacy = Array(#"{"web_apps": []}"#.utf8)
        #expect(WebAppWant.looksLikeItsFile(legacy))
        #expect(
            WebAppWant.lint(legacy, size: legacy.count, wants: AssociationWants()).findings.first?.position?.line == 1)
    }

    static func manifest(_ text: String, url: String = "https://app.example.com/manifest.json") -> [String] {
        var record = FetchRecord(location: .webApp, url: url)
        record.status = 200
        let fetched = FetchedLocation(record: record, body: Array(text.utf8))
        return WebAppManifestChecks.assess(fetched, domain: "shop.example.com", expectedID: id).map(\.code.rawValue)
    }

    /// The manifest's scope_extensions as Chromium 156 reads them (`ChromiumScopeExtensionsTests`
    /// holds the same reading to Chromium's own): objects of type origin, the first 10.
    @Test func theManifestListsTheOriginAsChromiumReadsIt() {
        let start = #""start_url": "/app""#
        func entry(_ origin: String) -> String { #"{"type": "origin", "origin": "\#(origin)"}"# }
        #expect(Self.manifest(#"{\#(start), "scope_extensions": [\#(entry("https://shop.example.com"))]}"#).isEmpty)
        #expect(Self.manifest(#"{\#(start), "scope_extensions": [\#(entry("https://shop.example.com/any"))]}"#).isEmpty)
        let eleven = (0..<10).map { entry("https://o\($0).example") } + [entry("https://shop.example.com")]
        #expect(
            Self.manifest(#"{\#(start), "scope_extensions": [\#(eleven.joined(separator: ","))]}"#) == [
                "webapp.manifest-scope"
            ])
        for wrong in [
            #""https://shop.example.com""#, entry("http://shop.example.com"), entry("https://*.example.com"),
            #"{"origin": "https://shop.example.com"}"#, #"{"type": "origin", "origin": 5}"#,
        ] {
            #expect(
                Self.manifest(#"{\#(start), "scope_extensions": [\#(wrong)]}"#) == ["webapp.manifest-scope"], "\(wrong)"
            )
        }
        #expect(
            Self.manifest(#"{\#(start), "scope_extensions": \#(entry("https://shop.example.com"))}"#) == [
                "webapp.manifest-scope"
            ])
    }

    /// The manifest's id: `id` against start_url's origin, else start_url.
    @Test func theManifestsIDIsTheOneAssociated() {
        let scope = #""scope_extensions": [{"type": "origin", "origin": "https://shop.example.com"}]"#
        #expect(Self.manifest(#"{"id": "/app", "start_url": "/start?x=1", \#(scope)}"#).isEmpty)
        #expect(Self.manifest(#"{"start_url": "https://app.example.com/app", \#(scope)}"#).isEmpty)
        #expect(Self.manifest(#"{"id": "/other", "start_url": "/app", \#(scope)}"#) == ["webapp.manifest-id"])
        // An id on another origin is ignored: start_url is the id.
        #expect(Self.manifest(#"{"id": "https://evil.example/app", "start_url": "/app", \#(scope)}"#).isEmpty)
        #expect(Self.manifest("[]") == ["webapp.manifest-invalid"])
        var record = FetchRecord(location: .webApp, url: "https://app.example.com/manifest.json")
        record.status = 404
        #expect(
            WebAppManifestChecks.assess(
                FetchedLocation(record: record), domain: "shop.example.com", expectedID: Self.id
            )
            .map(\.code.rawValue) == ["webapp.manifest-unreachable"])
    }

    @Test func aManifestURLRidesOnTheToken() throws {
        let want = try #require(
            try WebAppWant.parsing(["https://app.example.com/app@https://app.example.com/manifest.json"]) as? WebAppWant
        )
        #expect(want.manifestIDs == [Self.id] && want.manifests == [Self.id: "https://app.example.com/manifest.json"])
        #expect(throws: AssociationValueError.self) { try WebAppWant.parsing(["https://app.example.com/app@https://"]) }
    }
}
