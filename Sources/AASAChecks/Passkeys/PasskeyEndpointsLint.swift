import AASAJSON
import AASAModel

/// `lint` of a `passkey-endpoints` file: known by its name or `--passkeys`; by its content, an
/// object whose members are all endpoints' names.
extension PasskeyEndpointsWant: LintedWant {
    public static func lint(_ bytes: [UInt8], size: Int, wants: AssociationWants) -> FileLint.Result {
        FileLint.associationFile(
            size: size, limit: AppleLimits.maximumFileBytes, tooLarge: .passkeyEndpoints(.tooLarge),
            read: {
                let read = PasskeyEndpointsChecks.assessContent(bytes, at: .file)
                return (read.findings, read.endpoints)
            },
            section: { PasskeyEndpointsRecord(passkeyEndpoints: $0 ?? PasskeyEndpoints(served: false)) })
    }

    public static func looksLikeItsFile(_ bytes: [UInt8]) -> Bool {
        guard case .object(let object)? = try? JSONParser.parse(bytes), !object.members.isEmpty else { return false }
        return object.members.allSatisfy { PasskeyEndpoints.names.contains($0.key) }
    }
}
