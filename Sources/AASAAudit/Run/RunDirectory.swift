import AASAModel
import Foundation

/// The folder of one run: `<out>/<UTC start time>/`, e.g. `reports/2026-11-22T031500Z/`.
enum RunDirectory {
    /// An empty file in every run folder aasa-audit makes.
    static let marker = OutputFolderLayout.runMarker

    /// Creates the output folder if needed and checks that it can be written.
    static func prepare(_ output: URL) throws(AuditRunError) {
        do {
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        } catch {
            throw AuditRunError.outputFolder(
                "cannot create the output directory \(output.path): \(error.localizedDescription)")
        }
        guard access(output.path, W_OK) == 0 else {
            throw AuditRunError.outputFolder("the output directory \(output.path) is not writable")
        }
    }

    /// The newest run folder this tool made in `output`, if any.
    static func newest(in output: URL) -> URL? {
        RunFolders.names(in: output).last.map { output.appendingPathComponent($0) }
    }

    static func create(in output: URL, startedAt: Date) throws(AuditRunError) -> URL {
        let base = RunFolderName(startedAt: startedAt)
        for attempt in 1...100 {
            let candidate = output.appendingPathComponent(
                RunFolderName(startedAt: startedAt, attempt: attempt).description)
            if mkdir(candidate.path, 0o755) == 0 {
                // The mark that this tool made the folder: only such folders are pruned.
                let mark = open(
                    candidate.appendingPathComponent(marker).path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    0o644)
                if mark >= 0 { close(mark) }
                return candidate
            }
            guard errno == EEXIST else {
                throw AuditRunError.outputFolder(
                    "cannot create the run folder \(candidate.path): \(String(cString: strerror(errno)))")
            }
        }
        throw AuditRunError.outputFolder("cannot create a run folder for \(base) in \(output.path)")
    }
}
