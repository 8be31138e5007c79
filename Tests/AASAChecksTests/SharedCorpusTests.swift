import AASAChecks
import AASAJSON
import AASAModel
import Foundation
import TestSupport
import Testing

/// The real files of `../shared/corpus/aasa`, which a user's clone does not have: these tests
/// skip, visibly, when the folder is absent.
enum SharedCorpus {
    static let directory = Repository.shared.appendingPathComponent("corpus/aasa").standardizedFileURL

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("MANIFEST.tsv").path)
    }

    /// (file name, manifest notes) for every file.
    static func manifest() throws -> [(file: String, notes: String)] {
        let text = try String(contentsOf: directory.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            return (String(columns[0]), String(columns.last ?? ""))
        }
    }

    static func check(_ file: String) throws -> DomainChecks.Result {
        let body = Array(try Data(contentsOf: directory.appendingPathComponent(file)))
        let root = Fixture.served("", at: .root, status: 404)
        return DomainChecks.assess(target: Fixture.target(), wellKnown: Fixture.served(body), root: root)
    }
}

@Suite(
    .enabled(
        if: SharedCorpus.isAvailable,
        "../shared/corpus is absent (a user's clone has none): skipping the shared-corpus tests"))
struct SharedCorpusTests {
    @Test func sharedCorpusEveryFileGetsAVerdictAndInvalidJSONIsNamed() throws {
        let manifest = try SharedCorpus.manifest()
        #expect(manifest.count >= 190)
        var invalid = 0
        for (file, notes) in manifest {
            let result = try SharedCorpus.check(file)
            let verdict = Verdict(findings: result.findings)
            let saysInvalid = notes.contains("INVALID JSON")
            let foundInvalid = result.findings.contains { $0.code == .aasa(.jsonInvalid) }
            #expect(
                saysInvalid == foundInvalid,
                "\(file): manifest says \(saysInvalid ? "invalid" : "valid"), checks found \(result.findings.summary)")
            if foundInvalid {
                invalid += 1
                #expect(verdict == .fail)
                #expect(result.findings.first { $0.code == .aasa(.jsonInvalid) }?.message.contains("line ") == true)
            }
        }
        #expect(invalid == 14)
    }

    /// Every finding the checks place in a real file is found in it: its pointer names a value
    /// there, and it has a line and column.
    @Test func sharedCorpusFindingsArePlacedInTheirFiles() throws {
        var placed = 0
        var unplaced: [String] = []
        for (file, _) in try SharedCorpus.manifest() {
            for finding in try SharedCorpus.check(file).findings where finding.location == .wellKnown {
                guard let position = finding.position else {
                    if finding.code.definition.category == .content,
                        ![.aasa(.appIDMalformed), .aasa(.applinksMissing)].contains(finding.code),
                        !finding.message.hasPrefix("…")
                    {
                        unplaced.append("\(file): \(finding.code.rawValue): \(finding.message)")
                    }
                    continue
                }
                #expect(
                    position.line != nil && position.column != nil,
                    "\(file): \(position.pointer ?? "-") \(finding.message)")
                placed += 1
            }
        }
        #expect(placed > 40, "\(placed) findings placed")
        #expect(unplaced.isEmpty, "\(unplaced.prefix(10))")
    }

    @Test(arguments: [
        // Pinned by hand: what these real files must yield.
        ("0001.json", ["json.invalid/error/well-known"], "trailing comma"),
        (
            "0054.json", ["json.invalid/error/well-known"],
            "control character U+000A inside a string (must be escaped) at line 8, column 19"
        ),
        ("0024.json", ["appid.malformed/error/well-known"], "REPLACE_WITH_DEVELOPMENT_TEAM_ID"),
        ("0188.json", ["appid.malformed/error/well-known"], "ABCD1234.com.apple.wwdc"),
        (
            "0037.json", Array(repeating: "rule.unreachable/warning/well-known", count: 3),
            "exclusion never applies, because applinks.details[0].components[0] matches every URL first"
        ),
        (
            "0082.json", ["entry.unknown-key/warning/well-known", "entry.no-app/error/well-known"],
            "did you mean \"appID\""
        ),
        (
            "0103.json",
            ["appid.malformed/error/well-known", "paths.url/error/well-known", "paths.url/error/well-known"],
            "\"http://www.novelty.today/redirects/*\" is a full URL"
        ),
        ("0189.json", ["rule.unreachable/warning/well-known"], "applinks.details[0].paths[1]"),
    ])
    func sharedCorpusPinnedFiles(file: String, expected: [String], detail: String) throws {
        let result = try SharedCorpus.check(file)
        let findings = result.findings.filter { $0.location == .wellKnown }
        #expect(findings.summary == expected)
        if !detail.isEmpty {
            #expect(findings.contains { $0.message.contains(detail) }, "\(findings.map(\.message))")
        }
    }

    @Test func sharedCorpusRealAppIDsAreRead() throws {
        #expect(try SharedCorpus.check("0037.json").appIDs.applinks == ["LT5JAC55XG.io.goodservice.The-Weekendest"])
        #expect(try SharedCorpus.check("0001.json").appIDs == ServiceAppIDs())
    }
}

/// Placeholders by the shape of the prefix and whole template words (issue 37): live app IDs
/// of the wild corpus whose bundle IDs hold such letters pass; every real placeholder seen still
/// fails; and every example the tool gives is one it accepts.
@Suite struct PlaceholderAppIDTests {
    @Test(arguments: [
        "S3DD273774.com.todoist.ios", "7UH5YF3AE3.com.dpdgroup.your-dpd", "QX7TM4K2RB.com.replacement.app",
        "QX7TM4K2RB.com.example.todos", "QX7TM4K2RB.com.bundleidea.app",
    ])
    func realBundleIDsAreNotPlaceholders(_ appID: String) {
        #expect(AppIDFormat.problem(with: appID) == nil, "\(AppIDFormat.problem(with: appID) ?? "")")
    }

    @Test(arguments: [
        "TEAM_ID.com.example.app", "YOUR_TEAM_ID.com.example.app", "<TeamID>.com.example.app",
        "$(AppIdentifierPrefix)com.example.app", "{{TEAM}}.com.example.app", "QX7TM4K2RB.com.example.TODO",
        "QX7TM4K2RB.BUNDLEID", "REPLACE_WITH_DEVELOPMENT_TEAM_ID.com.x",
    ])
    func templatesArePlaceholders(_ appID: String) {
        #expect(AppIDFormat.problem(with: appID)?.contains("placeholder") == true, "\(appID)")
    }

    @Test func theToolsOwnExampleIsOneItAccepts() {
        #expect(AppIDFormat.problem(with: AppIDFormat.example) == nil)
        let fix = FindingCode.aasa(.appIDMalformed).definition.fix
        #expect(fix.contains(AppIDFormat.example) && !fix.contains("ABCDE12345"))
    }
}

/// A regression net over the files teams really deploy (`../shared/corpus/wild` and
/// `../shared/corpus/aasa`, issue 37): every file is linted without a crash, within the match
/// budget's time, and no error contradicts the file (an `applinks.missing` for a file that has
/// an applinks object). Skipped, visibly, when the corpus is absent (a user's clone).
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: WildCorpus.aasa.path),
        "../shared/corpus/wild is absent (a user's clone has none): skipping the regression net"))
struct WildCorpusTests {
    @Test func everyRealFileIsLintedAndNoErrorContradictsIt() throws {
        var files = 0
        for folder in [WildCorpus.aasa, SharedCorpus.directory] {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                !$0.hasSuffix(".tsv") && !$0.hasSuffix(".md")
            }
            for name in names.sorted() {
                let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
                let result = FileLint.lint(bytes, size: bytes.count)
                files += 1
                let hasApplinks: Bool = {
                    guard let parsed = try? JSONParser.parse(bytes) else { return false }
                    return parsed.objectValue?["applinks"]?.objectValue != nil
                }()
                #expect(
                    !(hasApplinks
                        && result.findings.contains { $0.code == .aasa(.applinksMissing) && $0.severity == .error }),
                    "\(name): applinks.missing on a file with applinks")
                #expect(
                    result.findings.allSatisfy { $0.code != .aasa(.appIDMalformed) || $0.message.contains("\"") },
                    "\(name): an app ID finding names no app ID")
            }
        }
        #expect(files >= 440)
        for name in try FileManager.default.contentsOfDirectory(atPath: WildCorpus.assetlinks.path).sorted() {
            let bytes = Array(try Data(contentsOf: WildCorpus.assetlinks.appendingPathComponent(name)))
            let result = FileLint.lintAssetLinks(bytes, size: bytes.count, expected: [])
            #expect(
                !result.findings.contains { $0.code == .aasa(.applinksMissing) },
                "\(name): an AASA code on assetlinks.json")
        }
    }
}

extension WildCorpusTests {
    static func lint(aasa name: String) throws -> FileLint.Result {
        let bytes = Array(try Data(contentsOf: WildCorpus.aasa.appendingPathComponent(name)))
        return FileLint.lint(bytes, size: bytes.count)
    }

    /// The classes of false alarm and miss the real files showed, each on a file that has it
    /// (issue 37): a webcredentials-only file, live app IDs whose bundle IDs hold "todo" and
    /// "your-", entries with comments, a statement with conditions Android ignores.
    @Test func theRealFilesOfEachClassAreJudgedAsTheDevicesJudgeThem() throws {
        let servicesOnly = try Self.lint(aasa: "0003")
        #expect(Verdict(findings: servicesOnly.findings) == .pass)
        #expect(
            servicesOnly.findings.map(\.code) == [.aasa(.applinksMissing)] && servicesOnly.findings[0].severity == .info
        )
        for name in ["0106", "0118", "0001"] {
            let result = try Self.lint(aasa: name)
            #expect(Verdict(findings: result.findings) == .pass, "\(name): \(result.findings.map(\.code))")
            #expect(
                !result.findings.contains { $0.code == .aasa(.appIDMalformed) || $0.code == .aasa(.entryUnknownKey) })
        }
        let conditions = Array(try Data(contentsOf: WildCorpus.assetlinks.appendingPathComponent("0066.json")))
        let android = FileLint.lintAssetLinks(conditions, size: conditions.count, expected: [])
        #expect(android.findings.contains { $0.code == .assetLinks(.unknownKey) && $0.message.contains("conditions") })
    }
}

enum WildCorpus {
    static let directory = SharedCorpus.directory.deletingLastPathComponent().appendingPathComponent("wild")
    static let aasa = directory.appendingPathComponent("aasa")
    static let assetlinks = directory.appendingPathComponent("assetlinks")
}
