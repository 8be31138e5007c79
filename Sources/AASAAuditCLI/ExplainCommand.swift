import AASAAudit
import AASAModel
import AASAReport
import ArgumentParser

/// `aasa-audit explain [CODE]`: what a finding code means and how to fix it.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: "Explain a finding code, or list them all.")

    @Argument(help: "A finding code, e.g. http.redirect. Without one, every code is listed.") var code: String?
    @Flag(name: .customLong(OptionName.markdown.rawValue), help: "Print the table of docs/findings.md.") var markdown =
        false
    @Flag(help: "Print the codes alone, one a line.") var codes = false

    func run() throws {
        let listed =
            try code.map { name throws(ValidationError) in
                let matches = FindingCode.matching(name)
                guard !matches.isEmpty else {
                    let close = FindingCode.suggestions(for: name).map(\.rawValue)
                    let hint = close.isEmpty ? "" : " Did you mean \(close.joined(separator: ", "))?"
                    throw ValidationError(
                        "unknown finding code '\(name)'.\(hint) 'aasa-audit explain' lists them all.")
                }
                return matches
            } ?? FindingCode.allCases
        let text =
            markdown
            ? FindingsMarkdown.document()
            : codes ? listed.map { $0.rawValue + "\n" }.joined() : TerminalReport.explanations(of: listed)
        StandardConsole().print(text)
    }
}
