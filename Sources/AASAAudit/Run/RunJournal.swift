import AASAFetch
import AASAJSON
import AASAModel
import AASAReport
import Digest
import Foundation
import Synchronization

/// `RUN/journal.sqlite`: every domain the run finished, appended as it finishes and committed
/// in batches (SQLite's write-ahead log survives `kill -9`), so that `audit --resume` audits only
/// what was not finished. A domain is its JSON record (the line `domains.jsonl` holds) and, when
/// the HTML report shows them, the files it served. Removed once the run is complete, its
/// history line written and its alert sent.
///
/// Used from the run's collector and from its own timer, which commits what waits (a run whose
/// last domains are slow appends nothing for a while): the database and its counts are one value
/// behind a `Mutex`, so every database call is in a critical section.
final class RunJournal: Sendable {
    static let fileName = OutputFolderLayout.journal
    /// Committed every this many domains, and by a timer what waits longer than a second: a
    /// crash loses at most this many domains' work, or a second's.
    static let batchDomains = 256
    static let batchSeconds = 1.0
    /// Bumped when the tables change: a journal of another format is not resumed.
    static let format = "1"

    let url: URL
    private let state: Mutex<State>

    /// The database, its statement of appends, and what waits for a commit.
    private struct State {
        let database: SQLiteDatabase
        let insert: SQLiteDatabase.Statement
        var pending = 0
        var lastCommit = ContinuousClock.now
        var timer: DispatchSourceTimer?

        mutating func commit() throws(SQLiteError) {
            lastCommit = .now
            guard pending > 0 else { return }
            pending = 0
            try database.execute("COMMIT")
        }
    }

    /// What the journal says of the run it belongs to.
    struct Header: Equatable {
        /// The domain list's fingerprint (`fingerprint(of:)`): a resumed run audits the same list.
        var input: String
        var startedAt: Date
    }

    /// A new run's journal, or with `resuming` the interrupted run's (which must be of the same
    /// domain list); returns it and when the run started.
    static func open(for runDirectory: URL, domains: [String], startedAt: Date, resuming: Bool)
        throws(AuditRunError) -> (RunJournal, Date)
    {
        let input = fingerprint(of: domains)
        let name = runDirectory.lastPathComponent
        let opened: (RunJournal, Header)?
        do {
            opened =
                resuming
                ? try RunJournal.resuming(runDirectory)
                : (
                    try RunJournal(creatingIn: runDirectory, header: Header(input: input, startedAt: startedAt)),
                    Header(input: input, startedAt: startedAt)
                )
        } catch {
            throw .reports("cannot use the journal of \(runDirectory.path): \(error)")
        }
        guard let (journal, header) = opened else {
            throw .resume("nothing to resume: the newest run, \(name), has no journal (it finished)")
        }
        guard header.input == input else {
            throw .resume(
                "cannot resume \(name): its domain list was not this one (\(header.input.prefix { $0 != "-" }) domains then, \(domains.count) now, or other names); audit without \(OptionName.resume)"
            )
        }
        return (journal, header.startedAt)
    }

    /// Makes the journal of a new run.
    convenience init(creatingIn runDirectory: URL, header: Header) throws(SQLiteError) {
        try self.init(runDirectory.appendingPathComponent(Self.fileName), create: true)
        try state.withLock { (state) throws(SQLiteError) in
            let write = try state.database.prepare("INSERT OR REPLACE INTO meta VALUES (?, ?)")
            let values = [
                ("format", Self.format), ("input", header.input),
                ("startedAt", "\(header.startedAt.timeIntervalSince1970)"),
            ]
            for (key, value) in values {
                write.bind(key, at: 1)
                write.bind(value, at: 2)
                try write.run()
            }
        }
    }

    /// No journal's run started later than this (the year 2200), in seconds since 1970.
    static let latestStart = 7_258_118_400.0

    /// Opens the journal of an interrupted run; nil when the folder has none.
    static func resuming(_ runDirectory: URL) throws(SQLiteError) -> (RunJournal, Header)? {
        let url = runDirectory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let journal = try RunJournal(url, create: false)
        let meta = try journal.state.withLock { (state) throws(SQLiteError) -> [String: String] in
            let read = try state.database.prepare("SELECT key, value FROM meta")
            var meta: [String: String] = [:]
            while try read.step() { meta[read.text(0) ?? ""] = read.text(1) }
            return meta
        }
        guard meta["format"] == format, let input = meta["input"],
            let started = meta["startedAt"].flatMap(Double.init)
        else { throw SQLiteError(content: "it is not a journal of this version") }
        // A start that is no time (damaged, or edited): refused, never taken for a run's start.
        guard started.isFinite, (0...Self.latestStart).contains(started) else {
            throw SQLiteError(
                content: "it is damaged (its start time, \(started), is no time): audit without \(OptionName.resume)")
        }
        return (journal, Header(input: input, startedAt: Date(timeIntervalSince1970: started)))
    }

    private init(_ url: URL, create: Bool) throws(SQLiteError) {
        self.url = url
        let database = try SQLiteDatabase(path: url.path, create: create)
        // WAL: a commit is one append to the log, and a process killed at any point leaves the
        // last commit readable (it is in the system's cache). No fsync: the journal is worth a
        // night's fetches, not a disk flush per batch on the audit's path; a crash of the machine
        // itself may cost it (then the run is audited anew). A small page cache: rows are only
        // appended.
        try database.execute(
            """
            PRAGMA journal_mode=WAL;
            PRAGMA synchronous=OFF;
            PRAGMA cache_size=-256;
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS domains (position INTEGER PRIMARY KEY, record BLOB NOT NULL, served BLOB);
            """)
        let insert = try database.prepare("INSERT OR REPLACE INTO domains VALUES (?, ?, ?)")
        state = Mutex(State(database: database, insert: insert))
        let due: @Sendable () -> Void = { [weak self] in self?.commitIfDue() }
        state.withLock { state in
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "aasa-audit journal"))
            timer.schedule(deadline: .now() + Self.batchSeconds, repeating: Self.batchSeconds)
            timer.setEventHandler(handler: due)
            timer.resume()
            state.timer = timer
        }
    }

    deinit { state.withLock { $0.timer?.cancel() } }

    /// The timer's commit: what waits more than `batchSeconds`.
    private func commitIfDue() {
        state.withLock { state in
            guard state.pending > 0, (ContinuousClock.now - state.lastCommit).seconds >= Self.batchSeconds else {
                return
            }
            try? state.commit()
        }
    }

    /// Appends a finished domain: its JSON record and, when given, its files.
    func append(position: Int, record: Data, served: Data?) throws(SQLiteError) {
        try state.withLock { (state) throws(SQLiteError) in
            if state.pending == 0 { try state.database.execute("BEGIN") }
            state.insert.bind(position, at: 1)
            try state.insert.run(binding: [record, served], from: 2)
            state.pending += 1
            if state.pending >= Self.batchDomains { try state.commit() }
        }
    }

    /// Commits what was appended since the last commit.
    func commit() throws(SQLiteError) {
        try state.withLock { (state) throws(SQLiteError) in try state.commit() }
    }

    /// Every journaled domain, by its position in the input (one that does not read back is
    /// skipped: it is audited again), read `readBatch` rows at a time: `body` runs outside the
    /// lock, and the journal of a large run is never in memory whole.
    func forEach(_ body: (AuditedDomain) -> Void) throws(SQLiteError) {
        var after = -1
        while true {
            let (rows, last) = try state.withLock { (state) throws(SQLiteError) in
                try Self.rows(of: state.database, after: after)
            }
            for row in rows {
                guard let report = try? JSONReport.makeDecoder().decode(DomainReport.self, from: row.record) else {
                    continue
                }
                let files = row.served.flatMap { try? JSONDecoder().decode(JournaledFiles.self, from: $0) }
                body(AuditedDomain(index: row.position, report: report, served: files?.served ?? []))
            }
            guard let last else { return }
            after = last
        }
    }

    static let readBatch = 256

    /// The next rows after position `after`, and the last position read (nil at the end).
    private static func rows(of database: SQLiteDatabase, after: Int) throws(SQLiteError) -> (
        rows: [(position: Int, record: Data, served: Data?)], last: Int?
    ) {
        let select = try database.prepare(
            "SELECT position, record, served FROM domains WHERE position > ? ORDER BY position LIMIT \(readBatch)")
        select.bind(after, at: 1)
        var rows: [(position: Int, record: Data, served: Data?)] = []
        var last: Int?
        while try select.step() {
            last = select.int(0)
            guard let record = select.data(1) else { continue }
            rows.append((select.int(0), record, select.data(2)))
        }
        return (rows, last)
    }

    /// The run is complete: the journal (and SQLite's side files) go.
    func remove() {
        state.withLock { state in
            state.timer?.cancel()
            state.database.close()
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    /// A domain list's fingerprint: how many, and the SHA-256 of its names in order, a line each.
    static func fingerprint(of domains: [String]) -> String {
        let hash = SHA256Stream()
        for domain in domains {
            var line = domain
            line.append("\n")
            line.withUTF8 { hash.update(UnsafeRawBufferPointer($0)) }
        }
        return "\(domains.count)-\(hash.finalizeHex())"
    }

}

/// The files a domain served, as the journal keeps them for the HTML report.
struct JournaledFiles: Codable {
    struct File: Codable {
        var location: AASALocation
        var sha256: String
        /// The parsed file, pretty-printed (parsed again on resume); or the raw bytes.
        var json: String?
        var raw: Data?
        var totalBytes: Int?
    }
    var files: [File]

    /// What the journal keeps of a domain's files: only what `report.html` shows (a compact row
    /// shows none); nil for nothing.
    static func encode(_ domain: AuditedDomain) -> Data? {
        guard !domain.served.isEmpty, !HTMLReport.isCompact(domain.report) else { return nil }
        return try? JSONEncoder().encode(JournaledFiles(domain.served))
    }

    init(_ served: [ServedBody]) {
        files = served.map { body in
            switch body.source {
            case .json(let object):
                File(location: body.location, sha256: body.sha256, json: JSONValue.object(object).prettyPrinted())
            case .raw(let bytes, let totalBytes):
                File(location: body.location, sha256: body.sha256, raw: Data(bytes), totalBytes: totalBytes)
            }
        }
    }

    var served: [ServedBody] {
        files.compactMap { file in
            if let json = file.json, case .object(let object)? = try? JSONParser.parse(json) {
                return ServedBody(location: file.location, sha256: file.sha256, source: .json(object))
            }
            guard let raw = file.raw else { return nil }
            return ServedBody(
                location: file.location, sha256: file.sha256,
                source: .raw(bytes: Array(raw), totalBytes: file.totalBytes ?? raw.count))
        }
    }
}
