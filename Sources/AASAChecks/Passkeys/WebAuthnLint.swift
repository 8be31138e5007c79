import AASAJSON
import AASAModel

/// `lint` of a `webauthn` file: known by its name, by `--origin`, or by its content (an object
/// with `origins` and no AASA section), checked offline as browsers read it.
extension WebAuthnWant: LintedWant {
    public static func lint(_ bytes: [UInt8], size: Int, wants: AssociationWants) -> FileLint.Result {
        let expected = wants.webauthnOrigins ?? []
        if size > WebAuthnLimits.maximumBodyBytes {
            let findings = [
                Finding(
                    .webAuthn(.tooLarge), .file,
                    "The file is \(size) bytes; browsers read at most \(WebAuthnLimits.maximumBodyBytes).")
            ]
            return FileLint.Result(verdict: Verdict(findings: findings), appIDs: ServiceAppIDs(), findings: findings)
        }
        let assessed = WebAuthnChecks.assessContent(bytes, expected: expected, at: .file)
        return FileLint.Result(
            verdict: Verdict(findings: assessed.findings), appIDs: ServiceAppIDs(), findings: assessed.findings,
            associations: AssociationRecords(WebAuthnRecord(expectedOrigins: expected, webauthn: assessed.declarations))
        )
    }

    public static func looksLikeItsFile(_ bytes: [UInt8]) -> Bool {
        guard case .object(let object)? = try? JSONParser.parse(bytes) else { return false }
        let keys = Set(object.members.map(\.key))
        return keys.contains("origins") && keys.isDisjoint(with: ["applinks", "webcredentials", "appclips"])
    }
}
