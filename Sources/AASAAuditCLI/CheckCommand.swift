import AASAAudit
import AASAChecks
import AASAFetch
import AASAModel
import AASAReport
import ArgumentParser
import DomainList
import Foundation

/// `aasa-audit check DOMAIN`: one domain, on demand, from a terminal.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Audit one domain and print a readable verdict."
    )

    @Argument(help: "The host name to audit, e.g. example.com.")
    var domain: String

    @Option(name: .customLong("app-id"), help: ArgumentHelp("An app ID the file must name (repeatable).", valueName: "id"))
    var appIDs: [String] = []

    @Flag(help: "Print the domain's JSON record, as the audit report holds it.")
    var json = false

    @Option(help: "The least severity that fails: error, or warning.")
    var failOn: FailThreshold = .error

    @OptionGroup var validation: ValidationOptionGroup

    @OptionGroup var deviceView: DeviceViewOptions

    @OptionGroup var fetch: FetchOptions
}

extension CheckCommand {
    func run() async throws {
        let host: String
        switch HostName.normalize(domain) {
        case .success(let normalised): host = normalised
        case .failure(let error): throw ValidationError("\"\(domain)\" \(error.reason).")
        }
        for id in appIDs {
            if let problem = AppIDFormat.problem(with: id) { throw ValidationError("--app-id \(problem).") }
        }

        let fetcher = try fetch.makeFetcher()
        let outcome = await DomainAuditor(fetcher: fetcher, validation: validation.options, deviceView: deviceView.settings).audit(DomainTarget(domain: host, expectedAppIDs: appIDs))
        fetcher.shutdown()

        if json {
            let data = try JSONReport.makeEncoder(pretty: true).encode(outcome.report)
            Terminal.print(String(decoding: data, as: UTF8.self) + "\n")
        } else {
            Terminal.print(TerminalReport(colour: Terminal.colourOnStandardOutput).domain(outcome.report))
        }
        if outcome.report.verdict.fails(at: failOn.severity) { throw ExitStatus.failed }
    }
}
