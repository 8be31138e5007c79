import AASAAudit
import AASAFetch
import AASAModel
import AASAReport
import ArgumentParser

/// `aasa-audit lint FILE...`: a website's own CI, before it deploys the file.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract:
            "Check local association files (\(AssociationKinds.servedFileNames.joined(separator: ", "))), without any network.",
        discussion: "Each file gets the checks an audit makes of the content a server returns, and a verdict.")

    @Argument(help: "The files to check.") var files: [String] = []
    @Flag(
        help:
            "Print the file names lint knows (each kind's served name, and the extensionless ones with .json added, which it flags), one a line, and nothing else: what a CI step or hook looks for."
    )
    var names = false
    @Flag(
        name: .customLong(OptionName.json.rawValue),
        help: "Print a JSON array, one record per file (findings with line and column when they have one).")
    var json = false
    @Option(
        name: .customLong(OptionName.appID.rawValue),
        help: ArgumentHelp(
            "An app ID the file must name, as a domains.txt line gives it: bare for applinks, or prefixed with its section (webcredentials:ID, appclips:ID, activitycontinuation:ID) (repeatable).",
            valueName: "id"))
    var appIDs: [String] = []
    @Option(
        help: ArgumentHelp(
            "text (the default), compact (file:line:col: severity: code: message), github (GitHub Actions annotations) or sarif (a SARIF 2.1.0 log for code-scanning tools).",
            valueName: "format"))
    var format = LintLineFormat.text
    @Option(help: "The least severity that fails: error, or warning.") var failOn: FailThreshold = .error
    @Option(
        help: ArgumentHelp(
            "Trust the CA certificates in this PEM file, instead of the system's, when verifying a signed file's signer.",
            valueName: "file"))
    var cacert: String?
    @OptionGroup var otherFiles: AssociationAppOptions
    @OptionGroup var validation: ValidationOptionGroup
    @Option(
        help: ArgumentHelp(
            "Judge every file as this kind, whatever its name or content says: \(LocalLint.kindNames.joined(separator: ", ")).",
            valueName: "kind"))
    var kind: String?

    func validate() throws {
        if files.isEmpty, !names { throw ValidationError("Missing expected argument '<files> ...'") }
        if let kind, !LocalLint.kindNames.contains(kind) {
            throw ValidationError(
                "--kind takes \(LocalLint.kindNames.joined(separator: ", ")), not \(kind.prefix(80)).")
        }
        if let cacert {
            do { try CACertificateFile.check(cacert) } catch {
                throw ValidationError("--cacert '\(cacert)' \(error.description).")
            }
        }
    }

    func run() throws {
        if names {
            StandardConsole().print(LocalLint.lintedNames.map { $0 + "\n" }.joined())
            return
        }
        try AuditInput.validateAppIDs(appIDs)
        let records = LocalLint.run(
            files, options: validation.options, caFile: cacert,
            expecting: DomainTarget(domain: "", expectedAppIDs: appIDs, wants: otherFiles.wants), kind: kind)
        let console = StandardConsole()
        let text = TerminalReport(colour: console.colour)
        switch (json, format) {
        case (true, _): console.print(try prettyJSON(records))
        case (false, .text):
            console.print(
                records.map(text.lint).joined(separator: "\n")
                    + (records.count > 1 ? "\n" + text.lintSummary(records) : ""))
        case (false, .sarif): console.print(try SARIFReport.document(records, tool: AASAAuditVersion.tool))
        case (false, let lines):
            console.print(records.flatMap(lines.lines).map { $0 + "\n" }.joined() + text.lintSummary(records))
        }
        let unreadable = records.compactMap(\.error)
        unreadable.forEach { console.printError("aasa-audit: \($0)\n") }
        try endCommand(
            with: unreadable.isEmpty ? ExitPolicy.verdicts(records.map(\.verdict), failOn: failOn.severity) : .usage)
    }
}
