import AASAModel
import DomainList
import Foundation
import TestSupport
import Testing

@Suite struct EntitlementsParserTests {
    static func plist(_ entries: [String]) -> [UInt8] {
        let strings = entries.map { "<string>\($0)</string>" }.joined()
        return Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>com.apple.developer.associated-domains</key><array>\(strings)</array></dict></plist>
            """.utf8)
    }

    /// A problem names the line of the plist where its entry stands, as Xcode writes them.
    @Test func problemsNameTheLineOfTheirEntry() {
        let bytes = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            	<key>com.apple.developer.associated-domains</key>
            	<array>
            		<string>applinks:example.com</string>
            		<string>applinks:*.example.com</string>
            		<string>nonsense</string>
            	</array>
            </dict>
            </plist>
            """.utf8)
        let result = EntitlementsParser.parse(bytes, fileName: "App.entitlements", appIDs: [])
        #expect(result.problems.map(\.line) == [8, 9])
    }

    @Test func readsHostsServicesAndModes() {
        let result = EntitlementsParser.parse(
            Self.plist([
                "applinks:Example.com", "webcredentials:example.com", "applinks:example.com?mode=developer",
                "appclips:clip.example.com", "activitycontinuation:www.example.com?mode=developer+managed",
            ]), fileName: "App.entitlements", appIDs: ["ABCDE12346.com.example.app"])
        #expect(result.problems.isEmpty)
        #expect(result.targets.map(\.domain) == ["example.com", "clip.example.com", "www.example.com"])
        #expect(
            result.targets[0].services == [
                AssociatedService(service: .applinks, file: "App.entitlements"),
                AssociatedService(service: .webcredentials, file: "App.entitlements"),
                AssociatedService(service: .applinks, mode: "developer", file: "App.entitlements"),
            ])
        #expect(result.targets[2].services.first?.mode == "developer+managed")
        #expect(result.targets.allSatisfy { $0.expectedAppIDs == ["ABCDE12346.com.example.app"] })
    }

    @Test(arguments: [
        ("applinks:*.example.com", Severity.warning, "is a wildcard"),
        ("maps:example.com", .error, "not an associated-domains service"),
        ("applinks:example.com?mode=test", .error, "the only parameter is mode="),
        ("applinks:https://example.com", .error, "is a URL"),
        ("example.com", .error, "is not SERVICE:HOST"),
    ])
    func reportsEntriesItCannotAudit(entry: String, severity: Severity, reason: String) {
        let result = EntitlementsParser.parse(
            Self.plist([entry, "applinks:ok.example.com"]), fileName: "A.entitlements", appIDs: [])
        #expect(result.targets.map(\.domain) == ["ok.example.com"])
        #expect(result.problems.map(\.severity) == [severity])
        #expect(result.problems.first?.message.contains(reason) == true, "\(result.problems)")
    }

    @Test func saysWhatIsWrongWithAFileThatIsNotEntitlements() {
        #expect(
            EntitlementsParser.parse(Array("not a plist".utf8), fileName: "x", appIDs: []).problems.first?.message
                .contains("not a property list") == true)
        let empty = Array(#"<?xml version="1.0"?><plist version="1.0"><dict/></plist>"#.utf8)
        #expect(
            EntitlementsParser.parse(empty, fileName: "x", appIDs: []).problems.first?.message.contains(
                "name no associated domains") == true)
    }

    @Test func aDomainsFileThatIsAPlistPointsAtEntitlements() {
        let result = DomainListParser.parse(Self.plist(["applinks:example.com"]), fileName: "domains.txt")
        #expect(result.targets.isEmpty)
        #expect(
            result.problems.map(\.message) == [
                "This is a property list, not a domains file; pass an entitlements file with --entitlements."
            ])
    }

    @Test func mergesHostsNamedByTwoInputs() {
        let fromDomains = [DomainTarget(domain: "example.com", expectedAppIDs: ["ABCDE12346.a.b"], inputLine: 1)]
        let fromEntitlements = [
            DomainTarget(
                domain: "example.com", expectedAppIDs: ["ABCDE12346.a.c"],
                services: [AssociatedService(service: .applinks, file: "E")]),
            DomainTarget(domain: "other.example", services: [AssociatedService(service: .webcredentials, file: "E")]),
        ]
        let merged = EntitlementsParser.merge([fromDomains, fromEntitlements])
        #expect(merged.map(\.domain) == ["example.com", "other.example"])
        #expect(merged[0].expectedAppIDs == ["ABCDE12346.a.b", "ABCDE12346.a.c"])
        #expect(merged[0].inputLine == 1)
        #expect(merged[0].services.map(\.service) == [.applinks])
    }

    static let corpus = Repository.shared.appendingPathComponent("corpus/entitlements").standardizedFileURL

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: corpus.appendingPathComponent("MANIFEST.tsv").path),
            "../shared/corpus is absent (a user's clone has none): skipping the shared-corpus entitlements test"))
    func sharedCorpusEntitlementsAllParse() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter {
            $0.hasSuffix(".entitlements")
        }.sorted()
        #expect(files.count == 21)
        var hosts: [String: [DomainTarget]] = [:]
        for file in files {
            let result = EntitlementsParser.parse(
                Array(try Data(contentsOf: Self.corpus.appendingPathComponent(file))), fileName: file, appIDs: [])
            #expect(!result.problems.contains { $0.severity == .error }, "\(file): \(result.problems)")
            #expect(!result.targets.isEmpty, "\(file) names no host")
            hosts[file] = result.targets
        }
        #expect(hosts["0007.entitlements"]?.map(\.domain) == ["wikipedia.org"])
        #expect(
            hosts["0007.entitlements"]?.first?.services.map(\.service) == [
                .applinks, .activitycontinuation, .webcredentials,
            ])
        #expect(hosts["0019.entitlements"]?.first?.services.map(\.mode) == [nil, "developer"])
        #expect(hosts["0014.entitlements"]?.first?.services.map(\.service) == [.appclips])
        #expect(hosts["0021.entitlements"]?.map(\.domain) == ["eduverse-dad5e.web.app"])
    }
}
