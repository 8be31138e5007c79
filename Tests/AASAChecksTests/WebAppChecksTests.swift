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
}
