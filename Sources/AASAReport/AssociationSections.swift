import AASAModel

/// The seam's list in the renderers: each association file's part of a domain in the terminal
/// and in the HTML report, from its section of the record. A kind's own text lives in its
/// folder (`Android/AssetLinksSections.swift`).
public enum AssociationSections {
    /// A domain's lines, aligned as the rest ("  Label       value").
    static func terminalRows(_ records: AssociationRecords, in report: TerminalReport) -> [(String, String)] {
        report.assetLinksRows(records)
    }

    /// A linted file's lines when it is one of these files; nil for an AASA.
    static func lintTerminalRows(_ records: AssociationRecords, in report: TerminalReport) -> [(String, String)]? {
        report.assetLinksLintRows(records)
    }

    /// A domain's paragraphs in the HTML report's details (plain text: the template escapes it).
    /// The check form's fields of the other association files (`serve`'s `/check`): the query
    /// parameter, its label and its placeholder.
    public static let checkFormFields: [(name: String, label: String, placeholder: String)] =
        AssociationKinds.all.map { ($0.word, $0.formLabel, $0.formPlaceholder) }

    /// Each association file's JSON Schema (`aasa-audit schema NAME`), the AASA's first.
    public static let schemas: [AssociationSchema] = [AASASchema.entry, AssetLinksSchema.entry]

    static func htmlParagraphs(_ records: AssociationRecords) -> [String] {
        [AssetLinksSections.htmlParagraph(records)].compactMap { $0 }
    }
}
