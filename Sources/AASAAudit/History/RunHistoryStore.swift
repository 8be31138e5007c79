import AASAModel
import AASAReport
import Foundation

/// `<out>/history.json`: one line per complete run kept under `--out` (`HistoryRun`), oldest
/// first, so that `index.html`, `history` and alerts read a run's verdicts and codes without
/// opening its report. Appended after each complete run; rebuilt from the run folders'
/// `report.json` when missing or damaged; lines of run folders that `--keep` removed are
/// dropped. Interrupted runs are not history.
struct RunHistoryStore {
    static let fileName = OutputFolderLayout.history
    static let indexName = OutputFolderLayout.index

    let output: URL

    var file: URL { output.appendingPathComponent(Self.fileName) }

    /// A line is a run of at most this many bytes (a run of 1,000,000 domains is about 33 MB);
    /// a longer one is damage, rebuilt from the run folders.
    var maximumLineBytes = 256 << 20

    /// A report's line is one domain's record (or the head or tail): a line longer than this
    /// is damage, and the report is not read further.
    static let maximumReportLineBytes = 64 << 20

    /// What a visit found of the file against the run folders.
    struct Visit {
        /// The file named exactly the kept complete runs, in order, and every line read.
        var matched: Bool
        /// When asked to and it did not match: the file written anew so far, to be committed.
        var rewritten: AtomicFileWriter?
    }

    /// Hands every kept complete run to `body`, oldest first, one at a time: the file's lines
    /// whose folders still exist, and the complete runs of folders the file lacks (read from
    /// their `report.json`; every one when the file is missing, and from a damaged line on).
    /// With `rewrite`, once the file is found not to match, it is written anew as the visit goes
    /// (the lines before, copied as they are; then every run handed on).
    /// - Parameter current: a run folder to leave out (the run being recorded).
    func visit(except current: String? = nil, rewrite: Bool = false, _ body: (HistoryRun) -> Void) throws -> Visit {
        try visit(except: current, rewrite: rewrite, lean: false) { run, _ in body(run) }
    }

    /// As `visit`, but the file's lines are handed over without their domains
    /// (`HistoryLineFile.Line.header`), with the line to go through them from, one at a time
    /// (`RunHistory.add(_:forEach:)`): a run of a million domains is never a list in memory.
    /// Runs read from a folder's report come whole, with no line.
    func visitLean(except current: String? = nil, rewrite: Bool = false, _ body: Visitor.Body) throws -> Visit {
        try visit(except: current, rewrite: rewrite, lean: true, body)
    }

    private func visit(except current: String?, rewrite: Bool, lean: Bool, _ body: Visitor.Body) throws -> Visit {
        var visitor = Visitor(
            store: self, folders: RunFolders.names(in: output).filter { $0 != current }, rewrite: rewrite, lean: lean)
        do {
            if let handle = try OutputFolderFiles.openForReading(file) {
                defer { try? handle.close() }
                try visitor.readLines(handle, body)
            } else {
                try visitor.diverge()
            }
            try visitor.readFolders(upTo: visitor.folders.count, body)
        } catch {
            visitor.visit.rewritten?.abandon()
            throw error
        }
        return visitor.visit
    }

    /// A visit's state: the run folders, how far the file's lines and the folders were read,
    /// and what was found.
    struct Visitor {
        /// Gets each kept run; a file's line comes as its header and the line to go through
        /// its domains from (`visitLean`), or whole with no line.
        typealias Body = (HistoryRun, HistoryLineFile.Line?) throws -> Void

        let store: RunHistoryStore
        let folders: [String]
        let positions: [String: Int]
        let rewrite: Bool
        let lean: Bool
        /// The next folder not yet handed on, and the file's bytes read so far.
        var next = 0
        var consumed = 0
        var visit = Visit(matched: true, rewritten: nil)

        init(store: RunHistoryStore, folders: [String], rewrite: Bool, lean: Bool) {
            self.store = store
            self.folders = folders
            positions = Dictionary(folders.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            (self.rewrite, self.lean) = (rewrite, lean)
        }

        /// The file does not match: from here on, with `rewrite`, it is written anew.
        mutating func diverge() throws {
            guard visit.matched else { return }
            visit.matched = false
            guard rewrite else { return }
            let writer = try AtomicFileWriter(destination: store.file)
            try store.copyPrefix(of: consumed, to: writer)
            visit.rewritten = writer
        }

        /// - Parameter line: the file's line, when `run` is its header only.
        func emit(_ run: HistoryRun, line: HistoryLineFile.Line?, _ body: Body) throws {
            try body(run, line)
            guard let rewritten = visit.rewritten else { return }
            if let line {
                try line.file.copy(line.span, to: rewritten.write)
            } else {
                try RunHistoryStore.writeLine(run, to: rewritten.write)
            }
        }

        /// Folders the file lacks, up to `end`: a change for each that holds a complete run.
        mutating func readFolders(upTo end: Int, _ body: Body) throws {
            while next < end {
                try Task.checkCancellation()
                let name = folders[next]
                if let run = RunHistoryStore.readRun(store.output.appendingPathComponent(name), name: name) {
                    try diverge()
                    try emit(run, line: nil, body)
                }
                next += 1
            }
        }

        /// The file's lines in order, with the folders they skip over.
        mutating func readLines(_ handle: FileHandle, _ body: Body) throws {
            if lean { return try readSpans(handle, body) }
            var reader = LineReader(handle: handle, maximumLineBytes: store.maximumLineBytes)
            while let line = reader.next() {
                // A history of many runs takes a while to read: a signal stops it.
                try Task.checkCancellation()
                guard !line.isEmpty else {
                    consumed += 1
                    continue
                }
                guard try place(try? HistoryRun(line: line), length: line.count + 1, line: nil, body) else { return }
            }
            if reader.overlong { try diverge() }
        }

        /// `readLines` without holding a line: each is read for its header, then handed on to
        /// be gone through from the file.
        mutating func readSpans(_ handle: FileHandle, _ body: Body) throws {
            let file = HistoryLineFile(handle: handle)
            let whole = try file.forEachSpan(maximumLineBytes: store.maximumLineBytes) { span in
                try Task.checkCancellation()
                guard span.length > 0 else {
                    consumed += 1
                    return true
                }
                let line = HistoryLineFile.Line(file: file, span: span)
                return try place(try? line.header(), length: span.length + 1, line: line, body)
            }
            if !whole { try diverge() }
        }

        /// A line read as `run` (nil when damaged: it and the rest are rebuilt from the
        /// folders), placed among the folders and handed on. False when the reading stops.
        mutating func place(_ run: HistoryRun?, length: Int, line: HistoryLineFile.Line?, _ body: Body) throws -> Bool {
            guard let run else {
                try diverge()
                return false
            }
            guard let position = positions[run.run], position >= next else {
                // Its folder is gone (--keep), or it repeats an earlier line.
                try diverge()
                consumed += length
                return true
            }
            try readFolders(upTo: position, body)
            try emit(run, line: line, body)
            next = position + 1
            consumed += length
            return true
        }
    }

    /// The history as the folder stands (nothing is written).
    func load() throws -> RunHistory {
        var history = RunHistory()
        _ = try visit { history.add($0) }
        return history
    }

    /// Adds a complete run: appended to the file when the file matched the folders, else the
    /// file is written anew. Returns the history with the run.
    /// - Parameter states: where to keep the domains' states (in memory when nil, or when the
    ///   store fails before the line is written).
    /// - Parameter domains: the run's domains when kept elsewhere (`run` then has none).
    @discardableResult
    func record(_ run: HistoryRun, domains: HistoryDomainList? = nil, states: HistoryStateStore? = nil) throws
        -> RunHistory
    {
        var history = RunHistory(store: states)
        // Runs written before each kept its --alert-after are taken to have alerted as this one.
        history.unrecordedAlertAfter = run.alertAfter ?? 1
        let visit: Visit
        if run.auditorProblems == nil {
            // This run is the history's latest: the kept runs' domains are gone through one at
            // a time and let go.
            visit = try visitLean(except: run.run, rewrite: true) { kept, line in
                if let line {
                    try history.add(kept) { each in try line.forEachDomain(each) }
                } else {
                    history.add(kept, keepingDomains: false)
                }
            }
        } else {
            // This run is not sound: the newest sound one's domains are the history's latest.
            visit = try self.visit(except: run.run, rewrite: true) { history.add($0) }
        }
        if let domains { history.add(run, domains: domains) } else { history.add(run) }
        if states?.failure != nil {
            visit.rewritten?.abandon()
            return try record(run, domains: domains)
        }
        if let writer = visit.rewritten {
            try writer.complete { writer in try Self.writeLine(run, domains: domains, to: writer.write) }
        } else {
            let handle = try OutputFolderFiles.openForAppending(file)
            defer { try? handle.close() }
            try Self.writeLine(run, domains: domains) { try handle.write(contentsOf: $0) }
        }
        return history
    }

    /// `history --write-index`: the file written anew when it did not match the folders.
    func repair() throws -> RunHistory {
        var history = RunHistory()
        let visit = try visit(rewrite: true) { history.add($0) }
        try visit.rewritten?.complete { _ in }
        return history
    }

    /// Copies the file's first `count` bytes (whole lines) to `writer`, ending in a newline.
    fileprivate func copyPrefix(of count: Int, to writer: AtomicFileWriter) throws {
        guard count > 0, let handle = try OutputFolderFiles.openForReading(file) else { return }
        defer { try? handle.close() }
        var left = count
        var last: UInt8?
        while left > 0, let piece = try handle.read(upToCount: min(left, 1 << 20)), !piece.isEmpty {
            try writer.write(piece)
            last = piece.last
            left -= piece.count
        }
        if let last, last != UInt8(ascii: "\n") { try writer.write(Data("\n".utf8)) }
    }

    static func line(_ run: HistoryRun) -> Data {
        var line = Data()
        writeLine(run) { line.append($0) }
        return line
    }

    /// The run's line, ending in a newline, handed to `write` in pieces of about 64 KB: the
    /// bytes JSONEncoder gives for the whole run, without its tree of a million domains. The
    /// run without domains is encoded once and cut where its empty list is.
    /// - Parameter domains: the run's domains when kept elsewhere (`run` then has none).
    static func writeLine(_ run: HistoryRun, domains: HistoryDomainList? = nil, to write: (Data) throws -> Void)
        rethrows
    {
        let domains = domains ?? HistoryDomainList(run.domains)
        let encoder = JSONReport.makeEncoder()
        var empty = run
        empty.domains = []
        // Codable model values always encode, and the empty list is always there.
        let frame = try! encoder.encode(empty)
        let list = frame.firstRange(of: Data(#""domains":[]"#.utf8))!
        var piece = Data(frame[..<(list.upperBound - 1)])
        for number in 0..<domains.count {
            if number > 0 { piece.append(UInt8(ascii: ",")) }
            piece.append(try! encoder.encode(domains[number]))
            if piece.count >= 64 << 10 {
                try write(piece)
                piece.removeAll(keepingCapacity: true)
            }
        }
        piece.append(frame[(list.upperBound - 1)...])
        piece.append(UInt8(ascii: "\n"))
        try write(piece)
    }

    /// A run folder's report as a history line, when the report is a complete run's. Its last
    /// line is read first (from the end of the file), so that an interrupted run's report is not
    /// read whole.
    static func readRun(_ folder: URL, name: String) -> HistoryRun? {
        let report = folder.appendingPathComponent(OutputFolderLayout.runJSON)
        guard let tail = lastLine(of: report), let info = JSONReport.runInfo(tailLine: tail), info.complete,
            let handle = OutputFolderFiles.openRegularIfAny(report)
        else { return nil }
        defer { try? handle.close() }
        let lines = LineReader(handle: handle, maximumLineBytes: maximumReportLineBytes)
        guard let snapshot = JSONReport.snapshot(lines: lines), snapshot.complete else { return nil }
        return HistoryRun(
            run: name, startedAt: snapshot.startedAt, finishedAt: snapshot.finishedAt,
            domains: snapshot.domains.map(HistoryDomain.init), auditorProblems: snapshot.auditorProblems)
    }

    /// The file's last line, read from the end (at most `limit` bytes).
    static func lastLine(of file: URL, limit: Int = 4 << 20) -> Data? {
        guard let handle = OutputFolderFiles.openRegularIfAny(file) else { return nil }
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
///
/// Only folders this tool made count (and only they are ever pruned): a real directory (not a
/// link), named in ASCII digits, holding the run marker (or, made before the marker existed,
/// a regular `report.json`).
enum RunFolders {
    static func names(in output: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        return names.compactMap { name in RunFolderName(name).map { ($0, name) } }
            .filter { isRunFolder(output.appendingPathComponent($0.1)) }
            .sorted { $0.0 < $1.0 }.map(\.1)
    }

    static func isRunFolder(_ folder: URL) -> Bool {
        guard OutputFolderFiles.isDirectory(folder) else { return false }
        return [RunDirectory.marker, OutputFolderLayout.runJSON].contains { name in
            var status = stat()
            return lstat(folder.appendingPathComponent(name).path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        }
    }
}

/// After a complete run: its line in `history.json`, then `index.html` written anew from the
/// whole history.
enum RunHistoryIndex {
    /// Returns the standings of the `wanted` domains of the newest run (since when their verdict
    /// holds, for the closing summary and the alert), and of every domain whose verdict changed
    /// in it (across a run that did not check it too: the alert hears those).
    /// - Parameter domains: the run's domains when kept elsewhere (`run` then has none).
    static func update(
        output: URL, with run: HistoryRun, domains: HistoryDomainList? = nil, standingsOf wanted: Set<String>
    ) throws -> [String: RunHistory.Standing] {
        let store = RunHistoryStore(output: output)
        // A fleet's states on disk; in memory where SQLite cannot make its scratch file.
        let states = try? HistoryStateStore()
        let standings = try indexAndStandings(
            try store.record(run, domains: domains, states: states), output: output, wanted: wanted)
        guard states?.failure != nil else { return standings }
        // The store failed after the line was written: the history read again, in memory.
        return try indexAndStandings(try store.load(), output: output, wanted: wanted)
    }

    private static func indexAndStandings(_ history: RunHistory, output: URL, wanted: Set<String>) throws -> [String:
        RunHistory.Standing]
    {
        try writeIndex(history, output: output)
        var standings: [String: RunHistory.Standing] = [:]
        history.forEachStanding { standing in
            if wanted.contains(standing.domain) || (standing.verdictRuns == 1 && standing.previousVerdict != nil) {
                standings[standing.domain] = standing
            }
        }
        return standings
    }

    /// The page of `output`'s history, its acknowledged domains marked as the team's
    /// acknowledgements stand at `now` (a file that cannot be read marks none: the page is
    /// not the place to refuse it; `ack` and `audit` say why).
    static func writeIndex(_ history: RunHistory, output: URL, now: Date = .now) throws {
        let page = HistoryIndexPage()
        let acknowledged = (try? AcknowledgementStore.read(output: output.path, now: now)) ?? Acknowledgements()
        try AtomicFileWriter(destination: output.appendingPathComponent(RunHistoryStore.indexName)).complete { writer in
            try page.render(history, tool: AASAAuditVersion.tool, acknowledged: acknowledged, now: now) {
                try writer.write($0)
            }
        }
    }
}
