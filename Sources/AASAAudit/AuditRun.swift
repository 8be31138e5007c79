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
        func record(_ domain: AuditedDomain, rendered: [Data?]) {
            accumulator.add(domain)
            do { try outputs.add(domain, rendered: rendered) } catch { writeError = writeError ?? error }
        }
        let auditor = DomainAuditor(fetcher: fetcher, validation: settings.validation, deviceView: settings.deviceView)
        await AuditLoop.run(targets: targets, concurrency: settings.concurrency, auditor: auditor, outputs: outputs.all) { completed in
            record(completed.domain, rendered: completed.rendered)
            progress(AuditProgress(done: accumulator.summary.domains, total: targets.count, failing: accumulator.summary.verdicts.fail,
                                   elapsedSeconds: (ContinuousClock.now - clock).seconds))
        }
        fetcher.shutdown()
        let complete = accumulator.complete
        // Every domain of the input appears in the reports, audited or not.
        for index in accumulator.notAudited {
            let domain = AuditedDomain(index: index, report: DomainChecks.notAudited(targets[index]), served: [])
            record(domain, rendered: outputs.all.map { $0.render(domain) })
        }
        if let writeError {
            outputs.discard()
            throw .reports("cannot write to \(workspace.runDirectory.path): \(writeError)")
        }

        var summary = accumulator.summary
        summary.inputProblems = inputProblems.count
        let run = RunInfo(startedAt: startedAt, finishedAt: Date(), complete: complete, options: settings.runOptions)
        let finished = FinishedRun(
            tool: AASAAuditVersion.tool, run: run, summary: summary, input: InputInfo(problems: inputProblems),
            changes: accumulator.runChanges(domains: targets.map(\.domain)))
        do {
            let written = try outputs.finish(finished)
            if complete { try workspace.publish(json: written.json, html: written.html, keep: settings.keepRuns) }
            return AuditRunResult(
                runDirectory: workspace.runDirectory, reportJSON: written.json, reportHTML: written.html, summary: summary,
                flaggedDomains: accumulator.flaggedDomains, complete: complete, durationSeconds: run.durationSeconds)
        } catch {
            outputs.discard()
            throw .reports("cannot write the reports in \(workspace.runDirectory.path): \(error)")
        }
    }
}

/// The outputs of a run: the JSON and HTML reports always, JUnit and metrics when asked for.
struct Outputs {
    let json = SpooledDocumentOutput(JSONReportFormat(), to: .runFile("report.json"))
    let html = SpooledDocumentOutput(HTMLReportFormat(), to: .runFile("report.html"))
    let others: [any RunOutput]

    init(settings: AuditSettings) {
        var others: [any RunOutput] = []
        if let junit = settings.junitFile { others.append(SpooledDocumentOutput(JUnitFormat(threshold: settings.failOn), to: .file(junit))) }
        if let metrics = settings.metricsFile { others.append(MetricsOutput(to: metrics)) }
        self.others = others
    }

    var all: [any RunOutput] { [json, html] + others }

    func start(_ run: RunStart) throws(AuditRunError) {
        var started: [any RunOutput] = []
        do {
            for output in all {
                try output.start(run)
                started.append(output)
            }
        } catch {
            started.forEach { $0.discard() }
            throw .reports("cannot write the reports: \(error)")
        }
    }

    func add(_ domain: AuditedDomain, rendered: [Data?]) throws {
        for (output, piece) in zip(all, rendered) { try output.add(domain, rendered: piece) }
    }

    /// Writes every output; returns the JSON and HTML reports' files.
    func finish(_ run: FinishedRun) throws -> (json: URL, html: URL) {
        let written = (json: try json.finish(run), html: try html.finish(run))
        for output in others { try output.finish(run) }
        return written
    }

    func discard() {
        all.forEach { $0.discard() }
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
