import AASAModel

/// `windows-app-web-link` in the terminal and the HTML report.
extension WindowsRecord: AppsLineSection {
    static var schema: AssociationSchema? { WindowsSchema.entry }
    static var platformName: String { "Windows" }

    func line(_ windows: WindowsDeclarations) -> String {
        let apps = windows.entries.map { entry in
            "\(entry.packageFamilyName) (\(entry.paths.count) path\(entry.paths.count == 1 ? "" : "s")\(entry.excludePaths.isEmpty ? "" : ", \(entry.excludePaths.count) excluded")\(entry.allowSubdomains ? ", subdomains" : ""))"
        }
        return (apps.isEmpty ? "no entries" : apps.joined(separator: ", ")) + ". " + WindowsLimits.refreshNote
    }
}

/// The JSON Schema of `windows-app-web-link` (`schemas/`, printed by `aasa-audit schema windows`).
/// Its text is the repository's file, embedded by Scripts/generate-docs.sh.
public enum WindowsSchema {
    public static let entry = AssociationSchema(kind: .windows, file: "windows.schema.json", text: text)
}
