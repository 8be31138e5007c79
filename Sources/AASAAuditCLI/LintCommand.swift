import AASAAudit
import AASAFetch
import AASAModel
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
    @Option(help: ArgumentHelp("For an assetlinks.json: an Android app it must declare (repeatable).", valueName: "package[@fingerprint]"))
    var android: [String] = []
    @OptionGroup var validation: ValidationOptionGroup

    func validate() throws {
        for text in android {
            if case .failure(let error) = AndroidApp.parse(text) { throw ValidationError("--android: \(error.reason).") }
        }
        if let cacert {
            do { try CACertificateFile.check(cacert) } catch { throw ValidationError("--cacert '\(cacert)' \(error.description).") }
        }
    }

    func run() throws {
        let apps = android.compactMap { try? AndroidApp.parse($0).get() }
        let records = LocalLint.run(files, options: validation.options, caFile: cacert, androidApps: apps)
        let console = StandardConsole()
        console.print(json ? try prettyJSON(records) : records.map(TerminalReport(colour: console.colour).lint).joined(separator: "\n"))
        let unreadable = records.compactMap(\.error)
        unreadable.forEach { console.printError("aasa-audit: \($0)\n") }
        try endCommand(with: unreadable.isEmpty ? ExitPolicy.verdicts(records.map(\.verdict), failOn: failOn.severity) : .usage)
    }
}
