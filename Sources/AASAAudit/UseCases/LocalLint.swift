import AASAChecks
import AASAModel
import AASAReport

/// `lint`: the checks of an audit on local files, without any network.
public enum LocalLint {
    /// More than a file may hold (128 KB) by far; the rest of a larger file is not read.
    public static let readLimit = 1 << 20

    /// A record per file, in order; a file that cannot be read gets a record with its error.
    public static func run(_ paths: [String], options: ValidationOptions) -> [LintRecord] {
        paths.map { path in
            do throws(FileReadError) {
                let contents = try BoundedFileReader.read(path, prefix: readLimit)
                let result = FileLint.lint(contents.bytes, size: contents.size, truncated: contents.truncated, options: options)
                return LintRecord(file: path, verdict: result.verdict, appIDs: result.appIDs, findings: result.findings)
            } catch {
                return LintRecord(file: path, verdict: .fail, appIDs: nil, findings: [], error: error.message)
            }
        }
    }
}
