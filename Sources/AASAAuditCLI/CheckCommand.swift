import AASAAudit
import AASAModel
import AASAReport
import ArgumentParser

/// `aasa-audit check DOMAIN`: one domain, on demand, from a terminal.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Audit one domain and print a readable verdict.")

    @Argument(
        help:
            "The host names to audit, e.g. example.com (a URL or an entitlement entry such as applinks:example.com names its host)."
    ) var domains: [String]
    @Option(
        name: .customLong("app-id"), help: ArgumentHelp("An app ID the file must name (repeatable).", valueName: "id"))
    var appIDs: [String] = []
    @OptionGroup var otherFiles: AssociationAppOptions
    @Flag(
        help:
            "Print a JSON array of the domains' records, as the audit report holds them (one shape for any number of domains)."
    )
    var json = false
    @Option(help: "The least severity that fails: error, or warning.") var failOn: FailThreshold = .error
    @OptionGroup var validation: ValidationOptionGroup
    @OptionGroup var deviceView: DeviceViewOptions
    @OptionGroup var fetch: FetchOptions

    func run() async throws {
        let console = StandardConsole()
        // Every name is checked before anything is fetched.
        let hosts = try domains.map { domain in
            let pasted = try AuditInput.pastedHost(domain)
            if let note = pasted.note { console.printError("aasa-audit: note: \(note)\n") }
            return pasted.host
        }
        var reports: [DomainReport] = []
        for host in hosts {
            let report = try await DomainCheck.run(
                domain: host, appIDs: appIDs, wants: otherFiles.wants, validation: validation.options,
                deviceView: deviceView.settings, fetcher: fetch.configuration(concurrency: 1))
            if !json {
                console.print(TerminalReport(colour: console.colour).domain(report) + (host == hosts.last ? "" : "\n"))
            }
            reports.append(report)
        }
        // Always an array, one record per domain, whatever their number.
        if json { console.print(try prettyJSON(reports)) }
        try endCommand(with: ExitPolicy.verdicts(reports.map(\.verdict), failOn: failOn.severity))
    }
}
