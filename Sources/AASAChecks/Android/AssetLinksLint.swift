import AASAJSON
import AASAModel

/// `lint` of an `assetlinks.json`: recognised by its content, checked offline.
extension AndroidWant: LintedWant {
    public static func lint(_ bytes: [UInt8], size: Int, wants: AssociationWants) -> FileLint.Result {
        FileLint.lintAssetLinks(bytes, size: size, expected: wants.android ?? [], sharesLogins: wants.declaresPasskeys)
    }

    public static func looksLikeItsFile(_ bytes: [UInt8]) -> Bool { FileLint.isAssetLinks(bytes) }
}

extension FileLint {
    /// Whether bytes are an Android `assetlinks.json` rather than an association file: a JSON
    /// array whose first statement has `relation`, `target` or `include`, or one statement
    /// written without its list (`relation` and `target`), which is `assetlinks.not-list`.
    /// An empty list, and a list after a byte-order mark, are one too: no AASA is a list, and
    /// the file's own problem (`assetlinks.not-list`, `assetlinks.json-invalid`) is then said in
    /// the kind's words, not as an AASA's.
    public static func isAssetLinks(_ bytes: [UInt8]) -> Bool {
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        switch try? JSONParser.parse(text) {
        case .array(let items)?:
            guard let item = items.first else { return true }
            guard case .object(let first) = item else { return false }
            return first["relation"] != nil || first["target"] != nil || first["include"] != nil
        case .object(let statement)?:
            return statement["relation"] != nil && statement["target"] != nil
        default:
            return false
        }
    }

    /// `lint` of an Android `assetlinks.json`, offline, with the apps it must declare (and, when
    /// `sharesLogins`: the domain declares passkeys, share logins with), judged as an audit does.
    public static func lintAssetLinks(
        _ bytes: [UInt8], size: Int, expected: [AndroidApp], sharesLogins: Bool = false
    ) -> Result {
        if size > AppleLimits.maximumFileBytes {
            let findings = [
                Finding(
                    .assetLinks(.tooLarge), .file,
                    "The file is \(size) bytes; this audit reads at most \(AppleLimits.maximumFileBytes).")
            ]
            return Result(verdict: Verdict(findings: findings), appIDs: ServiceAppIDs(), findings: findings)
        }
        let checked = AssetLinksChecks.assessContent(bytes, expected: expected, at: .file)
        let findings =
            checked.findings
            + AssetLinksChecks.loginSharingFindings(
                expected, declarations: checked.declarations, sharesLogins: sharesLogins, at: .file)
        return Result(
            verdict: Verdict(findings: findings), appIDs: ServiceAppIDs(), findings: findings,
            associations: AssociationRecords(android: checked.declarations))
    }

}
