import AASAAudit
import AASAReport
import ArgumentParser
import Foundation

struct AASAAuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa-audit",
        abstract: "Audits the apple-app-site-association files that iOS universal links depend on.",
        discussion: "Exit status: 0 when no domain fails, 1 when any does, 2 for usage or input errors.",
        version: AASAAuditVersion.current,
        subcommands: [AuditCommand.self, CheckCommand.self, LintCommand.self, MatchCommand.self, DiffCommand.self, ExplainCommand.self]
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
