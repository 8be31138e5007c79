import AASAModel
import AASAReport
import Foundation

/// `audit`: the nightly job as a command runs it: read the inputs, run the audit with a
/// progress line and signal handling, print the summary, write `--stats`, and say the exit
/// status.
public enum AuditJob {
    /// What the command line asks for.
    public struct Request: Sendable {
        public var domainsFile: String?
        public var entitlements: [String]
        public var appIDs: [String]
        /// Everything but `inputFiles`, which the job fills in.
        public var settings: AuditSettings
        /// `--stats FILE`.
        public var statsFile: String?
        /// The association files every domain is audited for, beside what its line asks.
        public var everyDomainWants = AssociationWants()
        /// App project files that name more hosts (an app's manifest).
        public var projectFiles: [AppProjectFile] = []
        /// `--quiet`: nothing on stdout for a run with nothing to read (`AuditJob.isQuietNight`).
        public var quiet = false

        public init(
            domainsFile: String?, entitlements: [String], appIDs: [String], settings: AuditSettings, statsFile: String?
        ) {
            self.domainsFile = domainsFile
            self.entitlements = entitlements
            self.appIDs = appIDs
            self.settings = settings
            self.statsFile = statsFile
        }
    }

    /// The phases, in order: read the input, run the audit with a progress line and signal
    /// handling, print what it found, write `--stats`, say how it ended.
    public static func run(_ request: Request, console: any Console) async throws -> ExitStatus {
        let started = ContinuousClock.now
        let (input, settings) = try prepare(request)
        // Limits that starve domains whatever the sites do are said before the run, every run.
        if let starving = settings.fetcher.politeness.starvation(
            concurrency: settings.concurrency, domains: input.targets.count,
            timeoutSeconds: settings.fetcher.timeoutSeconds)
        {
            console.printError("aasa-audit: warning: \(starving)\n")
        }
        let interruption = Interruption(console: console)
        let result = try await audit(input, settings: settings, console: console, interruption: interruption)
        if !(request.quiet && isQuietNight(result, input: input)) {
            printOutcome(result, input: input, settings: settings, console: console)
        } else {
            for problem in [result.comparisonProblem, result.historyProblem].compactMap(\.self) {
                console.printError("aasa-audit: \(problem)\n")
            }
        }
        let statsWritten = writeStatistics(request.statsFile, since: started, result: result, console: console)
        let interruptedBy = sayHowItEnded(result, interruption: interruption, console: console)
        let status = ExitPolicy.audit(
            result, problems: input.problems, failOn: settings.failOn, interruptedBy: interruptedBy)
        return statsWritten ? status : ExitStatus(max(status.code, ExitStatus.usage.code))
    }

    /// The domains to audit, and the settings with the files they came from. `--stats` is
    /// checked here, before the run (a folder that cannot be written, a destination that is
    /// neither a regular file nor a device).
    static func prepare(_ request: Request) throws -> (AuditInput, AuditSettings) {
        try AuditInput.validateAppIDs(request.appIDs)
        var input = try AuditInput.load(
            domainsFile: request.domainsFile, entitlements: request.entitlements, appIDs: request.appIDs,
            projectFiles: request.projectFiles)
        if request.everyDomainWants != AssociationWants() {
            for index in input.targets.indices { input.targets[index].wants.merge(request.everyDomainWants) }
        }
        var settings = request.settings
        settings.inputFiles = input.files
        // The team's acknowledgements: a file that cannot be read silences nothing (every
        // failure is heard) and is an input problem the summary names.
        do {
            settings.acknowledgements = try AcknowledgementStore.read(output: settings.outputDirectory.path)
        } catch {
            input.problems.append(
                InputProblem(
                    .acknowledgementsUnreadable, file: AcknowledgementStore.fileName, line: 1, text: "",
                    message: "\(error.message); no failure is acknowledged in this run."))
        }
        if let statsFile = request.statsFile {
            do {
                try AtomicFileWriter(destination: URL(fileURLWithPath: statsFile)).abandon()
            } catch {
                throw InputError("cannot write \(OptionName.stats) \(statsFile): \(BoundedFileReader.describe(error)).")
            }
        }
        return (input, settings)
    }

    /// The run, with a progress line on a terminal, cancelled by the first SIGINT or SIGTERM.
    static func audit(
        _ input: AuditInput, settings: AuditSettings, console: any Console, interruption: Interruption
    ) async throws -> AuditRunResult {
        let progressLine = console.errorIsTerminal ? ProgressLine(console: console) : nil
        let ticker = progressLine.map { line in Task { await line.tick() } }
        defer {
            ticker?.cancel()
            progressLine?.clear()
        }
        let runTask = Task {
            try await AuditRun.run(targets: input.targets, inputProblems: input.problems, settings: settings) {
                progressLine?.update($0)
            }
        }
        interruption.cancels(runTask)
        return try await runTask.value
    }

    /// A night with nothing to read: a complete run in which every domain passed (or failed only
    /// as acknowledged), nothing open changed since the last run (a first run is a change), the input had no problem, the
    /// machine had none (`AuditorProblems`), the history was updated and no alert failed.
    static func isQuietNight(_ result: AuditRunResult, input: AuditInput) -> Bool {
        // Acknowledged failures are quiet: only open ones count.
        result.complete && result.flaggedDomains.allSatisfy { $0.openVerdict == .pass }
            && result.changes.map(\.openChanges.withoutNotes.isEmpty) == true && input.problems.isEmpty
            && result.summary.auditorProblems == nil && result.summary.partlyChecked == nil
            && result.historyProblem == nil && result.comparisonProblem == nil
            && result.notification?.state != .failed && result.alertmanager?.state != .failed
    }

    /// What changed since the last run first (what a nightly mail is read for), then the
    /// summary, where the reports are, the history's problem and the alert's outcome.
    static func printOutcome(_ result: AuditRunResult, input: AuditInput, settings: AuditSettings, console: any Console)
    {
        let text = TerminalReport(colour: console.colour)
        if let note = result.note { console.print(note + "\n") }
        let sound = result.summary.auditorProblems == nil
        if let changes = result.changes, result.complete, sound {
            console.print(text.sinceLastRun(changes))
        }
        console.print(
            text.runSummary(
                summary: result.summary, flagged: result.flaggedDomains, problems: input.problems,
                seconds: result.durationSeconds, complete: result.complete, since: result.notPassingSince))
        if !sound, result.complete, result.changes != nil {
            console.print(
                "Not compared with the last run: this machine could not check properly, so nothing here is news about the sites; latest.* and the history's streaks still show the last sound run.\n"
            )
        }
        console.print("Reports: \(result.reportJSON.path)\n         \(result.reportHTML.path)\n")
        if result.complete, result.historyProblem == nil {
            console.print(
                "History: \(settings.outputDirectory.appendingPathComponent(RunHistoryStore.indexName).path)\n")
        }
        for problem in [result.comparisonProblem, result.historyProblem].compactMap(\.self) {
            console.printError("aasa-audit: \(problem)\n")
        }
        if let sent = result.alertmanager, let alertmanager = settings.alertmanager {
            console.print(sent.summary(alertmanager) + "\n")
        }
        if let notification = result.notification, let notify = settings.notification {
            let line = notification.summary(notify) + "\n"
            notification.state == .failed ? console.printError("aasa-audit: " + line) : console.print(line)
        }
    }

    /// `--stats`; false when it could not be written.
    static func writeStatistics(
        _ statsFile: String?, since started: ContinuousClock.Instant, result: AuditRunResult, console: any Console
    ) -> Bool {
        guard let statsFile else { return true }
        do {
            try RunStatistics.measure(since: started, domains: result.summary.domains).write(to: statsFile)
            return true
        } catch {
            console.printError(
                "aasa-audit: cannot write \(OptionName.stats) \(statsFile): \(error.localizedDescription)\n")
            return false
        }
    }

    /// Says what was committed: an interrupted run's reports are in its run folder only; a
    /// signal that came once every domain was audited stopped nothing. Returns the signal that
    /// interrupted the run, if one did.
    static func sayHowItEnded(_ result: AuditRunResult, interruption: Interruption, console: any Console) -> Int32? {
        let interruptedBy = result.complete ? nil : interruption.signal
        if interruptedBy != nil {
            console.print(
                "The run was interrupted: its partial reports are in \(result.reportJSON.deletingLastPathComponent().path); latest.json and latest.html still show the last complete run.\n"
            )
        } else if interruption.signal != nil {
            console.print(
                "A signal came after every domain was audited: the run is complete and latest.json and latest.html show it.\n"
            )
        }
        return interruptedBy
    }
}
