import AASAAudit
import AASAModel
import ArgumentParser

/// `aasa-audit ack`: acknowledge a known failure until a date, as a silence in Alertmanager.
struct AckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ack",
        abstract: "Acknowledge a domain's known failure until a date, so that it fails no night and sends no alert.",
        discussion:
            "An acknowledged finding is still shown (terminal, HTML, JSON, serve) with its reason and date, but fails neither the exit status nor --quiet and sends no alert; a new code on the domain is heard, and so is the failure again once the date has passed. Stored in --out/acknowledgements.json with who and when; at most \(Acknowledgements.maximumDays) days ahead."
    )

    @Argument(help: "The domain (as domains.txt names it, or pasted: applinks:…, https://…).") var domain: String?
    @Option(
        name: .customLong(OptionName.code.rawValue),
        help: ArgumentHelp(
            "Acknowledge only this finding code and what follows from it (repeatable; default: every finding).",
            valueName: "code"))
    var codes: [String] = []
    @Option(
        name: .customLong(OptionName.until.rawValue),
        help: ArgumentHelp(
            "The last day acknowledged (UTC), at most \(Acknowledgements.maximumDays) days ahead.",
            valueName: "YYYY-MM-DD"))
    var until: String?
    @Option(
        name: .customLong(OptionName.reason.rawValue),
        help: ArgumentHelp("Why: shown wherever the failure is.", valueName: "text")) var reason: String?
    @Option(
        name: .customLong(OptionName.out.rawValue), help: ArgumentHelp("The audit's output folder.", valueName: "dir"))
    var out = OutputFolderLayout
        .defaultFolder
    @Flag(help: "List the acknowledgements, in force and ended.") var list = false
    @Flag(help: "Remove the domain's acknowledgement.") var remove = false

    func validate() throws {
        if list {
            guard domain == nil, !remove, codes.isEmpty, until == nil, reason == nil else {
                throw ValidationError("--list takes no domain and no other option but --out.")
            }
            return
        }
        guard domain != nil else { throw ValidationError("Name the domain (or --list).") }
        if remove {
            guard codes.isEmpty, until == nil, reason == nil else {
                throw ValidationError("--remove takes the domain and --out only.")
            }
            return
        }
        guard until != nil, reason != nil else {
            throw ValidationError("An acknowledgement needs --until YYYY-MM-DD and --reason TEXT.")
        }
    }

    func run() throws {
        let console = StandardConsole()
        if list { return console.print(try AcknowledgementCommands.list(output: out)) }
        guard let domain else { return }
        if remove {
            try AcknowledgementCommands.remove(domain: domain, output: out)
            return console.print("Removed the acknowledgement of \(domain).\n")
        }
        let entry = try AcknowledgementCommands.acknowledge(
            domain: domain, codes: codes, until: until ?? "", reason: reason ?? "", output: out)
        console.print(
            "Acknowledged \(entry.domain) (\(entry.codes?.joined(separator: ", ") ?? "every finding")) until \(entry.lastDay) UTC.\n"
        )
        if let unheard = AcknowledgementStore.unheard(domain: entry.domain, output: out) {
            console.printError("aasa-audit: warning: \(unheard)\n")
        }
    }
}
