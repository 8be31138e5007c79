import AASAFetch
import AuditTestSupport
import Foundation
import TestSupport
import Testing

@testable import AASAAudit
@testable import AASAChecks
@testable import AASAModel
@testable import AASAReport
@testable import AASAServe

/// The registry of association kinds (docs/architecture.md, "Association files: the seam"):
/// each layer reaches a kind through the registry's one list and the kind's types.
@Suite struct AssociationRegistryTests {
    /// A kind whose part a layer lacks would be skipped there at run time: every registered
    /// kind has its part in every layer.
    @Test func everyRegisteredKindHasItsPartInEveryLayer() throws {
        for kind in AssociationKinds.all {
            #expect(kind.wantType is any LintedWant.Type, "\(kind.id) has no lint")
            #expect(kind.wantType is any AuditedWant.Type, "\(kind.id) has no audit")
            #expect(kind.sectionType is any RenderedSection.Type, "\(kind.id) has no sections")
            #expect(kind.wantType.kind.id == kind.id && kind.sectionType.kind.id == kind.id)
            #expect(
                AssociationSections.schemas.contains { $0.name == kind.id } == kind.isJSON,
                "\(kind.id): a schema if and only if its file is JSON")
        }
    }

    /// The dry run: a kind that exists only in this file (its rooms, below) and one registry
    /// line is asked for by serve's check, audited on a loopback server, kept in the record
    /// through JSON, shown in the terminal and the HTML, linted by its name and its content,
    /// badged as a platform, and catalogued; outside the line, nothing knows it.
    @Test(.live, .tags(.live)) func aStubKindIsItsRoomsAndOneRegistryLine() async throws {
        #expect(AASALocation(rawValue: AssociationKind.stub.id) == nil, "known before its line")
        try await AssociationKinds.$all.withValue(AssociationKinds.all + [.stub]) {
            // serve's check: its parameter, read by its want type; a bad value named.
            #expect(AssociationSections.checkFormFields.map(\.name).contains("stub"))
            let query = CheckQuery(domain: "good.aasa.test", more: ["stub": ["hello"]])
            let wants = try query.checked().wants
            #expect(wants[StubWant.self] == StubWant(notes: ["hello"]))
            #expect(throws: HTTPError(400, "stub=two words: a note is one word.")) {
                try CheckQuery(domain: "good.aasa.test", more: ["stub": ["two words"]]).checked()
            }

            // The audit: its request on the domain's connection, its section in the record.
            let world = try TestWorld()
            let fetcher = try Fetcher(configuration: world.fetcherConfiguration(timeout: 60))
            defer { fetcher.shutdown() }
            let report = await DomainAuditor(fetcher: fetcher).audit(
                DomainTarget(domain: "good.aasa.test", expectedAppIDs: [TestWorld.appID], wants: wants)
            ).report
            let stubFetch = try #require(report.fetches.first { $0.location == AssociationKind.stub.location })
            #expect(stubFetch.url.hasSuffix("/.well-known/stub-association") && stubFetch.label == "stub-association")
            #expect(report.associations[StubSection.self] == StubSection(stubStatus: 200, stubNotes: ["hello"]))
            #expect(report.verdict == .pass, "\(report.findings.map(\.message))")

            // The AASA is the registry's first file, the stub its last; a domain that serves no
            // AASA (its want removed, as ios:none does) asks for the stub's file alone.
            #expect(AssociationKinds.files.first?.id == "aasa" && AssociationKinds.files.last?.id == "stub")
            var withoutAASA = DomainTarget(domain: "good.aasa.test", wants: wants)
            withoutAASA.aasa = nil
            let stubOnly = await DomainAuditor(fetcher: fetcher).audit(withoutAASA).report
            #expect(stubOnly.fetches.map(\.location) == [AssociationKind.stub.location], "\(stubOnly.fetches)")
            #expect(stubOnly.ios == "none" && stubOnly.linkPlatforms.map(\.linkName) == ["stub links"])
            #expect(report.fetches.first?.location == .wellKnown, "the AASA's part leads the domain's group")

            // JSON: its keys at the record's top level, read back; the platforms from them.
            let encoded = try JSONReport.makeEncoder().encode(report)
            let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
            #expect(object["stubStatus"] as? Int == 200)
            let decoded = try JSONReport.makeDecoder().decode(DomainReport.self, from: encoded)
            #expect(decoded.associations == report.associations)
            #expect(decoded.linkPlatforms.map(\.linkName) == ["universal links", "stub links"])

            // The terminal and the HTML.
            #expect(TerminalReport(colour: false).domain(report).contains("Stub"))
            #expect(AssociationSections.htmlParagraphs(report.associations) == ["Stub answered 200 for hello"])

            // lint: by its name, and by its content under another name.
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            for name in ["stub-association", "renamed.txt"] {
                let path = directory.url.appendingPathComponent(name).path
                try "stub file".write(toFile: path, atomically: true, encoding: .utf8)
                let record = LocalLint.run([path], options: .init())[0]
                #expect(record.associations[StubSection.self]?.stubStatus == 0, "\(name)")
                #expect(TerminalReport(colour: false).lint(record).contains("Stub  9 bytes"), "\(name)")
            }

            // The catalog and the schemas.
            #expect(FindingCategory.allCases.map(\.title).contains("A stub kind"))
            // Its codes are the catalog's while its line is in the registry, and not after.
            let code = try #require(FindingCode(rawValue: "stub.unreadable"))
            #expect(code.definition.category.title == "A stub kind" && FindingCode.allCases.contains(code))
            #expect(AssociationKind.stub.owns(code) && !AssociationKind.harmony.owns(code))
            // Its platform fixes: every platform's, naming its path.
            let missing = PlatformFixes.fix(
                FindingCode(StubCode.status), on: .nextjs, answer: ServedAnswer(status: 404, servedAPage: false))
            #expect(missing?.contains("public/.well-known/stub-association") == true, "\(missing ?? "")")
            #expect(AssociationSections.schemas.map(\.name).last == "stub")
        }
        #expect(AASALocation(rawValue: AssociationKind.stub.id) == nil, "known after its line")
        #expect(FindingCode(rawValue: "stub.unreadable") == nil)
    }
}

// MARK: - The stub kind's rooms

extension AssociationKind {
    static let stub = AssociationKind(
        id: "stub", word: "stub", fileName: "stub-association", path: "/.well-known/stub-association",
        categoryName: "stub", categoryTitle: "A stub kind", linkedFetchLabel: "another stub file", room: "Stub",
        formLabel: "Stub note", formPlaceholder: "one word", apiParameter: "A note the stub file must hold.",
        platform: LinkPlatform(rawValue: "stub", linkName: "stub links", shortName: "Stub"),
        wantType: StubWant.self,
        sectionType: StubSection.self, recordKey: "stubStatus", wantAlone: nil,
        codes: StubCode.self, fetchedBy: "the stub's client",
        serving: ServingCodes(
            status: FindingCode(StubCode.status), redirect: FindingCode(StubCode.redirect), contentType: nil, syntax: []
        ))
}

/// The stub kind's codes, each with its entry.
enum StubCode: String, FindingCodeFamily {
    case unreadable = "stub.unreadable"
    case status = "stub.status"
    case redirect = "stub.redirect"

    var definition: FindingDefinition {
        switch self {
        case .unreadable:
            FindingDefinition(
                AssociationKind.stub.category, .warning, meaning: "The stub file cannot be read.",
                fix: "Write it again.")
        case .status:
            FindingDefinition(
                AssociationKind.stub.category, .error, meaning: "The stub file is not served.", fix: "Serve it.")
        case .redirect:
            FindingDefinition(
                AssociationKind.stub.category, .error, meaning: "The stub file is redirected.",
                fix: "Serve it at its own URL.")
        }
    }
}

struct StubWant: AssociationWant, Equatable, LintedWant, AuditedWant {
    static var kind: AssociationKind { .stub }
    var notes: [String]

    static func parsing(_ values: [String]) throws(AssociationValueError) -> any AssociationWant {
        if let bad = values.first(where: { $0.contains(" ") }) {
            throw AssociationValueError(value: bad, reason: "a note is one word")
        }
        return StubWant(notes: values)
    }

    func merging(_ other: StubWant) -> StubWant { StubWant(notes: notes + other.notes) }

    static func lint(_ bytes: [UInt8], size: Int, wants: AssociationWants) -> FileLint.Result {
        var records = AssociationRecords()
        records[StubSection.self] = StubSection(stubStatus: 0, stubNotes: [], stubBytes: size)
        return FileLint.Result(verdict: .pass, appIDs: ServiceAppIDs(), findings: [], associations: records)
    }

    static func looksLikeItsFile(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("stub".utf8)) }

    func audit(within wants: AssociationWants) -> any AssociationFileAudit { StubAudit(notes: notes) }
}

struct StubAudit: AssociationFileAudit {
    let notes: [String]

    func requests(domain: String) -> [FetchRequest] {
        [
            FetchRequest(
                url: AssociationKind.stub.location.url(on: domain), location: AssociationKind.stub.location,
                closeConnection: true)
        ]
    }

    func audit(_ answers: [FetchedLocation], more: DeadlineFetch) async -> AssociationOutcome {
        guard let main = answers.first else { return AssociationOutcome() }
        var records = AssociationRecords()
        records[StubSection.self] = StubSection(stubStatus: main.record.status, stubNotes: notes)
        return AssociationOutcome(fetches: [main.record], records: records)
    }
}

struct StubSection: AssociationSection, Equatable, RenderedSection {
    static var kind: AssociationKind { .stub }
    var stubStatus: Int?
    var stubNotes: [String]?
    var stubBytes: Int?

    func merging(_ other: StubSection) -> StubSection { other }

    static func decodeIfPresent(from decoder: any Decoder) throws -> StubSection? {
        let section = try StubSection(from: decoder)
        return section.stubStatus == nil ? nil : section
    }

    func terminalRows(in report: TerminalReport) -> [(String, String)] { [("Stub", "\(stubStatus ?? 0)")] }
    func lintTerminalRows(in report: TerminalReport) -> [(String, String)] { [("Stub", "\(stubBytes ?? 0) bytes")] }
    var htmlParagraph: String? { "Stub answered \(stubStatus ?? 0) for \((stubNotes ?? []).joined(separator: ", "))" }
    static var schema: AssociationSchema? {
        AssociationSchema(name: "stub", file: "stub.schema.json", text: "{}", fileNames: ["stub-association"])
    }
}
