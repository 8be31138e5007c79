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
        let signedFiles = SignedFileOpener(caFile: caFile ?? FetcherConfiguration.defaultCAFile)
        return paths.map { path in
            do throws(FileReadError) {
                let contents = try BoundedFileReader.read(path, prefix: readLimit)
                return lint(
                    contents.bytes, size: contents.size, truncated: contents.truncated, name: path, options: options,
                    signedFiles: signedFiles, expecting: target, kind: kind)
            } catch {
                return LintRecord(file: path, verdict: .fail, appIDs: nil, findings: [], error: error.message)
            }
        }
    }

    /// A file's record from its bytes (an assistant's text, `mcp`'s `lint_file`), judged as
    /// `lint` judges a file of that name; past `readLimit` it is read as a file that long.
    /// - Parameter name: its served name: its kind before its content.
    public static func lint(
        bytes: [UInt8], name: String, options: ValidationOptions, caFile: String? = nil,
        expecting target: DomainTarget = DomainTarget(domain: ""), kind: String? = nil
    ) -> LintRecord {
        lint(
            Array(bytes.prefix(readLimit)), size: bytes.count, truncated: bytes.count > readLimit, name: name,
            options: options, signedFiles: SignedFileOpener(caFile: caFile ?? FetcherConfiguration.defaultCAFile),
            expecting: target, kind: kind)
    }

    /// One file's record from its bytes, as `lint` judges a file of that name: the one judge of
    /// `lint` and of `mcp`'s `lint_file`.
    /// - Parameter name: its path or served name: its kind before its content.
    static func lint(
        _ bytes: [UInt8], size: Int, truncated: Bool = false, name: String, options: ValidationOptions,
        signedFiles: SignedFileOpener, expecting target: DomainTarget = DomainTarget(domain: ""), kind: String? = nil
    ) -> LintRecord {
        let misnamed = AssociationFileLint.misnamed(name).map { [$0] } ?? []
        if let result = AssociationFileLint.lint(bytes, size: size, wants: target.wants, path: name, kind: kind) {
            let findings = options.severityPolicy.apply(misnamed + result.findings)
            return LintRecord(
                file: name, verdict: Verdict(findings: findings), appIDs: nil, findings: findings,
                associations: result.associations)
        }
        // A signed file is linted on its content; no domain to name (the signer's name is not
        // checked).
        let opened = truncated ? nil : signedFiles.open(bytes, host: nil)
        let result = FileLint.lint(
            opened?.content ?? bytes, size: size, truncated: truncated, signature: opened?.signature,
            options: options, expecting: target)
        let findings = options.severityPolicy.apply(misnamed + result.findings)
        return LintRecord(file: name, verdict: Verdict(findings: findings), appIDs: result.appIDs, findings: findings)
    }
}
