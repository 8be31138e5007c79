import AASAAudit
import AASAChecks
import AASAFetch
import AASAModel
import AASAReport
import ArgumentParser
import DomainList
import Foundation

/// `aasa-audit audit [FILE]`: the nightly job.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Audit every domain of a domains file and write JSON and HTML reports.",
        discussion: """
            Writes report.json and report.html into a new folder under --out named by the run's UTC \
            start time, then updates latest.json and latest.html there.
            """
    )

    @Argument(help: "The domains file: one domain per line, optionally followed by the app IDs its file must name (default: domains.txt, unless --entitlements is given).")
    var file: String?

    @Option(help: ArgumentHelp("Also audit the hosts an app's entitlements file names (repeatable).", valueName: "file"))
    var entitlements: [String] = []

    @Option(name: .customLong("app-id"), help: ArgumentHelp("With --entitlements: an app ID the hosts' files must name (repeatable).", valueName: "id"))
    var appIDs: [String] = []

    @Option(help: ArgumentHelp("The folder that receives the run folders and latest.*.", valueName: "dir"))
    var out: String = "reports"

    @Option(help: "Domains audited at once.")
    var concurrency: Int = 64

    @Option(help: ArgumentHelp("Threads doing the TLS and HTTP work, each with its own curl multi handle; more help only when the CPU, not the network, is the limit.", valueName: "n"))
    var fetchThreads: Int = FetcherConfiguration.defaultLoopThreads

    @Option(help: ArgumentHelp("Keep only the newest N run folders in --out (older ones are removed after a complete run).", valueName: "n"))
    var keep: Int?

    @Option(help: "The least severity that fails the run: error, or warning.")
    var failOn: FailThreshold = .error

    @Option(help: ArgumentHelp("Also write JUnit XML for CI servers: a test case per domain.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Also write Prometheus metrics (text format, for node_exporter's textfile collector).", valueName: "file"))
    var metrics: String?

    @Option(help: ArgumentHelp("Write the run's resource use (wall and CPU time, peak memory) to this file as JSON.", valueName: "file"))
    var stats: String?

    @OptionGroup var validation: ValidationOptionGroup

    @OptionGroup var deviceView: DeviceViewOptions

    @OptionGroup var fetch: FetchOptions

    func validate() throws {
        for id in appIDs {
            if let problem = AppIDFormat.problem(with: id) { throw ValidationError("--app-id \(problem).") }
        }
        guard (1...4096).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 4096.") }
        if let keep, keep < 1 { throw ValidationError("--keep must be at least 1.") }
        guard (1...64).contains(fetchThreads) else { throw ValidationError("--fetch-threads must be between 1 and 64.") }
    }
}

extension AuditCommand {
    /// Larger domains files are refused rather than read into memory.
    static let maximumInputBytes = 64 << 20

    func run() async throws {
        let started = ContinuousClock.now
        let parsed = try readInputs()
        var settings = AuditSettings(
            inputFiles: inputFiles, outputDirectory: URL(fileURLWithPath: out), concurrency: concurrency,
            fetcher: fetch.configuration(concurrency: concurrency, threads: fetchThreads), failOn: failOn.severity, validation: validation.options,
            deviceView: deviceView.settings)
        settings.keepRuns = keep
        settings.junitFile = junit.map { URL(fileURLWithPath: $0) }
        settings.metricsFile = metrics.map { URL(fileURLWithPath: $0) }

        let progressLine = Terminal.standardErrorIsTerminal ? ProgressLine() : nil
        let runTask = Task {
            try await AuditRun.run(targets: parsed.targets, inputProblems: parsed.problems, settings: settings) { progress in
                progressLine?.update(progress)
            }
        }
        let interruption = Interruption(cancelling: runTask)
        let result: AuditRunResult
        do {
            result = try await runTask.value
        } catch let error as AuditRunError {
            progressLine?.clear()
            Terminal.printError("aasa-audit: \(error.description)\n")
            throw ExitStatus.usage
        }
        progressLine?.clear()

        let text = TerminalReport(colour: Terminal.colourOnStandardOutput)
        Terminal.print(text.runSummary(
            summary: result.summary, flagged: result.flaggedDomains, problems: parsed.problems,
            seconds: result.durationSeconds, complete: result.complete))
        Terminal.print("Reports: \(result.reportJSON.path)\n         \(result.reportHTML.path)\n")
        if let stats {
            do {
                try RunStatistics.measure(since: started, domains: result.summary.domains).write(to: stats)
            } catch {
                Terminal.printError("aasa-audit: cannot write --stats \(stats): \(error.localizedDescription)\n")
            }
        }
        if let status = interruption.exitStatus {
            Terminal.print("The run was interrupted: latest.json and latest.html still show the last complete run.\n")
            throw ExitCode(status)
        }

        let failing = result.flaggedDomains.contains { $0.verdict.fails(at: failOn.severity) }
        if failing || !parsed.problems.filter({ $0.severity == .error }).isEmpty || !result.complete {
            throw ExitStatus.failed
        }
    }

    /// The domains file (when given, or when no entitlements are), then the entitlements files.
    var inputFiles: [String] {
        (file.map { [$0] } ?? (entitlements.isEmpty ? ["domains.txt"] : [])) + entitlements
    }

    /// Every input, parsed and merged. Exits 2 when one cannot be read or none lists a domain.
    func readInputs() throws -> DomainListParser.Result {
        var lists: [[DomainTarget]] = []
        var problems: [InputProblem] = []
        if let domainsFile = file ?? (entitlements.isEmpty ? "domains.txt" : nil) {
            let parsed = DomainListParser.parse(try Self.read(domainsFile, what: "domains file"), fileName: domainsFile)
            lists.append(parsed.targets)
            problems += parsed.problems
        }
        for path in entitlements {
            let parsed = EntitlementsParser.parse(try Self.read(path, what: "entitlements file"), fileName: path, appIDs: appIDs)
            lists.append(parsed.targets)
            problems += parsed.problems
        }
        let targets = EntitlementsParser.merge(lists)
        if targets.isEmpty {
            for problem in problems {
                Terminal.printError("\(problem.file):\(problem.line): \(problem.message)\n")
            }
            Terminal.printError("aasa-audit: \(inputFiles.joined(separator: ", ")) list\(inputFiles.count == 1 ? "s" : "") no domain to audit.\n")
            throw ExitStatus.usage
        }
        return DomainListParser.Result(targets: targets, problems: problems)
    }

    static func read(_ path: String, what: String) throws -> [UInt8] {
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? Int, size > maximumInputBytes {
                Terminal.printError("aasa-audit: \(path) is larger than \(maximumInputBytes >> 20) MiB.\n")
                throw ExitStatus.usage
            }
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Terminal.printError("aasa-audit: cannot read the \(what) \(path): \(reason(error))\n")
            throw ExitStatus.usage
        }
    }

    static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        switch nsError.code {
        case CocoaError.fileReadNoSuchFile.rawValue: return "no such file"
        case CocoaError.fileReadNoPermission.rawValue: return "permission denied"
        default: return nsError.localizedDescription
        }
    }
}
