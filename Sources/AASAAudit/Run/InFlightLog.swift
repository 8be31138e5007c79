import AASAModel
import CCrashNote
import Foundation
import Synchronization

/// `RUN/in-flight.sqlite`: the domains being audited now, and the domains a crash left to later
/// runs (issue 54, "a night that survives a poison domain").
///
/// A domain's row is written as its audit starts and removed as it ends, each in a commit of its
/// own (SQLite's write-ahead log, not flushed: what a killed process wrote is in the system's
/// cache and survives it). A fatal signal writes `RUN/crashed` (`CCrashNote`, the one thing a
/// signal handler may do: write a line to a descriptor opened before). So the next run can tell
/// a crash (rows and the marker) from `kill -9` (rows without it: those domains are audited
/// again, as before) and from a clean end (no rows). What a crash leaves is `CrashCarry`'s to
/// judge; `carried` holds what it decided for the runs after (suspects and culprits).
///
/// Called from every domain's task: the database is behind a mutex.
final class InFlightLog: Sendable {
    static let fileName = OutputFolderLayout.inFlight
    static let markerName = OutputFolderLayout.crashMarker

    private let store: Mutex<Store?>
    let url: URL
    let marker: URL
    /// The marker's descriptor, open for the signal handler until the run ends.
    private let markerDescriptor: Int32

    /// What a previous run's log says.
    struct Contents: Equatable {
        /// The domains in flight when it ended, and whether each was audited alone.
        var inFlight: [String: Bool] = [:]
        /// What earlier crashes left to it.
        var carried: [CrashCarry.Entry] = []
        /// Whether it ended by a crash (the marker was written).
        var crashed = false
        /// The domain whose own work faulted (the marker's `blame` line), when the fault was on a
        /// thread working for one (`BlamedExecutor`).
        var blamed: String?
    }

    private final class Store {
        let database: SQLiteDatabase
        let start: SQLiteDatabase.Statement
        let end: SQLiteDatabase.Statement

        init(_ path: String) throws(SQLiteError) {
            database = try SQLiteDatabase(path: path, create: true)
            try database.execute(
                """
                PRAGMA journal_mode=WAL;
                PRAGMA synchronous=OFF;
                CREATE TABLE IF NOT EXISTS inflight (domain TEXT PRIMARY KEY, solo INTEGER NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS carried (domain TEXT PRIMARY KEY, state TEXT NOT NULL, since REAL NOT NULL,
                    build TEXT NOT NULL) WITHOUT ROWID;
                """)
            start = try database.prepare("INSERT OR REPLACE INTO inflight VALUES (?, ?)")
            end = try database.prepare("DELETE FROM inflight WHERE domain = ?")
        }
    }

    /// Opens (or makes) the run's log, empties its in-flight rows and its carried entries
    /// (`read` took them first), writes `carry`, and arms the crash marker.
    init(runDirectory: URL, carry: [CrashCarry.Entry]) throws(SQLiteError) {
        url = runDirectory.appendingPathComponent(Self.fileName)
        marker = runDirectory.appendingPathComponent(Self.markerName)
        let store = try Store(url.path)
        try store.database.execute("DELETE FROM inflight; DELETE FROM carried;")
        let insert = try store.database.prepare("INSERT OR REPLACE INTO carried VALUES (?, ?, ?, ?)")
        for entry in carry {
            insert.bind(entry.domain, at: 1)
            insert.bind(entry.state.rawValue, at: 2)
            insert.bind(entry.since.timeIntervalSince1970, at: 3)
            insert.bind(entry.build, at: 4)
            try insert.run()
        }
        self.store = Mutex(store)
        unlink(marker.path)
        markerDescriptor = open(marker.path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o644)
        let header =
            "aasa-audit: crashed auditing the run in \(runDirectory.path); `aasa-audit audit \(OptionName.resume)` finishes it, reporting the domain that crashed it (when not known, the domains in flight) as audit.crashed.\n"
        // The descriptors and the copied texts are the handler's; no Swift value outlives the call.
        header.withCString { header in crashnote_install(2, header, markerDescriptor, "crashed\n") }
    }

    /// A domain's audit starts (alone: a suspect of an earlier crash, audited by itself).
    func started(_ domain: String, alone: Bool) {
        store.withLock { store in
            guard let store else { return }
            store.start.bind(domain, at: 1)
            store.start.bind(alone ? 1 : 0, at: 2)
            try? store.start.run()
        }
    }

    /// A domain's audit ended (whatever its verdict).
    func ended(_ domain: String) {
        store.withLock { store in
            guard let store else { return }
            store.end.bind(domain, at: 1)
            try? store.end.run()
        }
    }

    /// A suspect that was audited alone without a crash: no longer carried.
    func cleared(_ domain: String) {
        store.withLock { store in
            guard let store, let delete = try? store.database.prepare("DELETE FROM carried WHERE domain = ?") else {
                return
            }
            delete.bind(domain, at: 1)
            try? delete.run()
        }
    }

    /// The run ended without a crash: the marker goes, and the log too when nothing is carried.
    func close() {
        crashnote_clear_marker()
        if markerDescriptor >= 0 { Glibc.close(markerDescriptor) }
        unlink(marker.path)
        let keep: Bool = store.withLock { store in
            defer { store = nil }
            guard let store, let count = try? store.database.prepare("SELECT count(*) FROM carried"),
                (try? count.step()) == true
            else { return false }
            let carried = count.int(0) > 0
            store.database.close()
            return carried
        }
        if !keep {
            for suffix in ["", "-wal", "-shm"] { unlink(url.path + suffix) }
        }
    }

    /// What the log in `runDirectory` says, or nil when it has none (or it cannot be read).
    static func read(_ runDirectory: URL) -> Contents? {
        let url = runDirectory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path),
            let database = try? SQLiteDatabase(path: url.path, create: false)
        else { return nil }
        defer { database.close() }
        var contents = Contents()
        if let rows = try? database.prepare("SELECT domain, solo FROM inflight") {
            while (try? rows.step()) == true { contents.inFlight[rows.text(0) ?? ""] = rows.int(1) != 0 }
        }
        if let rows = try? database.prepare("SELECT domain, state, since, build FROM carried ORDER BY domain") {
            while (try? rows.step()) == true {
                guard let state = rows.text(1).flatMap(CrashCarry.State.init(rawValue:)) else { continue }
                contents.carried.append(
                    CrashCarry.Entry(
                        domain: rows.text(0) ?? "", state: state,
                        since: Date(timeIntervalSince1970: rows.real(2)), build: rows.text(3) ?? ""))
            }
        }
        let marker = runDirectory.appendingPathComponent(markerName)
        let lines = (try? String(contentsOf: marker, encoding: .utf8))?.split(separator: "\n") ?? []
        contents.crashed = !lines.isEmpty
        contents.blamed = lines.lazy.compactMap { $0.hasPrefix("blame ") ? String($0.dropFirst(6)) : nil }.first
        return contents
    }
}
