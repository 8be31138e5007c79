import AASAJSON
import AASAModel

/// `lint` of a `windows-app-web-link` file: known by its name or `--windows`; by its content, an
/// array whose first entry has `packageFamilyName`.
extension WindowsWant: LintedWant {
    public static func lint(_ bytes: [UInt8], size: Int, wants: AssociationWants) -> FileLint.Result {
        let expected = wants[WindowsWant.self]?.packageFamilyNames ?? []
        return FileLint.associationFile(
            size: size, limit: WindowsLimits.maximumFileBytes, tooLarge: .windows(.tooLarge),
            read: { WindowsChecks.assessContent(bytes, expected: expected, at: .file) },
            section: { WindowsRecord(expectedWindowsApps: expected.isEmpty ? nil : expected, windows: $0) })
    }

    public static func looksLikeItsFile(_ bytes: [UInt8]) -> Bool {
        guard case .array(let items)? = try? JSONParser.parse(bytes), case .object(let first)? = items.first else {
            return false
        }
        return first["packageFamilyName"] != nil
    }
}
