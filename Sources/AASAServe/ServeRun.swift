import AASAAudit
import AASAModel
import Foundation
import Synchronization

/// `serve` from start to stop: the server on its address, the access log on standard output,
/// and SIGTERM (or SIGINT) draining: no new connection, running checks finish (up to
/// `drainSeconds`), then the process ends.
public enum ServeRun {
    public static func run(_ settings: ServeSettings, console: any Console) async throws {
        let app = try ServeApp(settings: settings)
        defer { app.shutdown() }
        CrashNotes.install(header: "aasa-audit serve: crashed while answering:\n")
        let lines = Mutex(())
        let server = HTTPServer(app: app, settings: settings) { line in
            lines.withLock { _ in console.print(line + "\n") }
        }
        let interruption = Interruption(
            console: console,
            message:
                "stopping: running checks may finish for \(Int(settings.drainSeconds)) s (again to quit at once)")
        interruption.calls {
            server.stop()
            // The drain's bound: then every connection closes, whatever it was doing.
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: settings.drainSeconds)
                server.closeAll()
            }
        }
        do {
            try await server.run { port in
                let host = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
                console.printError(
                    "aasa-audit: serving \(settings.output) at http://\(host):\(port)/ (checks: \(settings.maximumChecks) at once, \(Int(settings.checksPerMinute)) a minute per client)\n"
                )
            }
        } catch {
            throw ServeError(message: "cannot listen on \(settings.host):\(settings.port): \(error)")
        }
    }
}

/// `serve` could not start.
public struct ServeError: UserFacingError {
    public var message: String
    public var exitStatus: ExitStatus { .usage }
}

/// `--token-file`: one line, the token.
public enum ServeToken {
    public static let minimumTokenLength = 32

    public static func read(_ path: String) throws(ServeError) -> String {
        let token: String?
        do { token = try SecretFile.read(path, option: "\(OptionName.tokenFile)") } catch {
            throw ServeError(message: error.message)
        }
        // A token anyone could guess is no token: long, and not a word or a repeated character.
        guard let token, token.count >= minimumTokenLength, Set(token).count >= 10,
            !token.contains(where: \.isWhitespace)
        else {
            throw ServeError(
                message:
                    "\(OptionName.tokenFile) \(path) must hold one token of at least \(minimumTokenLength) characters, 10 of them different (e.g. `openssl rand -hex 32`)."
            )
        }
        return token
    }
}
