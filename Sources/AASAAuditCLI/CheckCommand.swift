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
        name: .customLong(OptionName.appID.rawValue),
        help: ArgumentHelp(
            "An app ID the file must name (repeatable): in applinks, or in the service it names (webcredentials:TEAMID.bundle) or the domain's entitlement entry names (webcredentials:example.com).",
            valueName: "id"))
    var appIDs: [String] = []
    @OptionGroup var otherFiles: AssociationAppOptions
    @Option(
        name: .customLong("ios"),
        help: ArgumentHelp(
            "\(AASAWant.iosNone): the domain serves no AASA, only its other files (as ios:\(AASAWant.iosNone) in domains.txt): no AASA is asked for, and its other files are audited.",
            valueName: AASAWant.iosNone))
    var ios: String?
    @Flag(
        name: .customLong(OptionName.json.rawValue),
        help:
            "Print a JSON array of the domains' records, as the audit report holds them (one shape for any number of domains)."
    )
    var json = false
    @Option(help: "The least severity that fails: error, or warning.") var failOn: FailThreshold = .error
    @OptionGroup var validation: ValidationOptionGroup
    @OptionGroup var deviceView: DeviceViewOptions
    @OptionGroup var fetch: FetchOptions

    func validate() throws {
        guard let ios else { return }
        guard AASAWant.isNone(ios) else {
            throw ValidationError(
                "--ios takes \(AASAWant.iosNone) (the domain serves no AASA), not \(ios.prefix(80)).")
        }
        if !appIDs.isEmpty {
            throw ValidationError(
                "--app-id names an app the AASA must list; with --ios \(AASAWant.iosNone) no AASA is asked for.")
        }
    }

    func run() async throws {
        let console = StandardConsole()
        // Every name is checked before anything is fetched.
        let pastedHosts = try domains.map { domain in
            let pasted = try AuditInput.pastedHost(domain)
            if let note = pasted.note { console.printError("aasa-audit: note: \(note)\n") }
            return pasted
        }
        let hosts = pastedHosts.map(\.host)
        var reports: [DomainReport] = []
        for pasted in pastedHosts {
            let host = pasted.host
            let report = try await DomainCheck.run(
                domain: host, aasa: ios == nil ? AASAWant(appIDs: pasted.expectedApps(appIDs)) : nil,
                wants: otherFiles.wants,
                validation: validation.options,
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
