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
    public static func lint(
        _ bytes: [UInt8], size: Int, truncated: Bool = false, signature: SignatureRecord? = nil,
        options: ValidationOptions = ValidationOptions()
    ) -> Result {
        // Universal links are expected of a file only when --app-id names apps for them.
        var options = options
        options.expectsUniversalLinks = !options.expectedAppIDs.isEmpty
        let assessed = LocationChecks.assessBody(
            bytes, declaredSize: size, truncated: truncated, signature: signature, at: .file, options: options)
        var findings = assessed.findings
        if bytes.isEmpty, !truncated {
            findings = [Finding(.bodyEmpty, .file, "The file is empty.")]
        }
        if let content = assessed.content {
            let named = content.appIDs.applinks ?? []
            for expected in options.expectedAppIDs where !named.contains(expected) {
                findings.append(
                    Finding(
                        .appIDMissing, .file, "The expected app ID \(expected) is not in the file's applinks section."))
            }
        }
        return Result(
            verdict: Verdict(findings: findings), appIDs: assessed.content?.appIDs ?? ServiceAppIDs(),
            findings: findings)
    }
}
