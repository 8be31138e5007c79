import AASAChecks
import AASAJSON
import AASAModel
import Foundation
import Testing

/// The catalog is the only source of a finding's severity (issue 39, item 2): every finding an
/// emit path makes is at its code's own severity or at one of its code's named cases. Walked over
/// every real file, Google's compatibility suite and a file built for each emit path that sets a
/// case of its own.
@Suite struct CatalogSeverityTests {
    static func offCatalog(_ findings: [Finding], in name: String) -> [String] {
        findings.filter { !$0.code.definition.severities.contains($0.severity) }.map {
            "\(name): \($0.code.rawValue) at \($0.severity.rawValue)"
        }
    }

    static func statement(_ extra: String = "", package: String = "com.example.app") -> String {
        let fingerprint = (0..<32).map { _ in "AB" }.joined(separator: ":")
        return
            #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": ["\#(fingerprint)"]}\#(extra)}"#
    }

    /// Each Android emit path that names a case of its own, and the summary of a long list.
    static let builtAssetLinks: [(String, String)] = {
        let components = (0..<1_001).map { _ in #"{"/": "/a/*"}"# }.joined(separator: ",")
        let dynamic = #""delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": "#
        return [
            ("exclude beside the target", "[" + statement(#", "exclude": {"paths": ["/a"]}"#) + "]"),
            (
                "components past the cap",
                "[" + statement(#", "relation_extensions": {\#(dynamic)[\#(components)]}}"#) + "]"
            ),
            (
                "an unknown component key",
                "[" + statement(#", "relation_extensions": {\#(dynamic)[{"path": "/a"}]}}"#) + "]"
            ),
            (
                "rules that never apply",
                #"[{"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "web", "site": "https://example.com"}, "relation_extensions": {\#(dynamic)[{"/": "/a"}]}}}]"#
            ),
            (
                "more findings than are listed",
                "[" + (0..<80).map { _ in #"{"target": 1}"# }.joined(separator: ",") + "]"
            ),
        ]
    }()

    @Test func everyEmittedSeverityIsTheCatalogs() throws {
        var wrong: [String] = []
        var checked = 0
        for (name, text) in Self.builtAssetLinks {
            let bytes = Array(text.utf8)
            let findings = FileLint.lintAssetLinks(bytes, size: bytes.count, expected: []).findings
            #expect(!findings.isEmpty, "\(name): nothing found")
            wrong += Self.offCatalog(findings, in: name)
            checked += findings.count
        }
        let oracle = SharedCorpus.directory.appendingPathComponent("../../oracles/google-dal-compat-2000.jsonl")
            .standardizedFileURL
        if let text = try? String(contentsOf: oracle, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                guard case .object(let test)? = try? JSONParser.parse(Array(line.utf8)),
                    let body = test["body"]?.stringValue
                else { continue }
                let bytes = Array(body.utf8)
                let findings = FileLint.lintAssetLinks(bytes, size: bytes.count, expected: []).findings
                wrong += Self.offCatalog(findings, in: test["name"]?.stringValue ?? "oracle")
                checked += findings.count
            }
        }
        for folder in [WildCorpus.aasa, SharedCorpus.directory, WildCorpus.assetlinks] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names where !name.hasSuffix(".tsv") && !name.hasSuffix(".md") {
                let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
                let result =
                    folder == WildCorpus.assetlinks
                    ? FileLint.lintAssetLinks(bytes, size: bytes.count, expected: [])
                    : FileLint.lint(bytes, size: bytes.count)
                wrong += Self.offCatalog(result.findings, in: name)
                checked += result.findings.count
            }
        }
        #expect(checked >= 20)
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
    }

    /// The codes with the case of a list read in part, each reached by a built file.
    static let readInPartCodes: [FindingCode] = [.assetLinks(.statement), .assetLinks(.dynamicRules)]

    @Test func aListReadInPartIsAWarningOfItsCode() {
        var reached: Set<FindingCode> = []
        for (_, text) in Self.builtAssetLinks {
            let findings = FileLint.lintAssetLinks(Array(text.utf8), size: text.utf8.count, expected: []).findings
            for finding in findings where finding.message.contains("were read") {
                #expect(finding.code.definition.cases.contains(.readInPart))
                #expect(finding.severity == SeverityCase.readInPart.severity)
                reached.insert(finding.code)
            }
        }
        // A list of more statements than are read passes the 128 KB cap only when parsed alone.
        let many = "[" + Array(repeating: "{}", count: StatementList.maximumStatements + 1).joined(separator: ",") + "]"
        let notice = StatementList.parse(Array(many.utf8)).problems.last
        #expect(notice?.code == .assetLinks(.statement) && notice?.severityCase == .readInPart)
        if let notice { reached.insert(notice.code) }
        #expect(reached == Set(Self.readInPartCodes))
    }

    /// The summary of a list cut short keeps the worst cut finding's code and severity.
    @Test func theSummaryOfACutListIsAtTheWorstCutFindingsSeverity() {
        // 80 statements with a key Android ignores (warnings), then one that is not an object.
        let text =
            "[" + (0..<80).map { _ in Self.statement(#", "conditions": 1"#) }.joined(separator: ",") + ", 7]"
        let findings = FileLint.lintAssetLinks(Array(text.utf8), size: text.utf8.count, expected: []).findings
        #expect(findings.count == 60)
        let summary = findings.last
        #expect(summary?.message.contains("more findings about assetlinks.json") == true)
        #expect(
            summary?.severity == .error && summary?.code == .assetLinks(.statement), "\(String(describing: summary))")
        #expect(findings.dropLast().allSatisfy { $0.code == .assetLinks(.unknownKey) })
    }
}
