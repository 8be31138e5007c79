import AASAModel
import Testing

@testable import AASAChecks

/// Fix texts that send people to the right place (issue 56, item 2).
struct FixTextTests {
    static let name = "Contoso.ExampleApp_8wekyb3d8bbwe"

    static func missing(_ text: String) -> String? {
        WindowsChecks.assessContent(Array(text.utf8), expected: [name], at: .file).findings
            .first { $0.code == .windows(.appMissing) }?.message
    }

    /// An entry that names the app but is unusable is named, not "no entry names it".
    @Test func aWindowsAppInAnUnusableEntryIsNamedAsSuch() throws {
        let message = try #require(Self.missing(#"[{"packageFamilyName": "\#(Self.name)", "paths": "*"}]"#))
        #expect(message.hasPrefix("Entry [0] names \(Self.name) but Windows cannot use it"), "\(message)")
    }

    /// With no entry for it, the entry to add names the expected app, not Microsoft's sample.
    @Test func theEntryToAddNamesTheExpectedApp() throws {
        let message = try #require(Self.missing(#"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["*"]}]"#))
        #expect(message.contains(#"Add {"packageFamilyName": "\#(Self.name)", "paths": ["*"]}"#), "\(message)")
    }

    /// service.missing's fix covers a section that is there and lacks only the app.
    @Test func serviceMissingsFixCoversASectionThatLacksTheApp() {
        #expect(FindingCode.aasa(.serviceMissing).definition.fix.hasPrefix("Add the app to the section's apps"))
    }
}
