import AASAModel

/// The JSON Schema of the `apple-app-site-association` file itself (`schemas/`, printed by
/// `aasa-audit schema aasa`), for editors and CI: every shape iOS reads, and the mistakes
/// structure can catch. Its text is the repository's file, embedded by Scripts/generate-docs.sh.
public enum AASASchema {
    public static let entry = AssociationSchema(
        name: ServedFile.aasa.id, file: ServedFile.aasa.name + ".schema.json", text: text,
        fileNames: [ServedFile.aasa.name, ServedFile.aasa.name + ".json"])
}

/// An association file's JSON Schema: the name `aasa-audit schema` takes, the file under
/// `schemas/`, its text, and the file names editors map it to.
public struct AssociationSchema: Sendable {
    public let name: String
    public let file: String
    public let text: String
    public let fileNames: [String]

    init(name: String, file: String, text: String, fileNames: [String]) {
        self.name = name
        self.file = file
        self.text = text
        self.fileNames = fileNames
    }

    /// An association kind's schema: named as the kind, for its file's name.
    init(kind: AssociationKind, file: String, text: String) {
        self.init(name: kind.id, file: file, text: text, fileNames: [kind.fileName])
    }
}
