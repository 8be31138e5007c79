import AASAModel
import AASAReport
import Foundation

/// The output folder of one audit run: created and locked (one audit at a time), a new run
/// folder made in it, the previous complete run read from `latest.json` (in a thread of its own); at the end the run's
/// reports published as `latest.*` and old run folders pruned.
final class RunWorkspace {
    let output: URL
    let runDirectory: URL
    /// What `latest.json` said before this run, read alongside the audit.
    let previousRun: PreviousRunReader
    private let lock: OutputLock

    /// - Parameter resuming: take the newest run folder (an interrupted run) instead of making
    ///   one.
    init(output: URL, startedAt: Date, resuming: Bool = false) throws(AuditRunError) {
        try RunDirectory.prepare(output)
        let latest: FileHandle?
        do throws(OutputFileError) {
            try OutputFolderFiles.checkKeptFiles(in: output)
            latest = try OutputFolderFiles.openForReading(output.appendingPathComponent(Self.latestJSON))
        } catch {
            throw .outputFolder(error.message)
        }
        lock = try OutputLock(directory: output)
        // The newest run folder, when its run was interrupted (its journal is still there).
        let interrupted = RunDirectory.newest(in: output).flatMap { folder in
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(RunJournal.fileName).path)
                ? folder : nil
        }
        let newest = RunDirectory.newest(in: output)
        if resuming, let interrupted {
            runDirectory = interrupted
            resumes = true
            runBefore = interrupted
        } else {
            runBefore = newest
            runDirectory = try RunDirectory.create(in: output, startedAt: startedAt)
            resumes = false
            if resuming {
                note =
                    "Nothing to resume (the newest run in \(output.path) finished, or there is none): this is a new run."
            } else if let interrupted {
                note =
                    "The run in \(interrupted.path) was interrupted and stays incomplete; `aasa-audit audit \(OptionName.resume)` finishes the newest such run. This is a new run."
            }
        }
        self.output = output
        previousRun = PreviousRunReader(latest)
    }

    /// Whether this run finishes an interrupted one (`--resume` found its journal).
    let resumes: Bool
    /// The run folder whose crash, if it ended by one, this run answers for (`CrashCarry`): the
    /// one it resumes, else the newest before it.
    let runBefore: URL?
    /// What the run's summary says of `--resume` and of an interrupted run left behind.
    private(set) var note: String?

    static let latestJSON = OutputFolderLayout.latestJSON
    static let latestHTML = OutputFolderLayout.latestHTML

    /// Makes the run's reports the folder's `latest.*` (atomically, each), then keeps only the
    /// newest `keep` run folders.
    /// - Parameter latest: false for a run whose verdicts cannot be trusted: `latest.*` stay.
    func publish(json: URL, html: URL, keep: Int?, latest: Bool = true) throws {
        if latest {
            try AtomicFileWriter.replace(output.appendingPathComponent(Self.latestJSON), withCopyOf: json)
            try AtomicFileWriter.replace(output.appendingPathComponent(Self.latestHTML), withCopyOf: html)
        }
        RunPruning.pruneAbandoned(output, keeping: runDirectory)
        if let keep { RunPruning.prune(output, keep: keep) }
    }

    /// Releases the output folder's lock.
    func close() {
        withExtendedLifetime(lock) {}
    }
}
