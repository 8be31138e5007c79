import AASAAudit
import AASAModel
import AASAReport
import ArgumentParser
import Foundation

struct AASAAuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa-audit",
        abstract:
            "Audits the files that bind apps to websites: \(AssociationKinds.servedFileNames.joined(separator: ", ")).",
        discussion:
            "Exit status: 0 when no domain fails, 1 when any does, 2 for usage or input errors, 3 when this machine could not check properly, 4 when the alert was not delivered (man aasa-audit, EXIT STATUS).",
        version: AASAAuditVersion.tool.versionLine,
        subcommands: [
            AuditCommand.self, CheckCommand.self, LintCommand.self, MatchCommand.self, DiffCommand.self,
            HistoryCommand.self, ExplainCommand.self, AckCommand.self, ServeCommand.self, MCPCommand.self,
            SchemaCommand.self,
        ]
    )
}

/// Ends a command with `status` (nothing to do for success).
func endCommand(with status: ExitStatus) throws {
    if status != .success { throw ExitCode(status.code) }
}

/// A value as the pretty JSON the commands' `--json` print, with a final newline.
func prettyJSON(_ value: some Encodable) throws -> String {
    String(decoding: try JSONReport.makeEncoder(pretty: true).encode(value), as: UTF8.self) + "\n"
}

extension AASAAuditCommand {
    /// For a first argument that is no command but close to one (`chek`, `lnit`): that command.
    static func suggestion(for argument: String) -> String? {
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !argument.hasPrefix("-"), !names.contains(argument), argument.count <= 12 else { return nil }
        return names.map { ($0, editDistance(argument.lowercased(), $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance, for a handful of short words.
    static func editDistance(_ first: String, _ second: String) -> Int {
        let a = Array(first)
        let b = Array(second)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
