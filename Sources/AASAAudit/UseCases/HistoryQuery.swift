import AASAModel
import AASAReport
import Foundation

/// `history [DOMAIN]`: what the kept runs of an output folder say, read from `history.json`
/// (or from the run folders' reports when it is missing or damaged; nothing is written).
public enum HistoryQuery {
    /// The history of `output`; an error when it holds no complete run.
    public static func load(output: String) throws(InputError) -> RunHistory {
        try read(output: output).history
    }

    static func folder(_ output: String) throws(InputError) -> URL {
        let folder = URL(fileURLWithPath: output)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InputError("\(output) is not a folder: give the --out of your audits (default: reports).")
        }
        return folder
    }

    static func read(output: String) throws(InputError) -> (history: RunHistory, rewritten: Bool) {
        let folder = try folder(output)
        let loaded = RunHistoryStore(output: folder).load()
        guard !loaded.history.runs.isEmpty else {
            throw InputError("\(output) holds no complete run yet: run `aasa-audit audit --out \(output)` first.")
        }
        return loaded
    }

    /// The fleet's record; with `writingIndex`, `history.json` (when it had to be rebuilt) and
    /// `index.html` are written anew first.
    public static func fleet(output: String, writingIndex: Bool = false) throws(InputError) -> FleetHistoryRecord {
        // Written under the audits' lock: not while a run appends to the same history.
        var lock: OutputLock?
        if writingIndex {
            let directory = try folder(output)
            do throws(AuditRunError) {
                lock = try OutputLock(directory: directory)
            } catch {
                throw InputError(error.message)
            }
        }
        defer { withExtendedLifetime(lock) {} }
        let loaded = try read(output: output)
        if writingIndex {
            do {
                try RunHistoryIndex.rewrite(loaded, output: URL(fileURLWithPath: output))
            } catch {
                throw InputError("cannot write the history in \(output): \(error.localizedDescription)")
            }
        }
        return FleetHistoryRecord(loaded.history)
    }

    /// One domain's timeline; an error naming close names when no kept run audited it.
    public static func timeline(of text: String, output: String) throws(InputError) -> DomainTimelineRecord {
        let history = try load(output: output)
        let domain = (try? AuditInput.host(text)) ?? text.lowercased()
        guard history.knows(domain) else {
            let known = Set(history.runs.flatMap { $0.domains.map(\.domain) })
            let close = known.filter { $0.contains(domain) || domain.contains($0) }.sorted().prefix(5)
            let hint = close.isEmpty ? "" : " Did you mean \(close.joined(separator: ", "))?"
            throw InputError("No kept run in \(output) audited \(domain).\(hint)")
        }
        return DomainTimelineRecord(domain: domain, history: history)
    }
}
