import AASAModel
import Foundation

/// `--keep N`: removes the oldest run folders beyond the newest N.
enum RunPruning {
    /// After a complete run: the folders of runs that were interrupted (a crash, a signal) and
    /// can no longer be resumed (`--resume` takes the newest run) go, with their partial reports;
    /// a crashed night's folder would otherwise stay, tens of MB, whatever `--keep` says. What
    /// their crash left to later runs was read first (`CrashCarry`).
    static func pruneAbandoned(_ output: URL, keeping current: URL) {
        for name in RunFolders.names(in: output) where name != current.lastPathComponent {
            let folder = output.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(OutputFolderLayout.journal).path)
            else { continue }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    static func prune(_ output: URL, keep: Int) {
        for name in RunFolders.names(in: output).dropLast(max(keep, 1)) {
            try? FileManager.default.removeItem(at: output.appendingPathComponent(name))
        }
    }
}
