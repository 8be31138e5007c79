import AASAChecks
import AASAModel
import Testing

/// `assetlinks.json` is untrusted: repeated statements get a bounded report.
@Suite struct AssetLinksBoundsTests {
    @Test func includeStatementsAreCappedLikeEveryRepeatedKey() {
        // 131 KB of include statements: the probe's case, 3,066 findings per domain before.
        let distinct = (0..<20).map { "{\"include\": \"https://example.com/list-\($0).json\"}" }
        let repeated = Array(repeating: "{\"include\": \"https://example.com/same.json\"}", count: 3_000)
        let file = Array("[\((distinct + repeated).joined(separator: ","))]".utf8)
        #expect(file.count > 131_000)
        let result = AssetLinksChecks.assessContent(file, expected: [], at: .assetlinks)
        // One note per distinct URL (lint does not fetch), the record's list capped.
        let includes = result.findings.filter { $0.code == .assetLinks(.include) }
        #expect(includes.count == 21)
        #expect(includes.allSatisfy { $0.severity == .info })
        #expect(result.declarations?.includes.count == AndroidDeclarations.maximumListedIncludes)
        #expect(result.findings.count <= 60)
    }
}
