import AASAChecks
import AASAFetch
import AASAModel
import AASAReport

/// `lint`: the checks of an audit on local files, without any network.
public enum LocalLint {
    /// More than a file may hold (128 KB) by far; the rest of a larger file is not read.
    public static let readLimit = 1 << 20

    /// A record per file, in order; a file that cannot be read gets a record with its error.
    /// - Parameter caFile: the CAs a signed file's signer must chain to (nil: libcurl's bundle).
    /// - Parameter androidApps: what an `assetlinks.json` among the files must declare.
    public static func run(
        _ paths: [String], options: ValidationOptions, caFile: String? = nil, androidApps: [AndroidApp] = []
    ) -> [LintRecord] {
        let signedFiles = SignedFileOpener(caFile: caFile ?? FetcherConfiguration.defaultCAFile)
        return paths.map { path in
            do throws(FileReadError) {
                let contents = try BoundedFileReader.read(path, prefix: readLimit)
                // A signed file is linted on its content; no domain to name (the signer's name
                // is not checked).
                if FileLint.isAssetLinks(contents.bytes) {
                    let result = FileLint.lintAssetLinks(contents.bytes, size: contents.size, expected: androidApps)
                    let findings = options.severityPolicy.apply(result.findings)
                    return LintRecord(
                        file: path, verdict: Verdict(findings: findings), appIDs: nil, findings: findings,
                        android: result.android)
                }
                let opened = contents.truncated ? nil : signedFiles.open(contents.bytes, host: nil)
                let result = FileLint.lint(
                    opened?.content ?? contents.bytes, size: contents.size, truncated: contents.truncated,
                    signature: opened?.signature, options: options)
                let findings = options.severityPolicy.apply(result.findings)
                return LintRecord(
                    file: path, verdict: Verdict(findings: findings), appIDs: result.appIDs, findings: findings)
            } catch {
                return LintRecord(file: path, verdict: .fail, appIDs: nil, findings: [], error: error.message)
            }
        }
    }
}
