import AASAAudit
import AASAModel
import Foundation
import Testing

/// Where teams run lint, every registered kind is looked for by its served name, from one list
/// (`lint --names`, the registry's): the Action asks the binary; the pre-commit hook's pattern
/// and docs/ci.md's `paths:` are written out, and held equal to it here (issue 55, item 2).
struct LintNamesTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: ArchitectureMapTests.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func everyKindsServedNameIsLinted() {
        let names = LocalLint.lintedNames
        #expect(names.first == "apple-app-site-association")
        for kind in AssociationKinds.all { #expect(names.contains(kind.fileName), "\(kind.id)") }
        #expect(names.contains("apple-app-site-association.json") && names.contains("webauthn.json"))
        #expect(!names.contains("assetlinks.json.json"))
    }

    @Test func thePreCommitHooksPatternIsTheList() throws {
        let escaped = LocalLint.lintedNames.map { $0.replacingOccurrences(of: ".", with: "\\.") }
        let pattern = "(^|/)\\.well-known/(\(escaped.joined(separator: "|")))$"
        #expect(try Self.text(".pre-commit-hooks.yaml").contains("\n  files: \(pattern)\n"), "want: files: \(pattern)")
    }

    @Test func docsCIsPathsAreTheList() throws {
        let doc = try Self.text("docs/ci.md")
        for folder in ["**/.well-known/", "public/.well-known/"] {
            let list = LocalLint.lintedNames.map { "      - \"\(folder)\($0)\"\n" }.joined()
            #expect(doc.contains("    paths:   # `aasa-audit lint --names`: every kind's file\n" + list), "\(folder)")
        }
    }

    @Test func theActionAsksTheBinaryForTheNames() throws {
        let script = try Self.text("action/lint.sh")
        #expect(script.contains("aasa-audit lint --names"))
        #expect(!script.contains("assetlinks.json'"), "no name written out in the script")
    }
}
