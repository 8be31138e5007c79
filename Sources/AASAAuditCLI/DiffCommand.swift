import AASAAudit
import AASAModel
import AASAReport
import ArgumentParser

/// `aasa-audit diff OLD.json NEW.json`: what changed between two reports.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract:
            "Show what changed between two JSON reports: verdicts, new and resolved findings, domains added or removed."
    )

    @Argument(help: "The older report: a report.json, or a run folder (reports/2026-11-22T031500Z).") var old: String
    @Argument(help: "The newer report, likewise (an output folder: its latest.json).") var new: String
    @Flag(
        name: .customLong(OptionName.json.rawValue),
        help: "Print the changes as JSON, in the form of a report's changes field.") var json = false

    func run() throws {
        let changes = try ReportDiff.changes(old: old, new: new)
        let console = StandardConsole()
        console.print(json ? try prettyJSON(changes) : TerminalReport(colour: console.colour).changes(changes))
        // 1 when a domain got worse, for a CI step that guards a deploy.
        try endCommand(with: changes.regressions.isEmpty ? .success : .failed)
    }
}
