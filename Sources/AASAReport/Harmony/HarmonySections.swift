import AASAModel

/// `applinking.json` in the terminal and the HTML report.
extension HarmonyRecord: AppsLineSection {
    static var schema: AssociationSchema? { HarmonySchema.entry }
    static var platformName: String { "HarmonyOS" }

    func line(_ harmony: HarmonyDeclarations) -> String {
        let apps = harmony.apps.map { app in app.appIdentifier + (app.index.map { " (index \($0))" } ?? "") }
        return (apps.isEmpty ? "no apps" : apps.joined(separator: ", ")) + ". " + HarmonyLimits.verificationNote
    }
}

/// The JSON Schema of `applinking.json` (`schemas/`, printed by `aasa-audit schema harmony`). Its
/// text is the repository's file, embedded by Scripts/generate-docs.sh.
public enum HarmonySchema {
    public static let entry = AssociationSchema(kind: .harmony, file: "harmony.schema.json", text: text)
}
