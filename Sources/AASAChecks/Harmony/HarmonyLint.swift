import AASAJSON
import AASAModel

/// `lint` of an `applinking.json`: known by its name or `--harmony`; by its content, an object
/// with `applinking`.
extension HarmonyWant: LintedWant {
    public static func lint(_ bytes: [UInt8], size: Int, wants: AssociationWants) -> FileLint.Result {
        let expected = wants[HarmonyWant.self]?.appIdentifiers ?? []
        return FileLint.associationFile(
            size: size, limit: HarmonyLimits.maximumFileBytes, tooLarge: .harmony(.tooLarge),
            read: { HarmonyChecks.assessContent(bytes, expected: expected, at: .file) },
            section: { HarmonyRecord(expectedHarmonyApps: expected.isEmpty ? nil : expected, harmony: $0) })
    }

    public static func looksLikeItsFile(_ bytes: [UInt8]) -> Bool {
        guard case .object(let object)? = try? JSONParser.parse(bytes) else { return false }
        return object["applinking"] != nil
    }
}
