import AASAJSON
import AASAModel

/// `lint` of a `passkey-endpoints` file: known by its name or `--passkeys`; by its content, an
/// object whose members are all endpoints' names.
extension PasskeyEndpointsWant: LintedWant {
    public static func lint(_ bytes: [UInt8], size: Int, wants: AssociationWants) -> FileLint.Result {
        var findings: [Finding] = []
        var endpoints: PasskeyEndpoints?
        if size > AppleLimits.maximumFileBytes {
            findings.append(
                Finding(
                    .passkeyEndpointsTooLarge, .file,
                    "The file is \(size) bytes; this audit reads at most \(AppleLimits.maximumFileBytes)."))
        } else {
            (findings, endpoints) = PasskeyEndpointsChecks.assessContent(bytes, at: .file)
        }
        return FileLint.Result(
            verdict: Verdict(findings: findings), appIDs: ServiceAppIDs(), findings: findings,
            associations: AssociationRecords(
                PasskeyEndpointsRecord(passkeyEndpoints: endpoints ?? PasskeyEndpoints(served: false))))
    }

    public static func looksLikeItsFile(_ bytes: [UInt8]) -> Bool {
        guard case .object(let object)? = try? JSONParser.parse(bytes), !object.members.isEmpty else { return false }
        return object.members.allSatisfy { PasskeyEndpoints.names.contains($0.key) }
    }
}
