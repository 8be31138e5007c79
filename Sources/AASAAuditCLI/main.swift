import ArgumentParser
import Foundation

// Exit codes: 0 nothing fails, 1 a domain fails (or input lines were not audited), 2 usage or
// input errors. ArgumentParser's own usage errors (64) are mapped to 2.
do {
    var command = try AASAAuditCommand.parseAsRoot()
    if var asyncCommand = command as? AsyncParsableCommand {
        try await runAsync(&asyncCommand)
    } else {
        try command.run()
    }
} catch let exit as ExitCode {
    Foundation.exit(exit.rawValue)
} catch {
    if AASAAuditCommand.exitCode(for: error) == .success {
        AASAAuditCommand.exit(withError: error)
    }
    let message = AASAAuditCommand.message(for: error)
    FileHandle.standardError.write(Data("aasa-audit: \(message)\nSee 'aasa-audit help' for usage.\n".utf8))
    Foundation.exit(ExitStatus.usage.rawValue)
}

/// Calls the async `run()`: from top-level code the existential call would pick the
/// synchronous requirement, which only prints help.
func runAsync(_ command: inout any AsyncParsableCommand) async throws {
    try await command.run()
}
