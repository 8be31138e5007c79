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
        let includes = result.findings.filter { $0.code == .assetlinksInclude }
        #expect(includes.count == AssetLinksChecks.maximumIncludes + 1)
        #expect(
            includes.last?.message.contains("and 3010 more include statements") == true,
            "\(includes.last?.message ?? "")")
        #expect(result.declarations?.includes.count == AssetLinksChecks.maximumIncludes)
        #expect(result.findings.count <= 60)
    }
}
