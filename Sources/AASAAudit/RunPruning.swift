import Foundation

/// `--keep N`: removes the oldest run folders beyond the newest N.
enum RunPruning {
    static func prune(_ output: URL, keep: Int) {
        let fileManager = FileManager.default
        let names = (try? fileManager.contentsOfDirectory(atPath: output.path)) ?? []
        let runs = names.filter { $0.wholeMatch(of: /\d{4}-\d\d-\d\dT\d{6}Z(-\d+)?/) != nil }.sorted { RunDirectory.precedes($0, $1) }
        for name in runs.dropLast(max(keep, 1)) {
            try? fileManager.removeItem(at: output.appendingPathComponent(name))
        }
    }
}
