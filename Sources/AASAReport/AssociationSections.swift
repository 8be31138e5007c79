import AASAModel

/// A kind's part in the renderers: its section of the record in the terminal and in the HTML
/// report, and its file's JSON Schema. A kind's own text lives in its folder
/// (`Android/AssetLinksSections.swift`).
protocol RenderedSection: AssociationSection {
    /// A domain's lines, aligned as the rest ("  Label       value").
    func terminalRows(in report: TerminalReport) -> [(String, String)]
    /// A linted file's lines.
    func lintTerminalRows(in report: TerminalReport) -> [(String, String)]
    /// A domain's paragraph in the HTML report's details (plain text: the template escapes it).
    var htmlParagraph: String? { get }
    /// Its file's JSON Schema (`aasa-audit schema NAME`); nil for a file that is not JSON
    /// (Apple Pay's merchant file is opaque bytes).
    static var schema: AssociationSchema? { get }
}

/// A section rendered as the apps the input named and one line of what the file declares
/// (Windows, HarmonyOS): the rows and the paragraph are the same for each, but for the line.
protocol AppsLineSection: RenderedSection, ExpectedAndReadSection {
    /// The platform as the rows name it ("Windows").
    static var platformName: String { get }
    /// What the file declares, in one line.
    func line(_ read: Read) -> String
}

extension AppsLineSection {
    func terminalRows(in report: TerminalReport) -> [(String, String)] {
        var rows: [(String, String)] = []
        if let expected, !expected.isEmpty {
            rows.append(("\(Self.platformName) apps", report.clean(expected.joined(separator: ", "))))
        }
        if let read { rows.append((Self.platformName, report.clean(line(read)))) }
        return rows
    }

    func lintTerminalRows(in report: TerminalReport) -> [(String, String)] {
        read.map { [(Self.platformName, report.clean(line($0)))] } ?? []
    }

    var htmlParagraph: String? { read.map { "\(Self.platformName): \(line($0))" } }
}

/// The seam's list in the renderers: each association file's part of a domain, from its
/// section of the record, in the registry's order.
public enum AssociationSections {
    static func terminalRows(_ records: AssociationRecords, in report: TerminalReport) -> [(String, String)] {
        rendered(records).flatMap { $0.terminalRows(in: report) }
    }

    /// A linted file's lines when it is one of these files; nil for an AASA.
    static func lintTerminalRows(_ records: AssociationRecords, in report: TerminalReport) -> [(String, String)]? {
        let sections = rendered(records)
        return sections.isEmpty ? nil : sections.flatMap { $0.lintTerminalRows(in: report) }
    }

    /// The check form's fields of the other association files (`serve`'s `/check`): the query
    /// parameter, its label and its placeholder.
    public static var checkFormFields: [(name: String, label: String, placeholder: String)] {
        AssociationKinds.all.map { ($0.word, $0.formLabel, $0.formPlaceholder) }
    }

    /// Each association file's JSON Schema (`aasa-audit schema NAME`), the AASA's first.
    public static var schemas: [AssociationSchema] {
        [AASASchema.entry]
            + AssociationKinds.all.compactMap { ($0.sectionType as? any RenderedSection.Type)?.schema ?? nil }
    }

    static func htmlParagraphs(_ records: AssociationRecords) -> [String] {
        rendered(records).compactMap(\.htmlParagraph)
    }

    private static func rendered(_ records: AssociationRecords) -> [any RenderedSection] {
        records.all.compactMap { $0 as? any RenderedSection }
    }
}
