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
        name: .customLong(OptionName.entitlements.rawValue),
        help: ArgumentHelp("Also audit the hosts an app's entitlements file names (repeatable).", valueName: "file"))
    var entitlements: [String] = []
    @Option(
        name: .customLong(OptionName.appID.rawValue),
        help: ArgumentHelp("With --entitlements: an app ID the hosts' files must name (repeatable).", valueName: "id"))
    var appIDs: [String] = []
    @Option(
        name: .customLong(OptionName.concurrency.rawValue), parsing: .unconditional, help: "Domains audited at once.")
    var concurrency = AuditSettings
        .defaultConcurrency
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Threads doing the TLS and HTTP work, each with its own curl multi handle; more help only when the CPU, not the network, is the limit.",
            valueName: "n")) var fetchThreads = FetcherConfiguration.defaultLoopThreads
    @OptionGroup var otherFiles: AssociationAuditOptions
    @OptionGroup var outputs: AuditOutputOptions
    @Option(help: "The least severity that fails the run: error, or warning.") var failOn: FailThreshold = .error
    @Flag(
        help:
            "Print nothing when every domain passes and nothing changed since the last run (cron mails any output); otherwise the summary as usual."
    ) var quiet = false
    @Flag(
        name: .customLong(OptionName.resume.rawValue),
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
        try OptionRange.check("--concurrency", concurrency, in: AuditSettings.concurrencyRange)
        try OptionRange.check("--fetch-threads", fetchThreads, in: FetcherConfiguration.loopThreadsRange)
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
            inputFiles: [], outputDirectory: outputs.directory, concurrency: concurrency,
            fetcher: fetch.configuration(concurrency: concurrency, threads: fetchThreads),
            failOn: failOn.severity, validation: validation.options, deviceView: deviceView.settings)
        outputs.apply(to: &settings)
        settings.notification = notification.settings
        settings.alertmanager = notification.alertmanagerSettings
        if !canary.isEmpty { settings.canaries = canary }
        settings.resume = resume
        var request = AuditJob.Request(
            domainsFile: file, entitlements: entitlements, appIDs: appIDs, settings: settings,
            statsFile: outputs.stats)
        request.everyDomainWants = otherFiles.wants
        request.projectFiles = otherFiles.projectFiles
        request.quiet = quiet
        try endCommand(with: await AuditJob.run(request, console: StandardConsole()))
    }
}
