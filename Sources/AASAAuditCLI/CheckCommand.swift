import AASAAudit
import AASAReport
import ArgumentParser

/// `aasa-audit check DOMAIN`: one domain, on demand, from a terminal.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check", abstract: "Audit one domain and print a readable verdict.")

    @Argument(help: "The host name to audit, e.g. example.com.") var domain: String
    @Option(name: .customLong("app-id"), help: ArgumentHelp("An app ID the file must name (repeatable).", valueName: "id")) var appIDs: [String] = []
    @Option(help: ArgumentHelp("An Android app its assetlinks.json must declare, with its signing certificate's SHA-256 fingerprint when given (repeatable; audits assetlinks.json).", valueName: "package[@fingerprint]"))
    var android: [String] = []
    @Flag(help: "Print the domain's JSON record, as the audit report holds it.") var json = false
    @Option(help: "The least severity that fails: error, or warning.") var failOn: FailThreshold = .error
    @OptionGroup var validation: ValidationOptionGroup
    @OptionGroup var deviceView: DeviceViewOptions
    @OptionGroup var fetch: FetchOptions

    func run() async throws {
        let pasted = try AuditInput.pastedHost(domain)
        if let note = pasted.note { StandardConsole().printError("aasa-audit: note: \(note)\n") }
        let report = try await DomainCheck.run(
            domain: pasted.host, appIDs: appIDs, androidApps: android, validation: validation.options, deviceView: deviceView.settings, fetcher: fetch.configuration(concurrency: 1))
        let console = StandardConsole()
        console.print(json ? try prettyJSON(report) : TerminalReport(colour: console.colour).domain(report))
        try endCommand(with: ExitPolicy.verdicts([report.verdict], failOn: failOn.severity))
    }
}
