import AASAAudit
import ArgumentParser

struct AASAAuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa-audit",
        abstract: "Audits the apple-app-site-association files that iOS universal links depend on.",
        discussion: "Exit status: 0 when no domain fails, 1 when any does, 2 for usage or input errors.",
        version: AASAAuditVersion.current,
        subcommands: [AuditCommand.self, CheckCommand.self, LintCommand.self, MatchCommand.self, DiffCommand.self, ExplainCommand.self]
    )
}

/// The process's exit codes.
enum ExitStatus {
    static let success = ExitCode(0)
    static let failed = ExitCode(1)
    static let usage = ExitCode(2)
}
