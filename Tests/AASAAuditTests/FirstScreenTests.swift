import AASAModel
import AASAReport
import DomainList
import Foundation
import TestSupport
import Testing

/// The first screen says what the tool is: every file that binds apps to websites, not the
/// AASA alone (issue 56, item 5): the README's first sentence and its example line, `--help`,
/// the package's description and conffile (the report's and history page's titles:
/// `ReportTitleTests`).
@Suite(.live, .tags(.live)) struct FirstScreenTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: Repository.file(path), encoding: .utf8)
    }

    @Test func theREADMEsFirstParagraphNamesEveryKind() throws {
        let readme = try Self.text("README.md")
        let first = try #require(readme.components(separatedBy: "\n\n").dropFirst().first)
        for name in AssociationKinds.servedFileNames { #expect(first.contains("`\(name)`"), "\(name)") }
        // The two commands stay first.
        let fence = try #require(readme.range(of: "```sh\n"))
        #expect(readme[fence.upperBound...].hasPrefix("# Run the audit of ./domains.txt"))
    }

    @Test func theREADMEsExampleLineHasATokenOfEveryKind() throws {
        let readme = try Self.text("README.md")
        let line = try #require(
            readme.components(separatedBy: "\n").first { $0.hasPrefix("shop.example.com  ") }, "the example line")
        let parsed = DomainListParser.parse(Array((line + "\n").utf8), fileName: "README.md")
        #expect(parsed.problems.isEmpty, "\(parsed.problems.map(\.message))")
        let target = try #require(parsed.targets.first)
        #expect(target.wants.all.count == AssociationKinds.all.count && !target.expectedAppIDs.isEmpty)
        let conffile = try Self.text("Packaging/debian/domains.txt")
        for kind in AssociationKinds.all { #expect(conffile.contains(kind.fileName), "\(kind.id)") }
    }

    @Test func helpAndThePackageSayWhatItIs() async throws {
        let help = try await ProcessRunner.run(CommandLineTests.binary, ["--help"])
        let overview = try #require(help.stdout.components(separatedBy: "\n\n").first)
            .replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        for name in AssociationKinds.servedFileNames { #expect(overview.contains(name), "\(overview)") }
        let control = try Self.text("Packaging/debian/control.in")
        #expect(!control.contains("auditor for iOS universal links and Android App Links files"))
        for kind in AssociationKinds.all { #expect(control.contains(kind.fileName), "\(kind.id)") }
    }

}

/// The admin's documents name every kind and say what drives what (issue 56, item 4).
@Suite struct MonitoringDocsTests {
    @Test func theFileLabelListsEveryKind() throws {
        let doc = try FirstScreenTests.text("docs/monitoring.md")
        let line = try #require(
            doc.components(separatedBy: "\n").first { $0.contains("aasa_audit_domain_file_verdict{") })
        for kind in AssociationKinds.all { #expect(line.contains("`\(kind.id)`"), "\(kind.id)") }
    }

    @Test func theDashboardIsDrivenByTheAuditsMetrics() throws {
        let dashboard = try FirstScreenTests.text("Packaging/grafana/aasa-audit-dashboard.json")
        #expect(!dashboard.contains("or serve's /metrics."))
        #expect(!dashboard.contains("universal links and App Links"))
    }
}
