import AASAChecks
import AASAFetch
import AASAModel
import AASAReport
import Foundation

/// The version the reports name.
public enum AASAAuditVersion {
    public static let current = "0.1.0"
    public static var tool: ToolInfo { ToolInfo(version: current) }
    public static var defaultUserAgent: String { "aasa-audit/\(current)" }
}

/// Everything a run of `audit` needs besides its domains.
public struct AuditSettings: Sendable {
    public var inputFiles: [String]
    public var outputDirectory: URL
    /// Domains in flight at once.
    public var concurrency: Int
    public var fetcher: FetcherConfiguration
    public var failOn: Severity
    public var validation: ValidationOptions
    public var deviceView: DeviceViewSettings
    /// Run folders to keep (`--keep`); nil keeps them all.
    public var keepRuns: Int?
    /// Where to write JUnit XML (`--junit`) and Prometheus metrics (`--metrics`).
    public var junitFile: URL?
    public var metricsFile: URL?

    public init(inputFiles: [String], outputDirectory: URL, concurrency: Int, fetcher: FetcherConfiguration, failOn: Severity,
                validation: ValidationOptions = ValidationOptions(), deviceView: DeviceViewSettings = .originOnly) {
        self.deviceView = deviceView
        self.inputFiles = inputFiles
        self.outputDirectory = outputDirectory
        self.concurrency = concurrency
        self.fetcher = fetcher
        self.failOn = failOn
        self.validation = validation
    }

    var runOptions: RunOptions {
        var options = RunOptions(
            inputFiles: inputFiles, outputDirectory: outputDirectory.path, concurrency: concurrency,
            timeoutSeconds: fetcher.timeoutSeconds, userAgent: fetcher.userAgent, failOn: failOn,
            resolve: fetcher.resolve, connectTo: fetcher.connectTo, caCertFile: fetcher.caCertFile,
            minimumIOS: validation.minimumIOS?.description)
        options.cdnURL = deviceView.cdnBase
        options.botUserAgent = deviceView.botUserAgent
        options.browserUserAgent = deviceView.browserUserAgent
        return options
    }
}

/// How far a run has got, for a progress line.
public struct AuditProgress: Sendable {
    public var done: Int
    public var total: Int
    public var failing: Int
    public var elapsedSeconds: Double
}

/// What a finished run produced.
public struct AuditRunResult: Sendable {
    public var runDirectory: URL
    public var reportJSON: URL
    public var reportHTML: URL
    public var summary: ReportSummary
    /// Domains whose verdict is `fail` or `warn`, in input order, with their worst findings' codes.
    public var flaggedDomains: [FlaggedDomain]
    public var complete: Bool
    public var durationSeconds: Double
}

/// A run could not be made or its reports not written.
public struct AuditRunError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// An audit of many domains: each domain audited concurrently (at most `concurrency` in
/// flight), its record and HTML row spooled as it completes, then `report.json` and
/// `report.html` assembled in input order in a new run folder, and `latest.*` updated.
public enum AuditRun {
    public static func run(
        targets: [DomainTarget], inputProblems: [InputProblem], settings: AuditSettings,
        progress: @escaping @Sendable (AuditProgress) -> Void = { _ in }
    ) async throws(AuditRunError) -> AuditRunResult {
        let startedAt = Date()
        let fetcher: Fetcher
        do {
            fetcher = try Fetcher(configuration: settings.fetcher)
        } catch {
            throw AuditRunError(description: "cannot start the fetcher: \(error)")
        }
        let runDirectory: URL
        let spool: ReportSpool
        let lock: OutputLock
        do {
            try RunDirectory.prepare(settings.outputDirectory)
            lock = try OutputLock(directory: settings.outputDirectory)
            runDirectory = try RunDirectory.create(in: settings.outputDirectory, startedAt: startedAt)
            spool = try ReportSpool(directory: runDirectory, capacity: targets.count)
        } catch {
            fetcher.shutdown()
            throw error as? AuditRunError ?? AuditRunError(description: "cannot start the run in \(settings.outputDirectory.path): \(error)")
        }
        defer {
            spool.remove()
            withExtendedLifetime(lock) {}
        }
        let previous = PreviousRun.load(from: settings.outputDirectory.appendingPathComponent("latest.json"))
        var changedDomains: [DomainChange] = []

        var summary = ReportSummary()
        var flagged = [FlaggedDomain?](repeating: nil, count: targets.count)
        var spoolError: Error?
        let auditor = DomainAuditor(fetcher: fetcher, validation: settings.validation, deviceView: settings.deviceView)
        let html = HTMLReport()
        let registry = ServedFileRegistry()
        let clock = ContinuousClock.now

        var audited = [Bool](repeating: false, count: targets.count)
        func record(_ rendered: RenderedDomain) {
            do {
                try spool.append(index: rendered.index, record: rendered.record, row: rendered.row)
            } catch {
                spoolError = spoolError ?? error
            }
            summary.add(rendered.report)
            flagged[rendered.index] = FlaggedDomain(rendered.report)
            audited[rendered.index] = true
            if let before = previous?.domains[rendered.report.domain], let change = DomainSnapshot(rendered.report).change(since: before) {
                changedDomains.append(change)
            }
        }

        await withTaskGroup(of: RenderedDomain?.self) { group in
            var next = 0
            func addNext() {
                guard next < targets.count, !Task.isCancelled else { return }
                let index = next
                next += 1
                group.addTask {
                    let outcome = await auditor.audit(targets[index])
                    // A domain whose fetches were cut short by an interruption was not audited.
                    if outcome.report.fetches.contains(where: { $0.error?.kind == .cancelled }) { return nil }
                    return RenderedDomain(index: index, outcome: outcome, html: html, registry: registry)
                }
            }
            for _ in 0..<min(max(1, settings.concurrency), targets.count) { addNext() }
            for await rendered in group {
                if let rendered { record(rendered) }
                progress(AuditProgress(done: summary.domains, total: targets.count, failing: summary.verdicts.fail,
                                       elapsedSeconds: (ContinuousClock.now - clock).seconds))
                addNext()
            }
        }
        fetcher.shutdown()
        let complete = !audited.contains(false)
        // Every domain of the input appears in the report, audited or not.
        for (index, target) in targets.enumerated() where !audited[index] {
            let report = DomainReport(
                domain: target.domain, inputLine: target.inputLine, expectedAppIDs: target.expectedAppIDs, fetches: [],
                appIDs: ServiceAppIDs(), findings: [Finding(.auditInterrupted, .error, .domain, "The run was interrupted before this domain was audited.")])
            record(RenderedDomain(index: index, outcome: DomainOutcome(report: report, served: []), html: html, registry: registry))
        }
        if let spoolError {
            throw AuditRunError(description: "cannot write to \(runDirectory.path): \(spoolError)")
        }

        summary.inputProblems = inputProblems.count
        let changes = previous.map { previous in
            let current = Set(targets.map(\.domain))
            let position = Dictionary(targets.enumerated().map { ($1.domain, $0) }, uniquingKeysWith: { first, _ in first })
            return RunChanges(
                previousRunStartedAt: previous.startedAt,
                domains: changedDomains.sorted { position[$0.domain, default: 0] < position[$1.domain, default: 0] },
                addedDomains: targets.map(\.domain).filter { previous.domains[$0] == nil },
                removedDomains: previous.order.filter { !current.contains($0) })
        }
        let run = RunInfo(startedAt: startedAt, finishedAt: Date(), complete: complete, options: settings.runOptions)
        let input = InputInfo(problems: inputProblems)
        let reportJSON = runDirectory.appendingPathComponent("report.json")
        let reportHTML = runDirectory.appendingPathComponent("report.html")
        do {
            try writeJSONReport(to: reportJSON, run: run, summary: summary, input: input, changes: changes, spool: spool)
            try writeHTMLReport(to: reportHTML, html: html, run: run, summary: summary, input: input, changes: changes, spool: spool)
            if complete {
                try AtomicFileWriter.replace(settings.outputDirectory.appendingPathComponent("latest.json"), withCopyOf: reportJSON)
                try AtomicFileWriter.replace(settings.outputDirectory.appendingPathComponent("latest.html"), withCopyOf: reportHTML)
                if let keep = settings.keepRuns { RunPruning.prune(settings.outputDirectory, keep: keep) }
            }
            try writeOutputsForOtherSystems(settings: settings, run: run, summary: summary, spool: spool)
        } catch {
            throw AuditRunError(description: "cannot write the reports in \(runDirectory.path): \(error)")
        }

        return AuditRunResult(
            runDirectory: runDirectory, reportJSON: reportJSON, reportHTML: reportHTML, summary: summary,
            flaggedDomains: flagged.compactMap { $0 }, complete: complete, durationSeconds: run.durationSeconds)
    }

    static func writeJSONReport(to url: URL, run: RunInfo, summary: ReportSummary, input: InputInfo, changes: RunChanges?, spool: ReportSpool) throws {
        let writer = try AtomicFileWriter(destination: url)
        do {
            let (head, tail) = JSONReport.envelope(tool: AASAAuditVersion.tool, run: run, summary: summary, input: input, changes: changes)
            try writer.write(head)
            var first = true
            try spool.forEachRecord { record in
                if !first { try writer.write(Data(",\n".utf8)) }
                try writer.write(record)
                first = false
            }
            try writer.write(tail)
            try writer.commit()
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// JUnit XML and Prometheus metrics, from the spooled records.
    static func writeOutputsForOtherSystems(settings: AuditSettings, run: RunInfo, summary: ReportSummary, spool: ReportSpool) throws {
        guard settings.junitFile != nil || settings.metricsFile != nil else { return }
        let decoder = JSONReport.makeDecoder()
        let junit = JUnitReport()
        let metrics = settings.metricsFile.map { _ in MetricsReport() }
        var cases = Data()
        var failures = 0
        try spool.forEachRecord { record in
            let report = try decoder.decode(DomainReport.self, from: record)
            metrics?.add(report)
            if settings.junitFile != nil {
                cases += Data(junit.testCase(report, threshold: settings.failOn).utf8)
                if report.verdict.fails(at: settings.failOn) { failures += 1 }
            }
        }
        if let junitFile = settings.junitFile {
            try AtomicFileWriter.write(Data(junit.head(run: run, summary: summary, failures: failures).utf8) + cases + Data(JUnitReport.tail.utf8), to: junitFile)
        }
        if let metricsFile = settings.metricsFile, let metrics {
            try AtomicFileWriter.write(Data(metrics.render(run: run, summary: summary).utf8), to: metricsFile)
        }
    }

    static func writeHTMLReport(to url: URL, html: HTMLReport, run: RunInfo, summary: ReportSummary, input: InputInfo, changes: RunChanges?, spool: ReportSpool) throws {
        let writer = try AtomicFileWriter(destination: url)
        do {
            try writer.write(html.head(tool: AASAAuditVersion.tool, run: run, summary: summary, input: input, changes: changes))
            try spool.forEachRow { try writer.write($0) }
            try writer.write(html.tail(tool: AASAAuditVersion.tool))
            try writer.commit()
        } catch {
            writer.abandon()
            throw error
        }
    }
}

/// One audited domain, encoded and rendered in the task that audited it, so that both cores
/// share the work and the collecting task only appends bytes.
struct RenderedDomain: Sendable {
    let index: Int
    let report: DomainReport
    let record: Data
    let row: Data

    init(index: Int, outcome: DomainOutcome, html: HTMLReport, registry: ServedFileRegistry) {
        self.index = index
        report = outcome.report
        record = JSONReport.encodeRecord(outcome.report)
        let files = outcome.served.map { registry.display($0, domain: outcome.report.domain, row: index) }
        row = Data(html.row(index: index, report: outcome.report, files: files).utf8)
    }
}

/// The folder of one run: `<out>/<UTC start time>/`, e.g. `reports/2026-11-22T031500Z/`.
enum RunDirectory {
    /// Creates the output folder if needed and checks that it can be written.
    static func prepare(_ output: URL) throws(AuditRunError) {
        do {
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        } catch {
            throw AuditRunError(description: "cannot create the output directory \(output.path): \(error.localizedDescription)")
        }
        guard access(output.path, W_OK) == 0 else {
            throw AuditRunError(description: "the output directory \(output.path) is not writable")
        }
    }

    static func create(in output: URL, startedAt: Date) throws(AuditRunError) -> URL {
        let base = name(for: startedAt)
        for attempt in 1...100 {
            let candidate = output.appendingPathComponent(attempt == 1 ? base : "\(base)-\(attempt)")
            if mkdir(candidate.path, 0o755) == 0 { return candidate }
            guard errno == EEXIST else {
                throw AuditRunError(description: "cannot create the run folder \(candidate.path): \(String(cString: strerror(errno)))")
            }
        }
        throw AuditRunError(description: "cannot create a run folder for \(base) in \(output.path)")
    }

    /// Run folders in the order they were made (`…Z` before `…Z-2`).
    static func precedes(_ a: String, _ b: String) -> Bool {
        func parts(_ name: String) -> (String, Int) {
            let pieces = name.split(separator: "-", maxSplits: 3).map(String.init)
            if pieces.count == 4, let number = Int(pieces[3]) { return (pieces[0...2].joined(separator: "-"), number) }
            return (name, 1)
        }
        let (left, right) = (parts(a), parts(b))
        return left.0 != right.0 ? left.0 < right.0 : left.1 < right.1
    }

    static func name(for date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z"
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
