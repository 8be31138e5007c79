import AASAModel
import Foundation
import Testing

/// `docs/architecture.md` is the map of the code: every source path it names exists.
@Suite struct ArchitectureMapTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The code spans of the page that name a path: `Target/File.swift`, `Target/Type` (a file
    /// `Target/Type.swift`), `Tests/…`, `Scripts/…`, `docs/…`, `Fuzz/…`.
    static func namedPaths(in page: String) -> [String] {
        let targets =
            (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? []
        let spans = page.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter {
            $0.offset % 2 == 1
        }.map { String($0.element) }
        return spans.filter { span in
            guard !span.contains(" "), let first = span.split(separator: "/").first, span.contains("/") else {
                return false
            }
            return targets.contains(String(first))
                || ["Tests", "Scripts", "docs", "Fuzz", "Sources", "Packaging", "schemas", "action"].contains(
                    String(first))
        }
    }

    static func exists(_ path: String) -> Bool {
        let top = ["Tests", "Scripts", "docs", "Fuzz", "Sources", "Packaging", "schemas", "action"].contains(
            String(path.split(separator: "/")[0]))
        let base = top ? root : root.appendingPathComponent("Sources")
        let url = base.appendingPathComponent(path.hasSuffix("/") ? String(path.dropLast()) : path)
        return FileManager.default.fileExists(atPath: url.path)
            || FileManager.default.fileExists(atPath: url.path + ".swift")
    }

    @Test func everyPathTheArchitecturePageNamesExists() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let paths = Self.namedPaths(in: page)
        #expect(paths.count > 40, "\(paths.count) paths found: the page's spans are not read")
        let missing = paths.filter { !Self.exists($0) }
        #expect(missing.isEmpty, "docs/architecture.md names paths that do not exist: \(missing)")
    }

    @Test func aStalePathIsFound() {
        #expect(
            Self.namedPaths(in: "see `AASAChecks/NoSuchFile.swift` and `AASAAudit/Run/AuditRun` and `the x/y thing`")
                == [
                    "AASAChecks/NoSuchFile.swift", "AASAAudit/Run/AuditRun",
                ])
        #expect(
            !Self.exists("AASAChecks/NoSuchFile.swift") && Self.exists("AASAAudit/Run/AuditRun")
                && Self.exists("docs/architecture.md"))
    }

    /// The seam for association files (docs/architecture.md, "Association files: the seam"):
    /// only each kind's rooms, the registry, the layers' lists and the input parsers name a
    /// registered kind's words; each file outside says why it may.
    @Test func associationKindsLiveInTheirRooms() throws {
        let allowed: [String: String] = [
            "AssociationKind.swift": "the registry",
            "AssociationFiles.swift": "the seam's list in each target",
            "AssociationSections.swift": "the seam's list in the renderers",
            "AssociationOptions.swift": "the seam's options in the CLI",
            "ReportSchemaDocument+Text.swift": "docs/report.schema.json embedded, generated: it names every location",
        ]
        let words = AssociationKinds.all.flatMap(\.sourceWords).map { $0.lowercased() }
        #expect(words.contains("android") && words.contains("assetlinks"), "the registry's words: \(words)")
        let rooms = AssociationKinds.all.map { "/\($0.room)/" }
        let sources = Self.root.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var mentioning: [String] = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift") || path.hasSuffix(".c") || path.hasSuffix(".h") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8).lowercased()
            if words.contains(where: text.contains) { mentioning.append(path) }
        }
        #expect(mentioning.count >= 10, "the sources were not read: \(mentioning)")
        let outside = mentioning.filter { path in
            !rooms.contains(where: path.contains) && allowed[String(path.split(separator: "/").last ?? "")] == nil
        }
        #expect(
            outside.isEmpty, "an association kind's code outside its rooms and the seam's lists: \(outside.sorted())")
    }

    /// The catalog is checked by the compiler: each family of codes (an enum conforming to
    /// `FindingCodeFamily`) has one switch for its entries, exhaustive, with no `default:` that
    /// would let a code without its entry compile and trap when asked. Every family the
    /// registry knows is found in the sources.
    @Test func everyCatalogSwitchIsExhaustive() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var families: [String: String] = [:]
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains(": String, FindingCodeFamily {") {
                let name = line.split(separator: " ").drop { $0 != "enum" }.dropFirst().first.map { $0.dropLast() }
                families[String(name ?? "")] = text
            }
        }
        let kinds = AssociationKinds.all.map { String(describing: $0.codes) }
        #expect(
            Set(families.keys) == Set(["AASACode", "TransferCode", "RunCode"] + kinds), "\(families.keys.sorted())")
        for (family, text) in families {
            #expect(!text.contains("default:"), "\(family)'s file has a default: a code without an entry would compile")
        }
    }

    /// A claim the map says a guard holds names the guard (`OneOwnerTests`,
    /// `ArchitectureMapTests.associationKindsLiveInTheirRooms`): each such name is a suite of
    /// `Tests/`, and a test named after its dot is a function of it, so a renamed or removed guard
    /// leaves no claim standing on nothing.
    @Test func everyGuardThePageNamesExists() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let spans = page.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter {
            $0.offset % 2 == 1
        }.map { String($0.element) }
        let tests = Self.root.appendingPathComponent("Tests")
        // A suite, or a suite and its test; not a file (`….swift`) or a test target's folder.
        let guards = spans.filter { span in
            span.range(of: #"^[A-Z][A-Za-z]*Tests(\.[a-z][A-Za-z]*)?$"#, options: .regularExpression) != nil
                && !span.hasSuffix(".swift")
                && !FileManager.default.fileExists(atPath: tests.appendingPathComponent(span).path)
        }
        #expect(guards.count >= 5, "the page's guards were not read: \(guards)")
        let enumerator = try #require(FileManager.default.enumerator(atPath: tests.path))
        var text = ""
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            text += try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
        }
        let missing = guards.filter { name in
            let parts = name.split(separator: ".")
            let suite = text.contains("struct \(parts[0])") || text.contains("extension \(parts[0])")
            return !suite || (parts.count == 2 && !text.contains("func \(parts[1])("))
        }
        #expect(missing.isEmpty, "the page names guards that are not there: \(missing)")
    }

    /// Adding a kind touches its rooms, its registry line and its command-line option outside
    /// them (docs/architecture.md, "Association files: the seam"): for every registered kind, the
    /// code (not the comments) outside its rooms that names it is in those two files, the seam
    /// lists of optional layers (`AssociationFiles.swift`: `explain_url`'s deciders) and the
    /// generated copy of the report schema. A planted mention elsewhere is found.
    @Test func aKindTouchesItsRoomsItsRegistryLineAndItsOptionOutside() throws {
        let allowed: Set<String> = [
            "AssociationKind.swift", "AssociationOptions.swift", "AssociationFiles.swift",
            "ReportSchemaDocument+Text.swift",
        ]
        let sources = Self.root.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var files: [(path: String, code: [String])] = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            let code = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.hasPrefix("//") }
            files.append((path, code))
        }
        func touching(_ kind: AssociationKind, in files: [(path: String, code: [String])]) -> Set<String> {
            let words = kind.sourceWords.map { $0.lowercased() }
            let rooms = AssociationKinds.all.map { "/\($0.room)/" }
            return Set(
                files.filter { file in
                    !rooms.contains(where: file.path.contains)
                        && file.code.contains { line in words.contains(where: line.contains) }
                }.map { String($0.path.split(separator: "/").last ?? "") })
        }
        for kind in AssociationKinds.all {
            let outside = touching(kind, in: files)
            #expect(
                outside.isSubset(of: allowed),
                "\(kind.id) is named outside its rooms in \(outside.subtracting(allowed))")
        }
        let planted = files + [(path: "AASAReport/Planted.swift", code: ["let x = \"\(AssociationKind.harmony.id)\""])]
        #expect(touching(.harmony, in: planted).contains("Planted.swift"))
    }
}
