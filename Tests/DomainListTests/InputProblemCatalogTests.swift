import AASAModel
import DomainList
import Foundation
import Testing

/// Every input problem code has an input that makes it, at its catalogued severity; the report
/// format's list of codes is the catalog's.
@Suite struct InputProblemCatalogTests {
    static func list(_ text: String) -> [InputProblem] {
        DomainListParser.parse(Array(text.utf8), fileName: "domains.txt").problems
    }

    static func entitlements(_ body: String) -> [InputProblem] {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>\(body)</dict></plist>
            """
        return EntitlementsParser.parse(Array(plist.utf8), fileName: "App.entitlements", appIDs: []).problems
    }

    static func domains(_ entries: String) -> [InputProblem] {
        entitlements("<key>com.apple.developer.associated-domains</key><array>\(entries)</array>")
    }

    static func manifest(_ text: String) -> [InputProblem] {
        AndroidManifestParser.parse(Array(text.utf8), fileName: "AndroidManifest.xml", apps: []).problems
    }

    static func filter(host: String) -> String {
        """
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app"><application>
        <activity><intent-filter android:autoVerify="true"><data android:scheme="https" android:host="\(host)"/></intent-filter></activity>
        </application></manifest>
        """
    }

    /// Input problems the parsers make; `acknowledgements.unreadable` is the audit's own
    /// (`AcknowledgementTests` reads an unreadable file).
    static let scenarios: [InputProblemCode: @Sendable () -> [InputProblem]] = [
        .notADomainsFile: { list("<?xml version=\"1.0\"?><plist></plist>") },
        .lineTooLong: { list(String(repeating: "a", count: 5000)) },
        .notUTF8: { DomainListParser.parse([0x61, 0xFF, 0x0A], fileName: "domains.txt").problems },
        .urlWithoutDomain: { list("+ https://example.com/a") },
        .urlLine: { list("example.com\n+ https://example.com/a https://example.com/b") },
        .urlSyntax: { list("example.com\n+ not-a-url") },
        .urlHost: { list("example.com\n+ https://other.example/a") },
        .tooManyURLs: {
            list("example.com\n" + (0...1000).map { "+ https://example.com/\($0)\n" }.joined())
        },
        .hostName: { list("bad.example:8443") },
        .appID: { list("example.com ABCDE12345.com.example.app") },
        .tooManyAppIDs: {
            list("example.com " + (0...100).map { "QX7TM4K2RB.com.example.app\($0)" }.joined(separator: " "))
        },
        .duplicateDomain: { list("example.com\nexample.com") },
        .associationValue: { list("example.com android:not_a_package!") },
        .pastedForm: { list("applinks:example.com") },
        .label: { list("example.com label:domain=x") },
        .iosToken: { list("example.com ios:maybe") },
        .entitlementsUnreadable: {
            EntitlementsParser.parse(Array("not a plist".utf8), fileName: "App.entitlements", appIDs: []).problems
        },
        .entitlementsEntry: { domains("<string>example.com</string>") },
        .entitlementsNoDomains: { entitlements("") },
        .entitlementsWildcard: { domains("<string>applinks:*.example.com</string>") },
        .manifestUnreadable: { manifest("<manifest") },
        .manifestNoPackage: { manifest("<manifest><application/></manifest>") },
        .manifestNoHosts: {
            manifest(
                #"<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app"/>"#)
        },
        .manifestWildcardHost: { manifest(filter(host: "*.example.com")) },
        .manifestHostName: { manifest(filter(host: "exa mple.com")) },
    ]

    @Test(arguments: InputProblemCode.allCases.filter { $0 != .acknowledgementsUnreadable })
    func eachCodeIsMadeAtItsSeverity(code: InputProblemCode) throws {
        let scenario = try #require(Self.scenarios[code], "no input makes \(code.rawValue)")
        let problems = scenario()
        let made = try #require(problems.first { $0.code == code }, "\(problems.map { $0.code?.rawValue ?? "-" })")
        #expect(made.severity == code.severity)
        #expect(problems.allSatisfy { $0.code != nil && $0.severity == $0.code?.severity })
    }

    @Test func theReportFormatListsEveryCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/report-format.md"), encoding: .utf8)
        for code in InputProblemCode.allCases {
            let parts = code.rawValue.split(separator: ".", maxSplits: 1)
            #expect(
                text.contains("`\(code.rawValue)`") || text.contains("`\(parts[1])`"),
                "docs/report-format.md does not list \(code.rawValue)")
        }
    }
}
