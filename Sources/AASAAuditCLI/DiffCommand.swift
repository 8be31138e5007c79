import AASAModel
import AASAReport
import ArgumentParser
import Foundation

/// `aasa-audit diff OLD.json NEW.json`: what changed between two reports.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two JSON reports: verdicts, new and resolved findings, domains added or removed."
    )

    @Argument(help: "The older report.")
    var old: String

    @Argument(help: "The newer report.")
    var new: String

    @Flag(help: "Print the changes as JSON, in the form of a report's changes field.")
    var json = false
}

extension DiffCommand {
    func run() throws {
        let before = try Self.load(old)
        let after = try Self.load(new)
        let changes = RunChanges.between(
            previous: before.domains.map(DomainSnapshot.init), previousStartedAt: before.run.startedAt,
            current: after.domains.map(DomainSnapshot.init))
        if json {
            let data = try JSONReport.makeEncoder(pretty: true).encode(changes)
            Terminal.print(String(decoding: data, as: UTF8.self) + "\n")
        } else {
            Terminal.print(TerminalReport(colour: Terminal.colourOnStandardOutput).changes(changes))
        }
    }

    static func load(_ path: String) throws -> AuditReport {
        do {
            return try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch let error as DecodingError {
            Terminal.printError("aasa-audit: \(path) is not an aasa-audit report: \(error)\n")
            throw ExitStatus.usage
        } catch {
            Terminal.printError("aasa-audit: cannot read \(path): \(error.localizedDescription)\n")
            throw ExitStatus.usage
        }
    }
}
