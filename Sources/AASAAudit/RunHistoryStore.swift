import AASAModel
import AASAReport
import Foundation

/// `<out>/history.json`: one line per complete run kept under `--out` (`HistoryRun`), oldest
/// first, so that `index.html`, `history` and alerts read a run's verdicts and codes without
/// opening its report. Appended after each complete run; rebuilt from the run folders'
/// `report.json` when missing or damaged; lines of run folders that `--keep` removed are
/// dropped. Interrupted runs are not history.
struct RunHistoryStore {
    static let fileName = "history.json"
    static let indexName = "index.html"

    let output: URL

    var file: URL { output.appendingPathComponent(Self.fileName) }

    /// What the file holds, oldest first; nil when it is missing or any line is damaged.
    func read() -> [HistoryRun]? {
        guard let handle = FileHandle(forReadingAtPath: file.path) else { return nil }
        defer { try? handle.close() }
        var runs: [HistoryRun] = []
        for line in LineReader(handle: handle) where !line.isEmpty {
            guard var run = try? HistoryRun(line: line) else { return nil }
            if let previous = runs.last { run.shareStrings(with: previous) }
            runs.append(run)
        }
        return runs
    }

    /// The history as the folder stands: the file's runs whose folders still exist, plus
    /// complete runs found in folders the file does not name (every one, when the file is
    /// missing or damaged), oldest first.
    /// - Parameter current: a run folder not to read (the run being recorded, whose line the
    ///   caller has).
    func load(except current: String? = nil) -> (history: RunHistory, rewritten: Bool) {
        let recorded = read()
        let folders = RunFolders.names(in: output).filter { $0 != current }
        var byName = Dictionary((recorded ?? []).map { ($0.run, $0) }, uniquingKeysWith: { _, last in last })
        var runs: [HistoryRun] = []
        var changed = recorded == nil
        for folder in folders {
            if let run = byName.removeValue(forKey: folder) {
                runs.append(run)
            } else if var run = Self.readRun(output.appendingPathComponent(folder), name: folder) {
                if let previous = runs.last { run.shareStrings(with: previous) }
                runs.append(run)
                changed = true
            }
        }
        // Runs whose folders are gone (pruned by --keep, or removed by hand).
        if !byName.isEmpty { changed = true }
        return (RunHistory(runs: runs), changed)
    }

    /// Writes the whole file from `history`.
    func write(_ history: RunHistory) throws {
        try AtomicFileWriter(destination: file).complete { writer in
            for entry in history.runs { try writer.write(Self.line(entry)) }
        }
    }

    /// Adds a complete run: appended to the file when the file was intact and matched the
    /// folders, else the whole file is written anew. Returns the history with the run.
    @discardableResult
    func record(_ run: HistoryRun) throws -> RunHistory {
        var (history, rewrite) = load(except: run.run)
        if history.runs.contains(where: { $0.run == run.run }) {
            history.runs.removeAll { $0.run == run.run }
            rewrite = true
        }
        var entry = run
        if let previous = history.runs.last { entry.shareStrings(with: previous) }
        history.runs.append(entry)
        if rewrite {
            try write(history)
        } else {
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Self.line(run))
        }
        return history
    }

    static func line(_ run: HistoryRun) -> Data {
        // Codable model values always encode.
        (try! JSONReport.makeEncoder().encode(run)) + Data("\n".utf8)
    }

    /// A run folder's report as a history line, when the report is a complete run's. Its last
    /// line is read first (from the end of the file), so that an interrupted run's report is not
    /// read whole.
    static func readRun(_ folder: URL, name: String) -> HistoryRun? {
        let report = folder.appendingPathComponent("report.json")
        guard let tail = lastLine(of: report), let info = JSONReport.runInfo(tailLine: tail), info.complete,
              let handle = FileHandle(forReadingAtPath: report.path)
        else { return nil }
        defer { try? handle.close() }
        guard let snapshot = JSONReport.snapshot(lines: LineReader(handle: handle)), snapshot.complete else { return nil }
        return HistoryRun(run: name, startedAt: snapshot.startedAt, finishedAt: snapshot.finishedAt, domains: snapshot.domains.map(HistoryDomain.init))
    }

    /// The file's last line, read from the end (at most `limit` bytes).
    static func lastLine(of file: URL, limit: Int = 4 << 20) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: file.path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0 else { return nil }
        var chunk = 64 << 10
        while true {
            let start = size > UInt64(chunk) ? size - UInt64(chunk) : 0
            guard (try? handle.seek(toOffset: start)) != nil, var data = try? handle.readToEnd() else { return nil }
            if data.last == UInt8(ascii: "\n") { data.removeLast() }
            if let newline = data.lastIndex(of: UInt8(ascii: "\n")) { return data[(newline + 1)...] }
            if start == 0 { return data }
            guard chunk < limit else { return nil }
            chunk *= 4
        }
    }
}

/// The run folders of an output folder (`2026-11-22T031500Z`, `…Z-2`), in the order they were made.
enum RunFolders {
    static func names(in output: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        return names.filter(isRunFolder).sorted { RunDirectory.precedes($0, $1) }
    }

    static func isRunFolder(_ name: String) -> Bool {
        name.wholeMatch(of: /\d{4}-\d\d-\d\dT\d{6}Z(-\d+)?/) != nil
    }
}

/// After a complete run: its line in `history.json`, then `index.html` written anew from the
/// whole history.
enum RunHistoryIndex {
    static func update(output: URL, with run: HistoryRun) throws {
        let history = try RunHistoryStore(output: output).record(run)
        try writeIndex(history, output: output)
    }

    /// `history --write-index`: both files written anew from what the folder holds; nil when
    /// it holds no complete run.
    static func rewrite(_ loaded: (history: RunHistory, rewritten: Bool), output: URL) throws {
        if loaded.rewritten { try RunHistoryStore(output: output).write(loaded.history) }
        try writeIndex(loaded.history, output: output)
    }

    static func writeIndex(_ history: RunHistory, output: URL) throws {
        let page = HistoryIndexPage()
        try AtomicFileWriter(destination: output.appendingPathComponent(RunHistoryStore.indexName)).complete { writer in
            try page.render(history, tool: AASAAuditVersion.tool) { try writer.write($0) }
        }
    }
}
