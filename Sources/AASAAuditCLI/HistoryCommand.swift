import AASAAudit
import AASAModel
import AASAReport
import ArgumentParser

/// `aasa-audit history [DOMAIN]`: the kept runs of `--out`, for a terminal or a script.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Show the trend over the kept runs, or one domain's timeline.",
        discussion:
            "Reads history.json in --out (the audits' --out), which each complete audit run appends to; index.html there shows the same in a browser."
    )

    @Argument(
        help:
            "A domain: its verdict and codes run by run. Without it: the fleet's trend, the domains not passing and since when, flapping ones, stale CDN copies."
    ) var domain: String?
    @Option(
        name: .customLong(OptionName.out.rawValue),
        help: ArgumentHelp("The folder the audits wrote to.", valueName: "dir")) var out = OutputFolderLayout
        .defaultFolder
    @Option(parsing: .unconditional, help: ArgumentHelp("Runs shown in the trend.", valueName: "n")) var runs = 15
    @Flag(name: .customLong(OptionName.json.rawValue), help: "Print JSON (docs/report-format.md, \"History\").")
    var json = false
    @Flag(
        help:
            "Write index.html (and history.json, when it had to be rebuilt from the run folders) anew, then print the trend."
    ) var writeIndex = false

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1.") }
        if writeIndex, domain != nil {
            throw ValidationError("--write-index writes the whole folder's index: give it without a domain.")
        }
    }

    func run() throws {
        let console = StandardConsole()
        let text = TerminalReport(colour: console.colour)
        if let domain {
            let record = try HistoryQuery.timeline(of: domain, output: out)
            console.print(json ? try prettyJSON(record) : text.timeline(record))
        } else {
            let record = try HistoryQuery.fleet(output: out, writingIndex: writeIndex)
            console.print(json ? try prettyJSON(record) : text.fleet(record, runLimit: runs))
        }
    }
}
