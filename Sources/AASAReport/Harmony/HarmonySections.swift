import AASAModel

/// `applinking.json` in the terminal and the HTML report.
extension HarmonyRecord: RenderedSection {
    static var schema: AssociationSchema { HarmonySchema.entry }

    func terminalRows(in report: TerminalReport) -> [(String, String)] {
        var rows: [(String, String)] = []
        if let expected = expectedHarmonyApps, !expected.isEmpty {
            rows.append(("HarmonyOS apps", report.clean(expected.joined(separator: ", "))))
        }
        if let harmony { rows.append(("HarmonyOS", report.clean(line(harmony)))) }
        return rows
    }

    func lintTerminalRows(in report: TerminalReport) -> [(String, String)] {
        harmony.map { [("HarmonyOS", report.clean(line($0)))] } ?? []
    }

    var htmlParagraph: String? { harmony.map { "HarmonyOS: \(line($0))" } }

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
