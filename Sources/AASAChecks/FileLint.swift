import AASAModel

/// `lint`: the checks of an audit on a local file, as if a server had answered 200 with it
/// at `.well-known`. No network.
public enum FileLint {
    public struct Result: Sendable, Equatable {
        public var verdict: Verdict
        public var appIDs: ServiceAppIDs
        public var findings: [Finding]
    }

    /// - Parameters:
    ///   - truncated: the file was larger than the bytes read.
    ///   - signature: for a signed file, what was found in it; `bytes` is then its content.
    public static func lint(
        _ bytes: [UInt8], size: Int, truncated: Bool = false, signature: SignatureRecord? = nil, options: ValidationOptions = ValidationOptions()
    ) -> Result {
        let assessed = LocationChecks.assessBody(bytes, declaredSize: size, truncated: truncated, signature: signature, at: .file, options: options)
        var findings = assessed.findings
        if bytes.isEmpty, !truncated {
            findings = [Finding(.bodyEmpty, .file, "The file is empty.")]
        }
        return Result(verdict: Verdict(findings: findings), appIDs: assessed.content?.appIDs ?? ServiceAppIDs(), findings: findings)
    }
}
