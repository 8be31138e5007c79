import AASAAudit
import AASAModel
import ArgumentParser
import Foundation

/// `audit`'s outputs: the folder of run folders, how many runs it keeps, and the files written
/// beside it for CI servers, Prometheus and the run's resource use.
struct AuditOutputOptions: ParsableArguments {
    @Option(
        name: .customLong(OptionName.out.rawValue),
        help: ArgumentHelp(
            "The folder that receives the run folders and \(OutputFolderLayout.latestJSON), \(OutputFolderLayout.latestHTML).",
            valueName: "dir"))
    var out = OutputFolderLayout.defaultFolder
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Keep only the newest N run folders in --out (older ones are removed after a complete run).", valueName: "n"
        )) var keep: Int?
    /// The files written beside the reports, each optional: JUnit XML, Prometheus metrics, the
    /// run's resource use.
    @Option(name: .customLong(OptionName.junit.rawValue), help: ArgumentHelp(Help.junit, valueName: "file")) var junit:
        String?
    @Option(name: .customLong(OptionName.metrics.rawValue), help: ArgumentHelp(Help.metrics, valueName: "file"))
    var metrics: String?
    @Option(name: .customLong(OptionName.stats.rawValue), help: ArgumentHelp(Help.stats, valueName: "file")) var stats:
        String?

    enum Help {
        static let junit = "Also write JUnit XML for CI servers: a test case per domain."
        static let metrics = "Also write Prometheus metrics (text format, for node_exporter's textfile collector)."
        static let stats = "Write the run's resource use (wall and CPU time, peak memory) to this file as JSON."
    }

    func validate() throws {
        if let keep, keep < 1 { throw ValidationError("--keep must be at least 1.") }
    }

    var directory: URL { URL(fileURLWithPath: out) }

    /// The run's settings with these outputs.
    func apply(to settings: inout AuditSettings) {
        settings.keepRuns = keep
        settings.junitFile = junit.map { URL(fileURLWithPath: $0) }
        settings.metricsFile = metrics.map { URL(fileURLWithPath: $0) }
    }
}
