import Foundation

/// `--keep N`: removes the oldest run folders beyond the newest N.
enum RunPruning {
    static func prune(_ output: URL, keep: Int) {
        for name in RunFolders.names(in: output).dropLast(max(keep, 1)) {
            try? FileManager.default.removeItem(at: output.appendingPathComponent(name))
        }
    }
}
