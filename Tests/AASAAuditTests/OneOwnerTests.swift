import Foundation
import TestSupport
import Testing

@testable import AASAModel

/// One owner per fact (issue 39): each fact that was once stated twice is stated once, and a
/// second statement of it is found here. Reads the sources as text.
@Suite struct OneOwnerTests {
    static let sources = ArchitectureMapTests.root.appendingPathComponent("Sources")

    /// Every Swift file of `Sources`, by its path under it, and its text.
    static let files: [(path: String, text: String)] = {
        var files: [(String, String)] = []
        let enumerator = FileManager.default.enumerator(atPath: sources.path)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift"),
                let text = try? String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            else { continue }
            files.append((path, text))
        }
        return files.sorted { $0.0 < $1.0 }
    }()

    static func files(containing needle: Needle) -> [String] {
        files.filter { needle.found(in: $0.text) }.map(\.path)
    }

    /// What a second statement of a fact looks like: a spelling, or a file name of the output
    /// folder in any string literal that ends with it (`"report.html"`, `"/report.html"`,
    /// `"\(run)/report.html"`), and the differently spelled statements the guard must find.
    struct Needle: Sendable, CustomStringConvertible {
        /// A regular expression.
        let pattern: String
        let plantings: [String]
        let description: String

        static func text(_ text: String) -> Needle {
            Needle(pattern: NSRegularExpression.escapedPattern(for: text), plantings: [text], description: text)
        }

        static func file(_ name: String) -> Needle {
            let escaped = name.replacingOccurrences(of: ".", with: "\\.")
            return Needle(
                pattern: "\"(?:[^\"\\n]*/)?\(escaped)\"",
                plantings: ["\"\(name)\"", "\"/\(name)\"", "\"\\(run)/\(name)\"", "base + \"/\(name)\""],
                description: name)
        }

        func found(in text: String) -> Bool {
            text.contains(try! Regex(pattern))
        }
    }

    /// (what is written, the one file that may write it, the fact). A finding's severity comes
    /// from the catalog: no entry here, the compiler holds it (`Finding.init(code:severity:…)` is
    /// internal to the model).
    static let owners: [(needle: Needle, owner: String, fact: String)] =
        [
            (.text("T000000Z"), "AASAModel/Vocabulary/RunFolderName.swift", "a run folder's name"),
            (.text("attoseconds"), "AASAModel/Vocabulary/DurationSeconds.swift", "a duration in seconds"),
            (.text("bodySHA256 =="), "AASAChecks/LocationChecks.swift", "the two locations served the same bytes"),
            (
                .text("\"Content-Security-Policy\""), "AASAServe/Middleware/SecurityHeaders.swift",
                "serve's security headers"
            ),
            (.text("{\"status\""), "AASAServe/HTTPError.swift", "how serve encodes a refusal"),
            (
                Needle(
                    pattern: #"(?:[=(\[,]|[A-Za-z]:)\s*"apple-app-site-association"#,
                    plantings: [
                        #""apple-app-site-association""#, #"["apple-app-site-association.json"]"#,
                        #"Schema(file: "apple-app-site-association.schema.json")"#,
                    ],
                    description: "the AASA's file name in a Swift literal (the schema's JSON copy aside)"),
                "AASAModel/AASA/AASAServedFile.swift", "the AASA's file name"
            ),
        ]
        + [
            "latest.json", "latest.html", "report.json", "report.html", "history.json", "index.html",
            "acknowledgements.json", "journal.sqlite", "domains.jsonl", "in-flight.sqlite",
        ].map { (.file($0), "AASAModel/Vocabulary/OutputFolderLayout.swift", "the output folder's layout") }

    /// The files besides the owner that state a fact.
    static func strangers(
        _ owner: (needle: Needle, owner: String, fact: String), in files: [(path: String, text: String)]
    )
        -> [String]
    {
        files.filter { owner.needle.found(in: $0.text) && $0.path != owner.owner }.map(\.path)
    }

    @Test func eachFactHasOneOwner() {
        #expect(Self.files.count > 100, "the sources were not read")
        for owner in Self.owners {
            let strangers = Self.strangers(owner, in: Self.files)
            #expect(strangers.isEmpty, "\(owner.fact) is stated outside \(owner.owner): \(strangers)")
        }
    }

    /// A second statement of each fact is found: planted in a file of its own beside the real
    /// sources, as a second owner would write it (each of its spellings: a file of the output
    /// folder with a path before it too), each fact's scan names that file and no other.
    @Test func aSecondStatementOfEachFactWouldBeFound() {
        for owner in Self.owners {
            for planting in owner.needle.plantings {
                let planted = Self.files + [(path: "Planted/Second.swift", text: "let second = \(planting) // a copy")]
                #expect(Self.strangers(owner, in: planted) == ["Planted/Second.swift"], "\(owner.fact): \(planting)")
            }
        }
        // And each owner states its fact: the needle is the owner's own spelling, not a guess.
        for owner in Self.owners {
            #expect(
                Self.files(containing: owner.needle).contains(owner.owner),
                "\(owner.owner) no longer says \(owner.needle)")
        }
    }

    /// Each option's name, as a message outside the command line writes it: `--out` is
    /// `OptionName.out` (a renamed option is then one edit, and the CLI declares it from the
    /// same case). A CSS variable (`var(--code)`, `--code:`) is not an option; comments are not
    /// read. The generated schema text copies `schemas/`.
    static func optionSpellings(in text: String) -> [String] {
        let names = (OptionName.allCases.map(\.rawValue) + AndroidOption.allCases.map(\.rawValue)).joined(
            separator: "|")
        let option = try! NSRegularExpression(pattern: "(?<!var\\()(?<![a-z-])--(?:\(names))(?![a-z:-])")
        return text.split(separator: "\n").map(String.init).filter { line in
            !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                && option.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
        }
    }

    @Test func optionNamesAreSpelledByTheirOwnerOnly() {
        let strangers = Self.files.filter { file in
            !file.path.hasPrefix("AASAAuditCLI/") && !file.path.hasSuffix("ReportSchemaDocument+Text.swift")
                && !file.path.hasSuffix("Android/AndroidAppLinksKind.swift")
                && !Self.optionSpellings(in: file.text).isEmpty
        }
        #expect(strangers.isEmpty, "\(strangers.map { "\($0.path): \(Self.optionSpellings(in: $0.text))" })")
        // Planted: found in a message however it stands; not in a CSS variable or a comment.
        for planted in [#""give the --out of your audits""#, #""(--min-ios)""#, #""--token-file \(path)""#] {
            #expect(Self.optionSpellings(in: "let m = \(planted)").count == 1, "\(planted)")
        }
        for innocent in ["background:var(--code);", "--code:#f0f2f5;", "/// give the --out", "--outer", "x--out"] {
            #expect(Self.optionSpellings(in: innocent).isEmpty, "\(innocent)")
        }
    }

    /// Every key the HTML views answer is read by a template: a computed field no template
    /// reads (as `RowView.index` and `FileView.sameAsRow` were) is dead weight per row.
    @Test func everyViewKeyIsReadByATemplate() throws {
        let lookup = try #require(Self.files.first { $0.path == "AASAReport/HTMLReport+Lookup.swift" }?.text)
        let templates = Self.files.filter {
            $0.path.hasPrefix("AASAReport/") && ($0.path.contains("Templates") || $0.path.contains("Page"))
        }.map(\.text).joined()
        let keys = lookup.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("case \""), let end = trimmed.dropFirst(6).firstIndex(of: "\"") else { return nil }
            return String(trimmed[trimmed.index(trimmed.startIndex, offsetBy: 6)..<end])
        }
        #expect(keys.count > 30, "the lookups were not read")
        let unread = keys.filter { key in
            !["{{\(key)}}", "{{#\(key)}}", "{{^\(key)}}", "{{{\(key)}}}", "{{\(key).", "{{#\(key).", ".\(key)}}"]
                .contains { templates.contains($0) }
        }
        #expect(unread.isEmpty, "view keys no template reads: \(unread)")
    }

    /// The pure targets read no clock: the time is always given.
    @Test func thePureTargetsReadNoClock() {
        let pure = ["AASAJSON/", "AASAModel/", "AASAMatching/", "AASAChecks/", "DomainList/", "AASAReport/"]
        let reading = Self.files.filter { file in pure.contains { file.path.hasPrefix($0) } }.filter { file in
            ["Date()", "Date.now", "ContinuousClock", "gettimeofday", "clock_gettime"].contains {
                file.text.contains($0)
            }
        }
        #expect(reading.isEmpty, "pure files that read the clock: \(reading.map(\.path))")
    }

    /// The project's address is `ToolInfo.homepage` wherever a file outside the code writes it
    /// (the Action, the schemas' `$id`, the units, the man page, the docs).
    @Test func everyFileNamesTheProjectAtItsOneAddress() throws {
        let root = ArchitectureMapTests.root
        var addresses: [String: Set<String>] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let path = enumerator?.nextObject() as? String {
            guard !path.hasPrefix(".build"), !path.hasPrefix(".git/"), !path.contains("/.build"),
                ["md", "yml", "yaml", "json", "mdoc", "service", "swift", "sh"].contains(
                    (path as NSString).pathExtension),
                let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            else { continue }
            for match in text.matches(of: /https:\/\/github\.com\/[A-Za-z0-9_.-]+\/aasa-audit\b/) {
                addresses[String(match.output), default: []].insert(path)
            }
        }
        #expect(addresses[ToolInfo.homepage] != nil, "no file names \(ToolInfo.homepage)")
        #expect(addresses.keys.allSatisfy { $0 == ToolInfo.homepage }, "other addresses: \(addresses)")
    }

    /// The man page's exit statuses are the README's table's.
    @Test func theManPageAndTheREADMEListTheSameExitStatuses() throws {
        let root = ArchitectureMapTests.root
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let man = try String(contentsOf: root.appendingPathComponent("Packaging/man/sections.mdoc"), encoding: .utf8)
        let inREADME = Set(
            readme.split(separator: "\n").compactMap { line -> String? in
                guard let match = line.wholeMatch(of: /\| ([0-9]+(?:, [0-9]+)*) \|.*/) else { return nil }
                return String(match.output.1)
            })
        let inMan = Set(
            man.split(separator: "\n").compactMap { line -> String? in
                guard let match = line.wholeMatch(of: /\.It "?([0-9]+(?:, [0-9]+)*)"?/) else { return nil }
                return String(match.output.1)
            })
        #expect(inMan.count >= 6, "the man page's statuses were not read: \(inMan)")
        #expect(inREADME == inMan, "README: \(inREADME.sorted()), man page: \(inMan.sorted())")
    }

    /// `Package.swift` declares what each target imports (and each test target).
    @Test func thePackageDeclaresWhatEachTargetImports() throws {
        let manifest = try String(
            contentsOf: ArchitectureMapTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let root = ArchitectureMapTests.root
        let targets = ["Sources", "Tests"].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? [])
                .map { (folder, $0) }
        }
        let modules = Set(targets.map(\.1))
        var checked = 0
        for (folder, target) in targets {
            guard let declaration = manifest.range(of: "name: \"\(target)\"") else { continue }
            let rest = manifest[declaration.upperBound...]
            let end = rest.range(of: "\n        .")?.lowerBound ?? rest.endIndex
            let declared = rest[..<end]
            var imported: Set<String> = []
            let enumerator = FileManager.default.enumerator(
                atPath: root.appendingPathComponent(folder).appendingPathComponent(target).path)
            while let path = enumerator?.nextObject() as? String {
                guard path.hasSuffix(".swift"),
                    let text = try? String(
                        contentsOf: root.appendingPathComponent(folder).appendingPathComponent(target)
                            .appendingPathComponent(path), encoding: .utf8)
                else { continue }
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                        words[..<index].allSatisfy({ $0.hasPrefix("@") })
                    else { continue }
                    let module = String(words[index + 1])
                    if modules.contains(module), module != target { imported.insert(module) }
                }
            }
            let undeclared = imported.filter { !declared.contains("\"\($0)\"") }
            #expect(undeclared.isEmpty, "\(target) imports \(undeclared.sorted()) without declaring it")
            checked += 1
        }
        #expect(checked >= 15)
    }

    /// No function, initialiser or computed property in `Sources` is longer than 60 lines, but a
    /// table that reads better whole (marked so in a comment above it).
    @Test func noFunctionIsLongerThanSixtyLines() {
        var long: [String] = []
        for file in Self.files {
            long += Self.overlong(file.text).map { "\(file.path):\($0.line) \($0.declaration) (\($0.lines) lines)" }
        }
        #expect(long.isEmpty, "bodies over 60 lines: \(long)")
    }

    /// The bodies over 60 lines not marked as tables that read better whole.
    static func overlong(_ source: String) -> [SwiftBodies.Body] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        return SwiftBodies.measure(source).filter { body in
            body.lines > 60
                && !lines[max(0, body.line - 5)..<(body.line - 1)].contains { $0.contains("reads better whole") }
        }
    }

    /// The guard finds what it claims to: a 61-line function, an initialiser whose parameter list
    /// holds a default closure, a long computed property, not a 60-line one, not braces in
    /// strings or comments, not a requirement without a body, not a marked table.
    @Test func theLengthGuardFindsPlantedBodies() {
        func filler(_ count: Int) -> String { String(repeating: "    let x = 1\n", count: count) }
        let planted = """
            protocol P {
                func requirement() -> Int
                var stored: Int { get }
            }
            struct S {
                func sixtyOne() {
            \(filler(59))    }
                init(make: () -> Int = { 1 }, other: Int = 2) {
            \(filler(70))    }
                var computed: Int {
            \(filler(61))        return 1
                }
                func sixty() {
                    let text = "}}} \\(1) {{{ \\("}")"
                    let block = \"\"\"
                        } } } {
                        \"\"\"
                    let raw = #"}" \\(2) "#
                    // }}}
                    /* } /* nested } */ } */
            \(filler(51))    }
                // A table that reads better whole.
                func table() {
            \(filler(80))    }
            }
            """
        let found = Self.overlong(planted).map { "\($0.declaration.prefix(12)):\($0.lines)" }
        #expect(found == ["func sixtyOn:61", "init(make: (:72", "var computed:64"], "\(found)")
        let sixty = SwiftBodies.measure(planted).first { $0.declaration.hasPrefix("func sixty()") }
        #expect(sixty?.lines == 60, "braces in strings and comments are not counted")
    }
}
