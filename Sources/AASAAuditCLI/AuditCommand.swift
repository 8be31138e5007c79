import AASAAudit
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

    @Argument(help: "The domains file: one domain per line, optionally followed by the app IDs its file must name.")
    var file: String = "domains.txt"

    @Option(help: ArgumentHelp("The folder that receives the run folders and latest.*.", valueName: "dir"))
    var out: String = "reports"

    @Option(help: "Domains audited at once.")
    var concurrency: Int = 64

    @Option(help: "The least severity that fails the run: error, or warning.")
    var failOn: FailThreshold = .error

    @Option(help: ArgumentHelp("Write the run's resource use (wall and CPU time, peak memory) to this file as JSON.", valueName: "file"))
    var stats: String?

    @OptionGroup var validation: ValidationOptionGroup

    @OptionGroup var deviceView: DeviceViewOptions

    @OptionGroup var fetch: FetchOptions

    func validate() throws {
        guard (1...4096).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 4096.") }
    }
}

extension AuditCommand {
    /// Larger domains files are refused rather than read into memory.
    static let maximumInputBytes = 64 << 20

    func run() async throws {
        let started = ContinuousClock.now
        let parsed = try readDomains()
        let settings = AuditSettings(
            inputFiles: [file], outputDirectory: URL(fileURLWithPath: out), concurrency: concurrency,
            fetcher: fetch.configuration(concurrency: concurrency), failOn: failOn.severity, validation: validation.options,
            deviceView: deviceView.settings)

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

    /// The domains file, parsed. Exits 2 when it cannot be read or lists no domain.
    func readDomains() throws -> DomainListParser.Result {
        let bytes: [UInt8]
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            if let size = attributes[.size] as? Int, size > Self.maximumInputBytes {
                Terminal.printError("aasa-audit: \(file) is larger than \(Self.maximumInputBytes >> 20) MiB.\n")
                throw ExitStatus.usage
            }
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Terminal.printError("aasa-audit: cannot read the domains file \(file): \(Self.reason(error))\n")
            throw ExitStatus.usage
        }
        let parsed = DomainListParser.parse(bytes, fileName: file)
        if parsed.targets.isEmpty {
            for problem in parsed.problems {
                Terminal.printError("\(problem.file):\(problem.line): \(problem.message)\n")
            }
            Terminal.printError("aasa-audit: \(file) lists no domain to audit.\n")
            throw ExitStatus.usage
        }
        return parsed
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
