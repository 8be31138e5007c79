import AASAModel

/// `web-app-origin-association` in the terminal and the HTML report.
extension WebAppRecord: AppsLineSection {
    static var schema: AssociationSchema? { WebAppSchema.entry }
    static var platformName: String { "PWA" }

    func line(_ associations: WebAppAssociations) -> String {
        let apps = associations.apps.map { "\($0.manifestID) (scope \($0.scope))" }
        return apps.isEmpty ? "no apps Chromium reads" : apps.joined(separator: ", ")
    }
}

/// The JSON Schema of `web-app-origin-association` (`schemas/`, printed by `aasa-audit schema
/// webapp`). Its text is the repository's file, embedded by Scripts/generate-docs.sh.
public enum WebAppSchema {
    public static let entry = AssociationSchema(kind: .webApp, file: "webapp.schema.json", text: text)
}
