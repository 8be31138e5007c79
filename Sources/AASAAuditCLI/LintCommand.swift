import AASAChecks
import AASAModel
import AASAReport
import ArgumentParser
import Foundation

/// `aasa-audit lint FILE...`: a website's own CI, before it deploys the file.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check local apple-app-site-association files, without any network.",
        discussion: "Each file gets the checks an audit makes of the content a server returns, and a verdict."
    )

    @Argument(help: "The files to check.")
    var files: [String]

    @Flag(help: "Print a JSON array, one record per file.")
    var json = false

    @Option(help: "The least severity that fails: error, or warning.")
    var failOn: FailThreshold = .error

    @OptionGroup var validation: ValidationOptionGroup
}

extension LintCommand {
    /// More than a file may hold (128 KB) by far; the rest of a larger file is not read.
    static let readLimit = 1 << 20

    func run() throws {
        var records: [LintRecord] = []
        var unreadable = false
        for file in files {
            switch Self.read(file) {
            case .success(let (bytes, size)):
                let result = FileLint.lint(bytes, size: size, truncated: size > bytes.count, options: validation.options)
                records.append(LintRecord(file: file, verdict: result.verdict, appIDs: result.appIDs, findings: result.findings))
            case .failure(let error):
                unreadable = true
                records.append(LintRecord(file: file, verdict: .fail, appIDs: nil, findings: [], error: error.description))
            }
        }
        if json {
            let data = try JSONReport.makeEncoder(pretty: true).encode(records)
            Terminal.print(String(decoding: data, as: UTF8.self) + "\n")
        } else {
            let text = TerminalReport(colour: Terminal.colourOnStandardOutput)
            Terminal.print(records.map(text.lint).joined(separator: "\n"))
        }
        if unreadable {
            for record in records where record.error != nil { Terminal.printError("aasa-audit: \(record.error!)\n") }
            throw ExitStatus.usage
        }
        if records.contains(where: { $0.verdict.fails(at: failOn.severity) }) { throw ExitStatus.failed }
    }

    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// At most `readLimit` bytes of the file, and its full size.
    static func read(_ path: String) -> Result<([UInt8], Int), ReadError> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied or not a file" : "no such file"
            return .failure(ReadError(description: "cannot read \(path): \(reason)"))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: readLimit + 1) ?? Data()
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? data.count
            return .success((Array(data.prefix(readLimit)), max(size, data.count)))
        } catch {
            return .failure(ReadError(description: "cannot read \(path): \(error.localizedDescription)"))
        }
    }
}
