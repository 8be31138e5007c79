import AASAAudit
import AASAReport
import ArgumentParser
import Foundation

// Every error ends here, mapped once: a UserFacingError says its message and exit status;
// ArgumentParser's usage errors (its 64) become 2, as every usage error is. A standard output
// or error that could not be written turns 0 (and 4) into 5, once the command's work is done.
StandardConsole.prepare()
do {
    if let unknown = CommandLine.arguments.dropFirst().first, let suggestion = AASAAuditCommand.suggestion(for: unknown)
    {
        StandardConsole().printError("aasa-audit: unknown command '\(unknown)'; did you mean '\(suggestion)'?\n")
        exit(ExitStatus.usage.code)
    }
    var command = try AASAAuditCommand.parseAsRoot()
    if var asyncCommand = command as? AsyncParsableCommand {
        try await runAsync(&asyncCommand)
    } else {
        try command.run()
    }
    finish(.success)
} catch let error as any UserFacingError {
    let console = StandardConsole()
    // Messages can quote what a file or a server said: controls are made visible.
    error.context.forEach { console.printError(TerminalReport.cleanLines($0) + "\n") }
    console.printError("aasa-audit: \(TerminalReport.cleanLines(error.message))\n")
    exit(error.exitStatus.code)
} catch let exitCode as ExitCode {
    finish(ExitStatus(exitCode.rawValue))
} catch {
    if AASAAuditCommand.exitCode(for: error) == .success {
        AASAAuditCommand.exit(withError: error)
    }
    StandardConsole().printError(
        "aasa-audit: \(AASAAuditCommand.message(for: error))\nSee 'aasa-audit help' for usage.\n")
    exit(ExitStatus.usage.code)
}

/// Calls the async `run()`: from top-level code the existential call would pick the
/// synchronous requirement, which only prints help.
func runAsync(_ command: inout any AsyncParsableCommand) async throws {
    try await command.run()
}

/// Exits with `status`, or `ExitStatus.outputFailed` when what the command printed was lost.
func finish(_ status: ExitStatus) -> Never {
    if let failed = StandardConsole.failedStream {
        StandardConsole().printError("aasa-audit: cannot write \(failed)\n")
    }
    exit(status.afterOutput(failed: StandardConsole.failedStream != nil).code)
}
