import AASAAudit
import AASAFetch
import AASAReport
import ArgumentParser

/// `aasa-audit lint FILE...`: a website's own CI, before it deploys the file.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint", abstract: "Check local apple-app-site-association files, without any network.",
        discussion: "Each file gets the checks an audit makes of the content a server returns, and a verdict.")

    @Argument(help: "The files to check.") var files: [String]
    @Flag(help: "Print a JSON array, one record per file.") var json = false
    @Option(help: "The least severity that fails: error, or warning.") var failOn: FailThreshold = .error
    @Option(help: ArgumentHelp("Trust the CA certificates in this PEM file, instead of the system's, when verifying a signed file's signer.", valueName: "file"))
    var cacert: String?
    @OptionGroup var validation: ValidationOptionGroup

    func validate() throws {
        if let cacert {
            do { try CACertificateFile.check(cacert) } catch { throw ValidationError("--cacert '\(cacert)' \(error.description).") }
        }
    }

    func run() throws {
        let records = LocalLint.run(files, options: validation.options, caFile: cacert)
        let console = StandardConsole()
        console.print(json ? try prettyJSON(records) : records.map(TerminalReport(colour: console.colour).lint).joined(separator: "\n"))
        let unreadable = records.compactMap(\.error)
        unreadable.forEach { console.printError("aasa-audit: \($0)\n") }
        try endCommand(with: unreadable.isEmpty ? ExitPolicy.verdicts(records.map(\.verdict), failOn: failOn.severity) : .usage)
    }
}
