import AASAChecks
import AASAFetch
import AASAModel
import AASAReport

/// `lint`: the checks of an audit on local files, without any network.
public enum LocalLint {
    /// More than a file may hold (128 KB) by far; the rest of a larger file is not read.
    public static let readLimit = 1 << 20
    /// What `--kind` takes (`AssociationFileLint.kindNames`).
    public static var kindNames: [String] { AssociationFileLint.kindNames }
    /// What `--names` prints (`AssociationFileLint.lintedNames`).
    public static var lintedNames: [String] { AssociationFileLint.lintedNames }

    /// A record per file, in order; a file that cannot be read gets a record with its error.
    /// - Parameter caFile: the CAs a signed file's signer must chain to (nil: libcurl's bundle).
    /// - Parameter expecting: what the input expects of the files, as a domains.txt line says it
    ///   (`--app-id`, service-prefixed ones included; the other files' apps, `--passkeys`); its
    ///   domain is not used.
    /// - Parameter kind: every file is of this kind (`lint --kind`), whatever its name says.
    public static func run(
        _ paths: [String], options: ValidationOptions, caFile: String? = nil,
        expecting target: DomainTarget = DomainTarget(domain: ""), kind: String? = nil
    ) -> [LintRecord] {
        let wants = target.wants
        let signedFiles = SignedFileOpener(caFile: caFile ?? FetcherConfiguration.defaultCAFile)
        return paths.map { path in
            do throws(FileReadError) {
                let contents = try BoundedFileReader.read(path, prefix: readLimit)
                let misnamed = AssociationFileLint.misnamed(path).map { [$0] } ?? []
                // A signed file is linted on its content; no domain to name (the signer's name
                // is not checked).
                if let result = AssociationFileLint.lint(
                    contents.bytes, size: contents.size, wants: wants, path: path, kind: kind)
                {
                    let findings = options.severityPolicy.apply(misnamed + result.findings)
                    return LintRecord(
                        file: path, verdict: Verdict(findings: findings), appIDs: nil, findings: findings,
                        associations: result.associations)
                }
                let opened = contents.truncated ? nil : signedFiles.open(contents.bytes, host: nil)
                let result = FileLint.lint(
                    opened?.content ?? contents.bytes, size: contents.size, truncated: contents.truncated,
                    signature: opened?.signature, options: options, expecting: target)
                let findings = options.severityPolicy.apply(misnamed + result.findings)
                return LintRecord(
                    file: path, verdict: Verdict(findings: findings), appIDs: result.appIDs, findings: findings)
            } catch {
                return LintRecord(file: path, verdict: .fail, appIDs: nil, findings: [], error: error.message)
            }
        }
    }
}
