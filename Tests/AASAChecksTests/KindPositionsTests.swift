import AASAModel
import Testing

@testable import AASAChecks

/// Every finding about a place in a file carries its line and column, for every kind (issue
/// 55, item 2: the four newer kinds had none, so `--format github` named the file only and
/// SARIF gave an empty region).
struct KindPositionsTests {
    /// (a kind's content check, a file with a finding about a place on `line`, the code, line).
    static let cases: [(String, @Sendable ([UInt8]) -> [Finding], String, FindingCode, Int)] = [
        (
            "webauthn", { WebAuthnChecks.assessContent($0, expected: [], at: .file).findings },
            "{\n  \"origins\": [\n    \"https://shop.example.com\",\n    \"http://localhost:3000\"\n  ]\n}\n",
            .webAuthn(.entrySkipped), 4
        ),
        (
            "webauthn", { WebAuthnChecks.assessContent($0, expected: [], at: .file).findings },
            "{\n  \"origins\": [],\n  \"extra\": 1\n}\n", .webAuthn(.unknownKey), 3
        ),
        (
            "passkey-endpoints", { PasskeyEndpointsChecks.assessContent($0, at: .file).findings },
            "{\n  \"enroll\": \"https://example.com/enroll\",\n  \"manage\": \"ftp://example.com/x\"\n}\n",
            .passkeyEndpoints(.url), 3
        ),
        (
            "windows", { WindowsChecks.assessContent($0, expected: [], at: .file).findings },
            "[\n  {\"packageFamilyName\": \"MyApp_9jmtgj1pbbz6e\", \"paths\": [\"*\"]},\n  {\"packageFamilyName\": \"MyApp_9jmtgj1pbbz6e\",\n   \"paths\": [\"*\"], \"excludePaths\": [\"account/*\"]}\n]\n",
            .windows(.pathUnanchored), 4
        ),
        (
            "windows", { WindowsChecks.assessContent($0, expected: [], at: .file).findings },
            "[\n  {\"packageFamilyName\": \"MyApp_9jmtgj1pbbz6e\", \"paths\": [\"*\"]},\n  {\"packageFamilyName\": \"nope\"}\n]\n",
            .windows(.packageName), 3
        ),
        (
            "harmony", { HarmonyChecks.assessContent($0, expected: [], at: .file).findings },
            "{\"applinking\": {\"apps\": [\n  {\"appIdentifier\": \"5765880207854972765\"},\n  {\"appIdentifier\": \"5765880207854972766\", \"index\": 1.5}\n]}}\n",
            .harmony(.index), 3
        ),
    ]

    @Test(arguments: cases.indices) func aFindingAboutAPlaceHasItsLine(_ index: Int) throws {
        let (kind, check, text, code, line) = Self.cases[index]
        let finding = try #require(check(Array(text.utf8)).first { $0.code == code }, "\(kind): no \(code.rawValue)")
        #expect(finding.position?.line == line, "\(kind) \(code.rawValue): \(String(describing: finding.position))")
        #expect(finding.position?.column != nil && finding.position?.pointer != nil)
    }

    /// The harmony index's message shows the value, not its type ("is 1.5", not "is number").
    @Test func aValueIsShownAsWritten() {
        let text = #"{"applinking": {"apps": [{"appIdentifier": "5765880207854972765", "index": 1.5}]}}"#
        let findings = HarmonyChecks.assessContent(Array(text.utf8), expected: [], at: .file).findings
        #expect(
            findings.first { $0.code == .harmony(.index) }?.message.contains("index is 1.5, not an integer") == true)
    }
}
