import AASAModel
import AASAReport
import Foundation
import TestSupport
import Testing

@Suite struct JSONReportTests {
    func document(_ domains: [DomainReport], complete: Bool = true, tool: ToolInfo = ToolInfo(version: "0.1.0")) -> Data
    {
        var data = Data()
        try! JSONReport.writeDocument(
            tool: tool, run: Samples.run(complete: complete),
            summary: Samples.summary(of: domains),
            input: InputInfo(problems: [Samples.problem()]),
            records: { each in try domains.forEach { try each(JSONReport.encodeRecord($0)) } }
        ) { data.append($0) }
        return data
    }

    @Test func aStreamedDocumentDecodesToTheSameReport() throws {
        let domains = [Samples.domain("a.example"), Samples.minimalDomain(), Samples.domain("c.example", text: "y")]
        let decoded = try JSONReport.makeDecoder().decode(AuditReport.self, from: document(domains))
        #expect(decoded.schemaVersion == ReportSchema.version)
        #expect(decoded.domains == domains)
        #expect(decoded.domains.map(\.domain) == ["a.example", "bare.example", "c.example"])
        #expect(decoded.summary == Samples.summary(of: domains))
        #expect(decoded.run == Samples.run())
        #expect(decoded.input.problems == [Samples.problem()])
    }

    /// The next run reads the previous one back line by line (`JSONReport.snapshot`), relying on
    /// the layout `writeDocument` writes: this breaks if the two drift apart.
    @Test func theSnapshotReaderReadsWhatTheWriterWrites() throws {
        let domains = [Samples.domain("a.example"), Samples.minimalDomain(), Samples.domain("c.example", text: "y")]
        let lines = document(domains).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            Data($0)
        }
        let snapshot = try #require(JSONReport.snapshot(lines: lines))
        #expect(snapshot.startedAt == Samples.run().startedAt)
        #expect(snapshot.domains == domains.map(DomainSnapshot.init))
        #expect(JSONReport.snapshot(lines: [Data(#"{"domains":[]}"#.utf8)]) == nil)
        #expect(
            JSONReport.snapshot(lines: document([]).split(separator: UInt8(ascii: "\n")).map { Data($0) })?.domains
                == [])
    }

    @Test func anEmptyDomainListIsStillADocument() throws {
        let decoded = try JSONReport.makeDecoder().decode(AuditReport.self, from: document([], complete: false))
        #expect(decoded.domains.isEmpty)
        #expect(decoded.run.complete == false)
    }

    @Test func fieldNamesAreThePublicOnes() throws {
        let object = try #require(
            try JSONSerialization.jsonObject(with: document([Samples.domain()])) as? [String: Any])
        #expect(Set(object.keys) == ["schemaVersion", "tool", "run", "summary", "input", "domains"])
        let domain = try #require((object["domains"] as? [[String: Any]])?.first)
        #expect(
            Set(domain.keys) == [
                "domain", "inputLine", "expectedAppIDs", "verdict", "fetches", "appIDs", "findings",
                "expectedAndroidApps", "android",
            ])
        let fetch = try #require((domain["fetches"] as? [[String: Any]])?.first)
        #expect(
            Set(fetch.keys) == [
                "location", "url", "status", "httpVersion", "redirectTarget", "remoteIP", "newConnection",
                "headers", "timings", "bodyBytes", "bodySHA256", "bodyTruncated", "error", "signature",
            ])
        #expect(
            Set((fetch["signature"] as? [String: Any] ?? [:]).keys) == [
                "format", "opened", "contentBytes", "signerSubject", "certificates", "verified", "problem",
            ])
        #expect(Set((fetch["headers"] as? [String: Any] ?? [:]).keys) == Set(ResponseHeaders.recordedNames))
        #expect((object["run"] as? [String: Any])?["startedAt"] as? String == "2026-11-18T11:06:40Z")
    }

    @Test(
        .live, .tags(.live),
        .enabled(if: ReportSchemaValidator.isAvailable, Comment(rawValue: ReportSchemaValidator.unavailableMessage)))
    func documentsValidateAgainstTheSchema() async throws {
        let full = document([Samples.domain(), Samples.minimalDomain()])
        #expect(try await ReportSchemaValidator.errors(in: full) == [])
        let empty = document([])
        #expect(try await ReportSchemaValidator.errors(in: empty) == [])
        // A release binary's report names the commit it was built from.
        let release = document([], tool: ToolInfo(version: "0.2.0", commit: "1a2b3c4d5e6f"))
        #expect(try await ReportSchemaValidator.errors(in: release) == [])
        #expect(String(decoding: release, as: UTF8.self).contains(#""commit":"1a2b3c4d5e6f""#))
        #expect(!String(decoding: empty, as: UTF8.self).contains("commit"))
        #expect(ToolInfo(version: "0.2.0", commit: "1a2b").versionLine == "0.2.0 (commit 1a2b)")
    }

    @Test(
        .live, .tags(.live),
        .enabled(if: ReportSchemaValidator.isAvailable, Comment(rawValue: ReportSchemaValidator.unavailableMessage)))
    func theSchemaRejectsWhatItDoesNotDescribe() async throws {
        var object = try #require(
            try JSONSerialization.jsonObject(with: document([Samples.domain()])) as? [String: Any])
        var domains = try #require(object["domains"] as? [[String: Any]])
        domains[0]["verdict"] = "maybe"
        domains[0]["undocumented"] = true
        object["domains"] = domains
        let errors = try await ReportSchemaValidator.errors(in: JSONSerialization.data(withJSONObject: object))
        #expect(errors.count == 2, "\(errors)")
    }

    @Test func theSchemaListsExactlyTheFindingCodes() throws {
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Repository.file("docs/report.schema.json")))
                as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let codes = try #require((definitions["findingCode"] as? [String: Any])?["enum"] as? [String])
        #expect(codes == FindingCode.allCases.map(\.rawValue))
    }

    @Test func theDocsExplainEveryFindingCodeAndField() throws {
        let findings = try String(contentsOf: Repository.file("docs/findings.md"), encoding: .utf8)
        for code in FindingCode.allCases {
            #expect(findings.contains("`\(code.rawValue)`"), "docs/findings.md does not list \(code.rawValue)")
        }
        let format = try String(contentsOf: Repository.file("docs/report-format.md"), encoding: .utf8)
        for field in [
            "schemaVersion", "startedAt", "complete", "findingsByCode", "inputLine", "expectedAppIDs", "redirectTarget",
            "newConnection", "bodySHA256", "bodyTruncated", "curlCode", "firstByteMs", "agent", "signature",
            "signerSubject", "contentBytes", "expectedAndroidApps", "android", "entitlements", "changes",
            "previousRunStartedAt", "newFindings", "resolvedFindings", "addedDomains", "removedDomains", "cdnURL",
        ] + ResponseHeaders.recordedNames {
            #expect(format.contains("`\(field)`"), "docs/report-format.md does not describe \(field)")
        }
    }
}

@Suite struct FindingsDocumentTests {
    @Test func docsFindingsIsTheGeneratedTable() throws {
        let committed = try String(contentsOf: Repository.file("docs/findings.md"), encoding: .utf8)
        #expect(
            committed == FindingsMarkdown.document(),
            "docs/findings.md is stale: run `aasa-audit explain --markdown > docs/findings.md`")
    }
}
