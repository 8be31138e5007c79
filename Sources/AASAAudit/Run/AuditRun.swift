import AASAChecks
import AASAFetch
import AASAModel
import AASAReport
import Foundation

/// An audit of many domains. A run workspace (the output folder, its lock, a new run folder,
/// the previous run), the bounded concurrent loop feeding an accumulator (summary, changes),
/// and the report outputs (JSON, HTML, JUnit, metrics) fed as domains complete; when the run
/// is complete its reports become `latest.*`. Each phase is a method of `AuditRunSession`.
public enum AuditRun {
    public static func run(
        targets: [DomainTarget], inputProblems: [InputProblem], settings: AuditSettings,
        progress: @escaping @Sendable (AuditProgress) -> Void = { _ in }
    ) async throws(AuditRunError) -> AuditRunResult {
        let session = try AuditRunSession.open(targets: targets, settings: settings)
        defer { session.workspace.close() }
        // Reached only without a crash (a signal ends the run here too): nothing to answer for.
        defer { session.inFlight.close() }
        await session.auditDomains(progress: progress)
        try session.recordUnreachedDomains()
        var (finished, reports) = try session.writeReports(inputProblems: inputProblems)
        // The reports are in place: the history, the index and the alert cannot lose them.
        let history = session.updateHistory(finished)
        if !Task.isCancelled {
            finished.notification = await session.sendAlert(
                finished, report: reports.html, standings: history.standings)
            finished.alertmanager = await session.sendToAlertmanager(
                finished, report: reports.html, standings: history.standings)
        }
        try session.writeMetrics(finished)
        session.closeJournal()
        return session.result(finished, reports: reports, history: history)
    }
}

/// One run's state through its phases, in order: open, audit the domains, record the ones not
/// reached, write the reports, update the history, send the alert, write the metrics.
final class AuditRunSession {
    let targets: [DomainTarget]
    let settings: AuditSettings
    /// When the run started (its folder's name), and the clock its progress is timed by.
    let startedAt: Date
    let clock = ContinuousClock.now
    /// What the phases work with: opened in `open`, the fetcher shut down after the loop, the
    /// workspace closed when the run returns.
    let (fetcher, workspace, outputs): (Fetcher, RunWorkspace, Outputs)
    /// The domains finished so far, for `--resume` after a crash.
    let journal: RunJournal
    /// The domains in flight, and what an earlier crash left to this run (`CrashCarry`).
    let inFlight: InFlightLog
    let crashPlan: CrashCarry.Plan
    /// What the run gathers as domains complete (summary, changes, history).
    private(set) var accumulator: RunAccumulator
    private var writeError: Error?
    private(set) var complete = false
    /// The domains that did not pass, in input order: made once, after the last domain is
    /// recorded (the closing summary, the history's standings, the alerts and the result share it).
    private(set) lazy var flaggedDomains = accumulator.takeFlaggedDomains()
    /// What the run's fetches and canaries say of this machine's resolver.
    private(set) var resolver = AuditorProblems.ResolverEvidence(nameResolved: false)

    private init(
        targets: [DomainTarget], settings: AuditSettings, startedAt: Date, parts: (Fetcher, RunWorkspace, Outputs),
        journal: RunJournal, crashes: (InFlightLog, CrashCarry.Plan)
    ) {
        (self.targets, self.settings, self.startedAt) = (targets, settings, startedAt)
        (fetcher, workspace, outputs) = parts
        self.journal = journal
        (inFlight, crashPlan) = crashes
        accumulator = RunAccumulator(
            domainCount: targets.count, previous: workspace.previousRun,
            pins: fetcher.pins)
    }

    /// The fetcher, the output folder (locked, a run folder made, the previous run being read)
    /// and every output started: an unusable destination fails here, before any fetch.
    static func open(targets: [DomainTarget], settings: AuditSettings) throws(AuditRunError) -> AuditRunSession {
        var startedAt = settings.now()
        let fetcher: Fetcher
        do {
            fetcher = try Fetcher(configuration: settings.fetcher)
        } catch {
            throw .fetcherSetup("cannot start the fetcher: \(error)")
        }
        let outputs = Outputs(settings: settings)
        let workspace: RunWorkspace
        do {
            workspace = try RunWorkspace(
                output: settings.outputDirectory, startedAt: startedAt, resuming: settings.resume)
        } catch {
            fetcher.shutdown()
            throw error
        }
        let journal: RunJournal
        let crashes: (InFlightLog, CrashCarry.Plan)
        do throws(AuditRunError) {
            (journal, startedAt) = try RunJournal.open(
                for: workspace.runDirectory, domains: targets.map(\.domain), startedAt: startedAt,
                resuming: workspace.resumes)
            let plan = CrashCarry.plan(
                previous: workspace.runBefore.flatMap(InFlightLog.read), resuming: workspace.resumes, now: startedAt,
                build: AASAAuditVersion.number)
            do throws(SQLiteError) {
                crashes = (try InFlightLog(runDirectory: workspace.runDirectory, carry: plan.carry), plan)
            } catch {
                throw AuditRunError.reports(
                    "cannot write \(InFlightLog.fileName) in \(workspace.runDirectory.path): \(error)")
            }
            try outputs.start(RunStart(runDirectory: workspace.runDirectory, domainCount: targets.count))
        } catch {
            workspace.close()
            fetcher.shutdown()
            throw error
        }
        return AuditRunSession(
            targets: targets, settings: settings, startedAt: startedAt, parts: (fetcher, workspace, outputs),
            journal: journal, crashes: crashes)
    }

    /// - Parameter journaled: the domain comes from the journal (`--resume`), which holds it.
    private func record(_ domain: AuditedDomain, rendered: [Data?], reached: Bool = true, journaled: Bool = false) {
        accumulator.add(domain, reached: reached)
        do {
            try outputs.add(domain, rendered: rendered)
            if reached, !journaled, let record = outputs.jsonRecord(rendered) {
                try journal.append(position: domain.index, record: record, served: JournaledFiles.encode(domain))
            }
        } catch {
            writeError = writeError ?? error
        }
    }

    /// `--resume`: the interrupted run's finished domains, recorded as if just audited. Returns
    /// which positions they hold (nil when not resuming).
    private func replayJournal() -> [Bool]? {
        guard workspace.resumes else { return nil }
        var done = [Bool](repeating: false, count: targets.count)
        do {
            try journal.forEach { domain in
                // A row of another position (damaged, edited) is audited again, never indexed.
                guard targets.indices.contains(domain.index), domain.report.domain == targets[domain.index].domain
                else { return }
                done[domain.index] = true
                record(domain, rendered: outputs.all.map { $0.render(domain) }, journaled: true)
            }
        } catch {
            writeError = writeError ?? error
        }
        return done
    }

    /// What an earlier crash left (`crashPlan`): its culprits, and when resuming the domains in
    /// flight at it, recorded `audit.crashed` without a fetch; returns the positions done so far
    /// and, in input order, the suspects to audit alone first.
    private func reportCrashed(after journaled: [Bool]?) -> (done: [Bool]?, alone: [Int]) {
        guard !crashPlan.crashed.isEmpty || !crashPlan.alone.isEmpty else { return (journaled, []) }
        var done = journaled ?? [Bool](repeating: false, count: targets.count)
        var alone: [Int] = []
        for (index, target) in targets.enumerated() where !done[index] {
            if let sentence = crashPlan.crashed[target.domain] {
                let domain = AuditedDomain(
                    index: index, report: DomainChecks.crashed(target, why: sentence), served: [])
                record(domain, rendered: outputs.all.map { $0.render(domain) })
                done[index] = true
            } else if crashPlan.alone.contains(target.domain) {
                alone.append(index)
            }
        }
        return (done, alone)
    }

    /// A complete run, its history line written and its alert sent, needs no journal; an
    /// interrupted one keeps it for `--resume`.
    func closeJournal() {
        if complete, !Task.isCancelled { journal.remove() } else { try? journal.commit() }
    }

    /// The bounded concurrent loop, until every domain is audited or the task is cancelled.
    func auditDomains(progress: @Sendable (AuditProgress) -> Void) async {
        var auditor = DomainAuditor(
            fetcher: fetcher, validation: settings.validation, deviceView: settings.deviceView,
            acknowledgements: settings.acknowledgements)
        auditor.now = settings.now
        let (done, alone) = reportCrashed(after: replayJournal())
        await AuditLoop.run(
            targets: targets, skipping: done, alone: alone, concurrency: settings.concurrency, auditor: auditor,
            outputs: outputs.all, inFlight: inFlight
        ) {
            completed in
            record(completed.domain, rendered: completed.rendered)
            progress(
                AuditProgress(
                    done: accumulator.summary.domains, total: targets.count, failing: accumulator.summary.verdicts.fail,
                    elapsedSeconds: (ContinuousClock.now - clock).seconds, oldestInFlight: completed.oldestInFlight))
        }
        do { try journal.commit() } catch { writeError = writeError ?? error }
        await askCanaries()
        fetcher.shutdown()
        complete = accumulator.complete
        accumulator.finishComparing(interrupted: !complete)
    }

    /// When names failed to resolve and none did, whether this machine's resolver answers at all:
    /// a canary (`--canary`) resolved through the audit's own path.
    private func askCanaries() async {
        resolver.nameResolved = accumulator.nameResolved
        resolver.blockedAddresses = accumulator.blockedAddresses
        resolver.cdnHostAnswer = accumulator.cdnHostAnswer
        guard AuditorProblems.needsCanary(accumulator.summary, nameResolved: resolver.nameResolved) else { return }
        // A pinned canary resolves without the resolver: it says nothing of it.
        resolver.canaries = settings.canaries.filter { !fetcher.pins.pins($0) }
        var resolved = false
        for canary in resolver.canaries where !resolved { resolved = await fetcher.resolves(canary) }
        resolver.canaryResolved = resolved
    }

    /// Every domain of the input appears in the reports, audited or not.
    func recordUnreachedDomains() throws(AuditRunError) {
        var records = NotAuditedRecords(outputs: outputs.all)
        for index in accumulator.notAudited {
            let domain = AuditedDomain(index: index, report: DomainChecks.notAudited(targets[index]), served: [])
            record(domain, rendered: records.render(targets[index], index: index), reached: false)
        }
        if let writeError {
            outputs.discard()
            throw .writing(
                "cannot write the reports in \(workspace.runDirectory.path): \(OutputWriting.describe(writeError))")
        }
    }

    /// The run's reports, and when it is complete `latest.*` and `--keep`'s pruning.
    func writeReports(inputProblems: [InputProblem]) throws(AuditRunError) -> (FinishedRun, (json: URL, html: URL)) {
        var summary = accumulator.summary
        summary.inputProblems = inputProblems.count
        let notices = AuditorProblems.notices(summary, resolver: resolver)
        summary.auditorProblems = notices.unsound.isEmpty ? nil : notices.unsound
        summary.partlyChecked = notices.partial.isEmpty ? nil : notices.partial
        let run = RunInfo(
            startedAt: startedAt, finishedAt: settings.now(), complete: complete, options: settings.runOptions)
        let finished = FinishedRun(
            tool: AASAAuditVersion.tool, run: run, summary: summary, input: InputInfo(problems: inputProblems),
            changes: accumulator.runChanges(domains: targets.map(\.domain)))
        do {
            let written = try outputs.finishReports(finished)
            // latest.* is the last run whose verdicts can be trusted: one that this machine could
            // not check properly (`AuditorProblems`) stays in its folder, and the next run is
            // compared with the last sound one.
            if complete {
                try workspace.publish(
                    json: written.json, html: written.html, keep: settings.keepRuns,
                    latest: summary.auditorProblems == nil)
            }
            return (finished, written)
        } catch {
            outputs.discard()
            throw .writing(
                error is OutputWriting
                    ? "\(error) (in \(workspace.runDirectory.path))"
                    : "cannot publish the reports of \(workspace.runDirectory.path): \(OutputWriting.describe(error))")
        }
    }

    struct HistoryUpdate {
        var problem: String?
        /// Since when, for the domains the closing summary lists.
        var notPassingSince: [String: RunHistory.Streak] = [:]
        /// The standings the alert's policy needs (`--alert-after`, `--remind-every`): every
        /// flagged or changed domain's, when it has one.
        var standings: [String: RunHistory.Standing] = [:]
    }

    /// A complete run's line in `history.json` and `index.html` anew. A signal now (the reports
    /// are in place) skips it and the alert: the next run adds this one from its report.
    func updateHistory(_ finished: FinishedRun) -> HistoryUpdate {
        guard complete else { return HistoryUpdate() }
        guard !Task.isCancelled else {
            return HistoryUpdate(
                problem:
                    "interrupted after the reports were written: history.json, index.html and the alert were skipped (the next run adds this run to the history)"
            )
        }
        let domains = accumulator.takeHistoryDomains(targets: targets)
        var entry = HistoryRun(
            run: workspace.runDirectory.lastPathComponent, startedAt: startedAt, finishedAt: finished.run.finishedAt,
            counting: domains, auditorProblems: finished.summary.auditorProblems)
        entry.alertAfter = settings.notification?.policy.alertAfter ?? settings.alertmanager?.alertAfter
        let listed = Set(
            [Verdict.fail, .warn].flatMap { verdict in
                flaggedDomains.lazy.filter { $0.verdict == verdict }.prefix(TerminalReport.summaryLimit)
                    .map(\.domain)
            })
        // The alerts look at every flagged domain's streak and at the changed ones'.
        let alerting = settings.notification != nil || settings.alertmanager != nil
        let policed =
            alerting ? Set(flaggedDomains.map(\.domain) + (finished.changes?.domains.map(\.domain) ?? [])) : []
        do {
            let standings = try RunHistoryIndex.update(
                output: workspace.output, with: entry, domains: domains, standingsOf: listed.union(policed))
            return HistoryUpdate(
                notPassingSince: standings.filter { listed.contains($0.key) }.compactMapValues(\.notPassingSince),
                standings: alerting ? standings : [:])
        } catch is CancellationError {
            return HistoryUpdate(
                problem:
                    "interrupted while the history was updated: history.json and index.html are as they were, and the alert was skipped (the next run adds this run to the history)"
            )
        } catch {
            return HistoryUpdate(
                problem: "cannot update the history in \(workspace.output.path): \(error.localizedDescription)")
        }
    }

    /// `--notify`'s alert, after a complete run.
    func sendAlert(_ finished: FinishedRun, report: URL, standings: [String: RunHistory.Standing]) async
        -> NotificationResult?
    {
        guard complete, let notification = settings.notification else { return nil }
        let alert = RunAlert(
            run: RunAlert.Run(
                startedAt: startedAt, folder: workspace.runDirectory.path, report: report.path,
                previousRunStartedAt: finished.changes?.previousRunStartedAt,
                reportURL: notification.reportURL(runFolder: workspace.runDirectory.lastPathComponent),
                output: workspace.output.standardizedFileURL.path),
            verdicts: finished.summary.verdicts, changes: finished.changes, flagged: flaggedDomains,
            // Changes that could not be gathered are not a first run's (every failure new): the
            // alert says this machine's trouble instead, and names no domain.
            auditorProblems: finished.summary.auditorProblems ?? accumulator.comparisonProblem.map { [$0] },
            policy: RunAlert.PolicyInput(
                policy: notification.policy, standings: standings, now: startedAt,
                previousRun: finished.changes?.previousRunStartedAt),
            acknowledgements: settings.acknowledgements)
        return await RunNotification.send(alert, settings: notification)
    }

    /// `--alertmanager`'s alerts, after a complete sound run: nothing on a night this machine
    /// could not check (the alerts stand until their `endsAt`).
    func sendToAlertmanager(_ finished: FinishedRun, report: URL, standings: [String: RunHistory.Standing]) async
        -> AlertmanagerResult?
    {
        guard complete, finished.summary.auditorProblems == nil, let alertmanager = settings.alertmanager else {
            return nil
        }
        let now = settings.now()
        let output = workspace.output.standardizedFileURL.path
        var linking = NotificationSettings(url: alertmanager.url)
        linking.reportBaseURL = alertmanager.reportBaseURL
        let link = linking.reportURL(runFolder: workspace.runDirectory.lastPathComponent) ?? report.path
        // `--alert-after`: a failure fires once a run has heard it (its stretch lasted that run's
        // setting), as the webhook hears it, and goes on firing while it lasts.
        let lasted = flaggedDomains.filter {
            standings[$0.domain]?.notPassingSince.map { $0.heardAt != nil } ?? (alertmanager.alertAfter <= 1)
        }
        let firing = AlertmanagerAlerts.firing(
            lasted, output: output, report: link, startsAt: now,
            endsAt: AlertmanagerAlerts.endsAt(now: now, previousRun: finished.changes?.previousRunStartedAt))
        return await AlertmanagerDelivery.send(firing, output: output, now: now, settings: alertmanager)
    }

    /// Last, with the alert's outcome.
    func writeMetrics(_ finished: FinishedRun) throws(AuditRunError) {
        do {
            try outputs.finishMetrics(finished)
        } catch {
            outputs.discard()
            throw .writing("\(error)")
        }
    }

    func result(_ finished: FinishedRun, reports: (json: URL, html: URL), history: HistoryUpdate) -> AuditRunResult {
        AuditRunResult(
            runDirectory: workspace.runDirectory, reportJSON: reports.json,
            reportHTML: reports.html, summary: finished.summary,
            flaggedDomains: flaggedDomains, complete: complete,
            durationSeconds: finished.run.durationSeconds,
            changes: finished.changes, notification: finished.notification, alertmanager: finished.alertmanager,
            historyProblem: history.problem, comparisonProblem: accumulator.comparisonProblem,
            notPassingSince: history.notPassingSince, note: workspace.note)
    }
}
