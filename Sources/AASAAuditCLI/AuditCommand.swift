import AASAAudit
import AASAFetch
import AASAModel
import ArgumentParser
import Foundation

/// `aasa-audit audit [FILE]`: the nightly job.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Audit every domain of a domains file and write JSON and HTML reports.",
        discussion:
            "Writes \(OutputFolderLayout.runJSON) and \(OutputFolderLayout.runHTML) into a new folder under --out named by the run's UTC start time; after a complete run updates \(OutputFolderLayout.latestJSON), \(OutputFolderLayout.latestHTML), \(OutputFolderLayout.history) and \(OutputFolderLayout.index) there."
    )

    @Argument(
        help:
            "The domains file: one domain per line, optionally followed by the app IDs its file must name (default: domains.txt, unless --entitlements is given)."
    ) var file: String?
    @Option(
        help: ArgumentHelp("Also audit the hosts an app's entitlements file names (repeatable).", valueName: "file"))
    var entitlements: [String] = []
    @Option(
        name: .customLong("app-id"),
        help: ArgumentHelp("With --entitlements: an app ID the hosts' files must name (repeatable).", valueName: "id"))
    var appIDs: [String] = []
    @Option(help: ArgumentHelp("The folder that receives the run folders and latest.*.", valueName: "dir")) var out =
        "reports"
    @Option(parsing: .unconditional, help: "Domains audited at once.") var concurrency = 64
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Threads doing the TLS and HTTP work, each with its own curl multi handle; more help only when the CPU, not the network, is the limit.",
            valueName: "n")) var fetchThreads = FetcherConfiguration.defaultLoopThreads
    @OptionGroup var otherFiles: AssociationAuditOptions
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Keep only the newest N run folders in --out (older ones are removed after a complete run).", valueName: "n"
        )) var keep: Int?
    @Option(help: "The least severity that fails the run: error, or warning.") var failOn: FailThreshold = .error
    @Option(help: ArgumentHelp("Also write JUnit XML for CI servers: a test case per domain.", valueName: "file"))
    var junit: String?
    @Option(
        help: ArgumentHelp(
            "Also write Prometheus metrics (text format, for node_exporter's textfile collector).", valueName: "file"))
    var metrics: String?
    @Option(
        help: ArgumentHelp(
            "Write the run's resource use (wall and CPU time, peak memory) to this file as JSON.", valueName: "file"))
    var stats: String?
    @Flag(
        help:
            "Print nothing when every domain passes and nothing changed since the last run (cron mails any output); otherwise the summary as usual."
    ) var quiet = false
    @Flag(
        help:
            "Finish the interrupted run in --out (killed, rebooted, stopped by a signal): the domains it finished are kept from its journal, the rest audited, and its reports, history line and alert made as if it had never stopped. The domain list must be the same."
    ) var resume = false
    @Option(
        help: ArgumentHelp(
            "A host name resolved, as the audit resolves names (--resolve and --connect-to apply), when no name of the run resolved: if it does not resolve either, this machine's DNS is down (exit 3), else the names that failed are the sites' (repeatable; default \(AuditorProblems.defaultCanary)).",
            valueName: "host"))
    var canary: [String] = []
    @OptionGroup var notification: NotifyOptions
    @OptionGroup var validation: ValidationOptionGroup
    @OptionGroup var deviceView: DeviceViewOptions
    @OptionGroup var fetch: FetchOptions

    func validate() throws {
        guard (1...4096).contains(concurrency) else {
            throw ValidationError("--concurrency must be between 1 and 4096.")
        }
        if let keep, keep < 1 { throw ValidationError("--keep must be at least 1.") }
        guard (1...64).contains(fetchThreads) else {
            throw ValidationError("--fetch-threads must be between 1 and 64.")
        }
        for host in canary
        where host.isEmpty || host.utf8.count > 253
            || !host.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || "0123456789.-".unicodeScalars.contains($0))
            })
        {
            throw ValidationError("--canary '\(host)' is not a host name (letters, digits, dots and hyphens).")
        }
    }

    func run() async throws {
        var settings = AuditSettings(
            inputFiles: [], outputDirectory: URL(fileURLWithPath: out), concurrency: concurrency,
            fetcher: fetch.configuration(concurrency: concurrency, threads: fetchThreads),
            failOn: failOn.severity, validation: validation.options, deviceView: deviceView.settings)
        (settings.keepRuns, settings.junitFile, settings.metricsFile) = (
            keep, junit.map { URL(fileURLWithPath: $0) }, metrics.map { URL(fileURLWithPath: $0) }
        )
        settings.notification = notification.settings
        settings.alertmanager = notification.alertmanagerSettings
        if !canary.isEmpty { settings.canaries = canary }
        settings.resume = resume
        var request = AuditJob.Request(
            domainsFile: file, entitlements: entitlements, appIDs: appIDs, settings: settings, statsFile: stats)
        request.everyDomainWants = otherFiles.wants
        request.projectFiles = otherFiles.projectFiles
        request.quiet = quiet
        try endCommand(with: await AuditJob.run(request, console: StandardConsole()))
    }
}
