import AASAJSON
import AASAModel

/// `lint`: the checks of an audit on a local file, as if a server had answered 200 with it
/// at `.well-known`. No network.
public enum FileLint {
    public struct Result: Sendable, Equatable {
        public var verdict: Verdict
        public var appIDs: ServiceAppIDs
        public var findings: [Finding]
        /// The file's section when it is another association file (`AssociationFiles.swift`).
        public var associations = AssociationRecords()
    }

    /// - Parameters:
    ///   - truncated: the file was larger than the bytes read.
    ///   - signature: for a signed file, what was found in it; `bytes` is then its content.
    ///   - expecting: what the input expects of the file (`lint --app-id`, `--passkeys`, as a
    ///     domains.txt line says it): judged by the audit's own code (`DomainChecks`), so a file
    ///     gets the same verdict in `lint` as served at night (one judge, issue 55). Its domain
    ///     is not used.
    public static func lint(
        _ bytes: [UInt8], size: Int, truncated: Bool = false, signature: SignatureRecord? = nil,
        options: ValidationOptions = ValidationOptions(), expecting target: DomainTarget = DomainTarget(domain: "")
    ) -> Result {
        let services = DomainChecks.ServiceExpectations(target)
        var options = options
        options.expectsUniversalLinks = services.expectsUniversalLinks(target)
        let assessed = LocationChecks.assessBody(
            bytes, declaredSize: size, truncated: truncated, signature: signature, at: .file, options: options)
        var findings = services.withoutApplinksWhenNotNeeded(assessed.findings)
        if bytes.isEmpty, !truncated {
            findings = [Finding(.aasa(.bodyEmpty), .file, "The file is empty.")]
        }
        if let file = assessed.file {
            let expected =
                DomainChecks.serviceFindings(services, file: file)
                + DomainChecks.expectedApps(
                    target, services: services, file: file, named: assessed.content?.appIDs.applinks ?? [],
                    visits: options.matchVisits)
            findings += expected.map { finding in
                var local = finding
                local.location = .file
                return local
            }
        }
        return Result(
            verdict: Verdict(findings: findings), appIDs: assessed.content?.appIDs ?? ServiceAppIDs(),
            findings: findings)
    }
}
