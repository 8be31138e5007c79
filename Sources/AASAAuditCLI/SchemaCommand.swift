import AASAAudit
import AASAModel
import AASAReport
import ArgumentParser

/// `aasa-audit schema NAME`: the JSON Schema of an association file (`AssociationSections.schemas`),
/// for an editor or a CI validator (docs/editors.md).
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract:
            "Print the JSON Schema of an association file (\(AssociationSections.schemas.map(\.name).joined(separator: " or "))), for editors and CI.",
        discussion:
            "The same files as schemas/ in the repository and /usr/share/aasa-audit/schemas: map them to \(AssociationSections.schemas.flatMap(\.fileNames).joined(separator: ", ")) in VS Code or a JetBrains IDE (docs/editors.md)."
    )

    @Argument(
        help: ArgumentHelp(
            "Which file's schema: \(AssociationSections.schemas.map(\.name).joined(separator: " or ")).",
            valueName: "file"),
        transform: SchemaCommand.schema)
    var schema: AssociationSchema

    static func schema(_ name: String) throws -> AssociationSchema {
        guard let found = AssociationSections.schemas.first(where: { $0.name == name.lowercased() }) else {
            if let kind = AssociationKinds.all.first(where: { $0.id == name.lowercased() && !$0.isJSON }) {
                throw OptionValueError(
                    description:
                        "\(kind.fileName) is not JSON but opaque bytes, so it has no schema (lint checks it: lint --kind \(kind.id) FILE); give \(AssociationSections.schemas.map(\.name).joined(separator: " or "))"
                )
            }
            throw OptionValueError(
                description: "give \(AssociationSections.schemas.map(\.name).joined(separator: " or "))")
        }
        return found
    }

    func run() throws {
        StandardConsole().print(schema.text + "\n")
    }
}
