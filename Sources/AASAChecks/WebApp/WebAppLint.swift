import AASAJSON
import AASAModel

/// `lint` of a `web-app-origin-association`: known by its name or `--webapp`; by its content, an
/// object whose keys are https URLs (manifest ids).
extension WebAppWant: LintedWant {
    public static func lint(_ bytes: [UInt8], size: Int, wants: AssociationWants) -> FileLint.Result {
        let expected = wants[WebAppWant.self]?.manifestIDs ?? []
        return FileLint.associationFile(
            size: size, limit: WebAppLimits.maximumFileBytes, tooLarge: .webApp(.tooLarge),
            read: {
                let read = WebAppChecks.assessContent(bytes, origin: nil, expected: expected, at: .file)
                return (read.findings, read.associations)
            },
            section: { WebAppRecord(expectedWebApps: expected.isEmpty ? nil : expected, webApp: $0) })
    }

    public static func looksLikeItsFile(_ bytes: [UInt8]) -> Bool {
        guard case .object(let object)? = try? JSONParser.parse(bytes), !object.keys.isEmpty else { return false }
        return object.keys.allSatisfy { WebAppManifestID.canonical($0) != nil }
            || object.keys.contains(where: { $0 == "web_apps" })
    }
}
