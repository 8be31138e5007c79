import AASAChecks
import AASAJSON
import AASAMatching
import AASAModel
import Foundation
import Testing

/// Replays the fuzz seeds and every input a fuzzer ever crashed on
/// (Tests/Fixtures/fuzz-regressions/checks-* and matcher-*), with the fuzz targets' checks.
@Suite struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func files(in folder: String) -> [URL] {
        let directory = root.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
            .filter { !$0.hasDirectoryPath && (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) != true }
    }

    static let inputs = files(in: "Fuzz/Seeds") + files(in: "Tests/Fixtures/fuzz-regressions")

    @Test func thereAreInputsToReplay() {
        #expect(Self.inputs.count >= 2)
    }

    @Test(arguments: inputs)
    func replay(_ file: URL) throws {
        let bytes = Array(try Data(contentsOf: file))
        if !file.lastPathComponent.hasPrefix("matcher-") {
            let result = FileLint.lint(bytes, size: bytes.count)
            #expect(result.verdict == Verdict(findings: result.findings))
        }
        if !file.lastPathComponent.hasPrefix("checks-") {
            // As FuzzMatcher reads it: a URL line, then the file (seeds are files alone).
            let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
            let asMatcherInput = file.lastPathComponent.hasPrefix("matcher-")
            let url = asMatcherInput ? String(decoding: bytes[..<newline], as: UTF8.self) : "/path/a?q=1#f"
            let fileBytes = asMatcherInput ? Array(bytes[min(newline + 1, bytes.count)...]) : bytes
            guard case .object(let object)? = try? JSONParser.parse(fileBytes) else { return }
            let decision = Matcher(file: object, domain: "fuzz.example").decide(
                url.contains("://") ? url : "https://fuzz.example/" + url)
            if case .success(let decision) = decision {
                #expect(decision.outcome != .app || !decision.appIDs.isEmpty)
            }
        }
    }
}
