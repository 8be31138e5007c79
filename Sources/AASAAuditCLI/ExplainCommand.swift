import AASAModel
import AASAReport
import ArgumentParser

/// `aasa-audit explain [CODE]`: what a finding code means and how to fix it.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain a finding code, or list them all."
    )

    @Argument(help: "A finding code, e.g. http.redirect. Without one, every code is listed.")
    var code: String?

    @Flag(help: "Print the table of docs/findings.md.")
    var markdown = false

    @Flag(help: "Print the codes alone, one a line.")
    var codes = false
}

extension ExplainCommand {
    func run() throws {
        if markdown {
            Terminal.print(FindingCatalog.markdown())
            return
        }
        if codes {
            Terminal.print(FindingCode.allCases.map { $0.rawValue + "\n" }.joined())
            return
        }
        let listed: [FindingCode]
        if let code {
            guard let known = FindingCode(rawValue: code) else {
                throw ValidationError("unknown finding code '\(code)'; run 'aasa-audit explain' for the list.")
            }
            listed = [known]
        } else {
            listed = FindingCode.allCases
        }
        for code in listed {
            let (meaning, fix) = code.explanation
            Terminal.print("\(code.rawValue) (\(code.severityNote))\n  \(meaning)\n  Fix: \(fix)\n\n")
        }
    }
}
