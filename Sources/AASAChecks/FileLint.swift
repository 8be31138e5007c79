import AASAJSON
import AASAModel

/// `lint`: the checks of an audit on a local file, as if a server had answered 200 with it
/// at `.well-known`. No network.
public enum FileLint {
    public struct Result: Sendable, Equatable {
        public var verdict: Verdict
        public var appIDs: ServiceAppIDs
        public var findings: [Finding]
        /// Set when the file is an Android `assetlinks.json`.
        public var android: AndroidDeclarations?
    }

    /// Whether bytes are an Android `assetlinks.json` rather than an association file: a JSON
    /// array whose first statement has `relation`, `target` or `include`.
    public static func isAssetLinks(_ bytes: [UInt8]) -> Bool {
        guard case .array(let items)? = try? JSONParser.parse(bytes), case .object(let first)? = items.first else {
            return false
        }
        return first["relation"] != nil || first["target"] != nil || first["include"] != nil
    }

    /// `lint` of an Android `assetlinks.json`, offline, with the apps it must declare.
    public static func lintAssetLinks(_ bytes: [UInt8], size: Int, expected: [AndroidApp]) -> Result {
        var findings: [Finding] = []
        if size > AppleLimits.maximumFileBytes {
            findings.append(
                Finding(
                    .assetlinksTooLarge, .file,
                    "The file is \(size) bytes; this audit reads at most \(AppleLimits.maximumFileBytes)."))
            return Result(verdict: Verdict(findings: findings), appIDs: ServiceAppIDs(), findings: findings)
        }
        let checked = AssetLinksChecks.assessContent(bytes, expected: expected, at: .file)
        return Result(
            verdict: Verdict(findings: checked.findings), appIDs: ServiceAppIDs(), findings: checked.findings,
            android: checked.declarations)
    }

    /// - Parameters:
    ///   - truncated: the file was larger than the bytes read.
    ///   - signature: for a signed file, what was found in it; `bytes` is then its content.
    public static func lint(
        _ bytes: [UInt8], size: Int, truncated: Bool = false, signature: SignatureRecord? = nil,
        options: ValidationOptions = ValidationOptions()
    ) -> Result {
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
            findings: findings, android: nil)
    }
}
