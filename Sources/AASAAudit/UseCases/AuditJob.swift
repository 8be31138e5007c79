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
        /// `--android`: every domain's `assetlinks.json` is audited, not only theirs that name
        /// Android apps.
        public var auditsAndroid = false

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

    public static func run(_ request: Request, console: any Console) async throws -> ExitStatus {
        let started = ContinuousClock.now
        try AuditInput.validateAppIDs(request.appIDs)
        var loaded = try AuditInput.load(
            domainsFile: request.domainsFile, entitlements: request.entitlements, appIDs: request.appIDs)
        if request.auditsAndroid {
            for index in loaded.targets.indices { loaded.targets[index].auditsAndroid = true }
        }
        let input = loaded
        var settings = request.settings
        settings.inputFiles = input.files
        if let statsFile = request.statsFile {
            // Found before the run rather than after it (a folder that cannot be written, a
            // destination that is neither a regular file nor a device).
            do {
                try AtomicFileWriter(destination: URL(fileURLWithPath: statsFile)).abandon()
            } catch {
                throw InputError("cannot write --stats \(statsFile): \(BoundedFileReader.describe(error)).")
            }
        }

        let progressLine = console.errorIsTerminal ? ProgressLine(console: console) : nil
        let ticker = progressLine.map { line in Task { await line.tick() } }
        defer { ticker?.cancel() }
        let interruption = Interruption(console: console)
        let runTask = Task {
            try await AuditRun.run(targets: input.targets, inputProblems: input.problems, settings: settings) {
                progressLine?.update($0)
            }
        }
        interruption.cancels(runTask)
        let result: AuditRunResult
        do {
            result = try await runTask.value
        } catch {
            progressLine?.clear()
            throw error
        }
        progressLine?.clear()

        let text = TerminalReport(colour: console.colour)
        // What changed since the last run comes first: it is what a nightly mail is read for.
        if let changes = result.changes, result.complete {
            console.print(
                changes.isEmpty
                    ? "No changes since the last run.\n" : "Since the last run:\n" + text.changes(changes) + "\n")
        }
        console.print(
            text.runSummary(
                summary: result.summary, flagged: result.flaggedDomains, problems: input.problems,
                seconds: result.durationSeconds, complete: result.complete, since: result.notPassingSince))
        console.print("Reports: \(result.reportJSON.path)\n         \(result.reportHTML.path)\n")
        if result.complete, result.historyProblem == nil {
            console.print(
                "History: \(settings.outputDirectory.appendingPathComponent(RunHistoryStore.indexName).path)\n")
        }
        if let problem = result.historyProblem { console.printError("aasa-audit: \(problem)\n") }
        if let notification = result.notification, let notify = settings.notification {
            let line = notification.summary(notify) + "\n"
            notification.state == .failed ? console.printError("aasa-audit: " + line) : console.print(line)
        }
        var statsFailed = false
        if let statsFile = request.statsFile {
            do {
                try RunStatistics.measure(since: started, domains: result.summary.domains).write(to: statsFile)
            } catch {
                console.printError("aasa-audit: cannot write --stats \(statsFile): \(error.localizedDescription)\n")
                statsFailed = true
            }
        }
        // Say what was committed: an interrupted run's reports are in its run folder only; a
        // signal that came once every report was written stopped nothing.
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
        let status = ExitPolicy.audit(
            result, problems: input.problems, failOn: settings.failOn, interruptedBy: interruptedBy)
        return statsFailed ? ExitStatus(max(status.code, ExitStatus.usage.code)) : status
    }
}
