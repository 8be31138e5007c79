import AASAModel
import Foundation

/// The history's per-domain states (`RunHistory.DomainState`, 50 bytes under a 16-byte key) in
/// a scratch SQLite database while a run updates the history: a fleet of a million domains
/// kept them in a hash table of about 190 MB. The file is SQLite's own temporary file, unlinked
/// as soon as it is made (`PreviousRunRecords` says where). Used by one thread at a time.
final class HistoryStateStore: DomainStateStore, @unchecked Sendable {
    private let database: SQLiteDatabase
    private let select: SQLiteDatabase.Statement
    private let upsert: SQLiteDatabase.Statement
    /// The first thing that went wrong: the states read since are not to be trusted.
    private(set) var failure: SQLiteError?

    init() throws(SQLiteError) {
        database = try SQLiteDatabase(path: "", create: true)
        try database.execute(
            """
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -4096;
            CREATE TABLE state (key BLOB PRIMARY KEY, state BLOB NOT NULL) WITHOUT ROWID;
            BEGIN;
            """)
        select = try database.prepare("SELECT state FROM state WHERE key = ?1")
        upsert = try database.prepare(
            "INSERT INTO state (key, state) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET state = excluded.state")
    }

    func state(for key: RunHistory.DomainKey) -> RunHistory.DomainState? {
        guard failure == nil else { return nil }
        defer { select.reset() }
        select.bind(key.bytes, at: 1)
        do {
            guard try select.step(), let bytes = select.data(0) else { return nil }
            return RunHistory.DomainState(packed: bytes)
        } catch {
            failure = error
            return nil
        }
    }

    func store(_ state: RunHistory.DomainState, for key: RunHistory.DomainKey) {
        guard failure == nil else { return }
        upsert.bind(key.bytes, at: 1)
        upsert.bind(state.packed, at: 2)
        do { try upsert.run() } catch { failure = error }
    }
}
