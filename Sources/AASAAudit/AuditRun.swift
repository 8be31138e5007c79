import AASAChecks
import AASAFetch
import AASAModel
import AASAReport
import Foundation

/// An audit of many domains. A run workspace (the output folder, its lock, a new run folder,
/// the previous run), the bounded concurrent loop feeding an accumulator (summary, changes),
/// and the report outputs (JSON, HTML, JUnit, metrics) fed as domains complete; when the run
/// is complete its reports become `latest.*`.
public enum AuditRun {
    public static func run(
        targets: [DomainTarget], inputProblems: [InputProblem], settings: AuditSettings,
        progress: @escaping @Sendable (AuditProgress) -> Void = { _ in }
    ) async throws(AuditRunError) -> AuditRunResult {
        let startedAt = Date()
        let clock = ContinuousClock.now
        let fetcher: Fetcher
        do {
            fetcher = try Fetcher(configuration: settings.fetcher)
        } catch {
            throw .fetcherSetup("cannot start the fetcher: \(error)")
        }
        let workspace: RunWorkspace
        let outputs = Outputs(settings: settings)
        do {
            workspace = try RunWorkspace(output: settings.outputDirectory, startedAt: startedAt)
            try outputs.start(RunStart(runDirectory: workspace.runDirectory, domainCount: targets.count))
        } catch {
            fetcher.shutdown()
            throw error
        }
        defer { workspace.close() }

        var accumulator = RunAccumulator(domainCount: targets.count, previous: workspace.previousRun)
        var writeError: Error?
        func record(_ domain: AuditedDomain, rendered: [Data?], reached: Bool = true) {
            accumulator.add(domain, reached: reached)
            do { try outputs.add(domain, rendered: rendered) } catch { writeError = writeError ?? error }
        }
        let auditor = DomainAuditor(fetcher: fetcher, validation: settings.validation, deviceView: settings.deviceView)
        await AuditLoop.run(targets: targets, concurrency: settings.concurrency, auditor: auditor, outputs: outputs.all)
        { completed in
            record(completed.domain, rendered: completed.rendered)
            progress(
                AuditProgress(
                    done: accumulator.summary.domains, total: targets.count, failing: accumulator.summary.verdicts.fail,
                    elapsedSeconds: (ContinuousClock.now - clock).seconds, oldestInFlight: completed.oldestInFlight))
        }
        fetcher.shutdown()
        let complete = accumulator.complete
        accumulator.finishComparing(interrupted: !complete)
        // Every domain of the input appears in the reports, audited or not.
        var notAuditedRecords = NotAuditedRecords(outputs: outputs.all)
        for index in accumulator.notAudited {
            let domain = AuditedDomain(index: index, report: DomainChecks.notAudited(targets[index]), served: [])
            record(domain, rendered: notAuditedRecords.render(targets[index], index: index), reached: false)
        }
        if let writeError {
            outputs.discard()
            throw .reports("cannot write to \(workspace.runDirectory.path): \(writeError)")
        }

        var summary = accumulator.summary
        summary.inputProblems = inputProblems.count
        let notices = AuditorProblems.notices(summary)
        summary.auditorProblems = notices.isEmpty ? nil : notices
        let run = RunInfo(startedAt: startedAt, finishedAt: Date(), complete: complete, options: settings.runOptions)
        var finished = FinishedRun(
            tool: AASAAuditVersion.tool, run: run, summary: summary, input: InputInfo(problems: inputProblems),
            changes: accumulator.runChanges(domains: targets.map(\.domain)))
        let written: (json: URL, html: URL)
        do {
            written = try outputs.finishReports(finished)
            if complete { try workspace.publish(json: written.json, html: written.html, keep: settings.keepRuns) }
        } catch {
            outputs.discard()
            throw .reports("cannot write the reports in \(workspace.runDirectory.path): \(error)")
        }
        // The reports are in place: the history, the index and the alert cannot lose them.
        var historyProblem: String?
        var notPassingSince: [String: RunHistory.Streak] = [:]
        // A signal now (the run is complete, its reports in place) skips what is left: the
        // history and the alert. The next run adds this one to history.json from its report.
        if complete, Task.isCancelled {
            historyProblem =
                "interrupted after the reports were written: history.json, index.html and the alert were skipped (the next run adds this run to the history)"
        } else if complete {
            let entry = HistoryRun(
                run: workspace.runDirectory.lastPathComponent, startedAt: startedAt, finishedAt: run.finishedAt,
                domains: accumulator.takeHistoryDomains())
            // Since when, for the domains the closing summary lists.
            let listed = Set(
                [Verdict.fail, .warn].flatMap { verdict in
                    accumulator.flaggedDomains.lazy.filter { $0.verdict == verdict }.prefix(TerminalReport.summaryLimit)
                        .map(\.domain)
                })
            do {
                notPassingSince = try RunHistoryIndex.update(output: workspace.output, with: entry, sinceFor: listed)
            } catch is CancellationError {
                historyProblem =
                    "interrupted while the history was updated: history.json and index.html are as they were, and the alert was skipped (the next run adds this run to the history)"
            } catch {
                historyProblem = "cannot update the history in \(workspace.output.path): \(error.localizedDescription)"
            }
            if let notification = settings.notification, !Task.isCancelled {
                let alert = RunAlert(
                    run: RunAlert.Run(
                        startedAt: startedAt, folder: workspace.runDirectory.path, report: written.html.path,
                        previousRunStartedAt: finished.changes?.previousRunStartedAt,
                        reportURL: notification.reportURL(runFolder: workspace.runDirectory.lastPathComponent)),
                    verdicts: summary.verdicts, changes: finished.changes, flagged: accumulator.flaggedDomains)
                finished.notification = await RunNotification.send(alert, settings: notification)
            }
        }
        do {
            try outputs.finishMetrics(finished)
        } catch {
            outputs.discard()
            throw .reports("cannot write the metrics: \(error)")
        }
        return AuditRunResult(
            runDirectory: workspace.runDirectory, reportJSON: written.json, reportHTML: written.html, summary: summary,
            flaggedDomains: accumulator.flaggedDomains, complete: complete, durationSeconds: run.durationSeconds,
            changes: finished.changes,
            notification: finished.notification, historyProblem: historyProblem, notPassingSince: notPassingSince)
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
