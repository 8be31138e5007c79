import AASAModel
import Foundation

/// The previous run's domains (`DomainSnapshot`s) in a scratch SQLite database, looked up one
/// domain at a time as the run's domains complete: a previous run of a million domains is
/// hundreds of megabytes of findings, and only the page cache's few megabytes are in memory.
///
/// The database is SQLite's own temporary file (in `SQLITE_TMPDIR`, `TMPDIR` or `/var/tmp`),
/// unlinked as soon as it is made, so that not even a killed run leaves it behind; where no
/// such file can be written, the reader loads the run in memory instead (`inMemory`). Loaded by one thread, then used by one thread at a time
/// (the accumulator's), which is what makes it `Sendable`.
final class PreviousRunRecords: EarlierRunRecords, @unchecked Sendable {
    typealias Failure = SQLiteError

    private let database: SQLiteDatabase
    private var insert: SQLiteDatabase.Statement?
    private var lookup: SQLiteDatabase.Statement?
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()
    /// How many domains were loaded.
    private(set) var count = 0

    /// Opens an empty store: on disk, or in memory (where no temporary file can be made).
    init(inMemory: Bool = false) throws(SQLiteError) {
        // "": a private temporary file, made when the cache first spills and deleted when closed.
        database = try SQLiteDatabase(path: inMemory ? ":memory:" : "", create: true)
        try database.execute(
            """
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -2048;
            CREATE TABLE earlier (domain TEXT NOT NULL, snapshot BLOB NOT NULL);
            BEGIN;
            """)
        insert = try database.prepare("INSERT INTO earlier (domain, snapshot) VALUES (?1, ?2)")
    }

    /// Adds the previous run's next domain (while loading).
    func add(_ snapshot: DomainSnapshot) throws(SQLiteError) {
        guard let insert else { return }
        insert.bind(snapshot.domain, at: 1)
        // Codable model values always encode.
        try insert.run(binding: [try! encoder.encode(snapshot)], from: 2)
        count += 1
    }

    /// Every domain is added: indexed by name for the lookups.
    func finishLoading() throws(SQLiteError) {
        insert = nil
        try database.execute("COMMIT; CREATE INDEX earlier_domain ON earlier (domain);")
        lookup = try database.prepare("SELECT snapshot FROM earlier WHERE domain = ?1 ORDER BY rowid LIMIT 1")
    }

    func record(of domain: String) throws(SQLiteError) -> DomainSnapshot? {
        guard let lookup else { return nil }
        defer { lookup.reset() }
        lookup.bind(domain, at: 1)
        guard try lookup.step(), let bytes = lookup.data(0) else { return nil }
        // Written by this store from a decoded value: it decodes.
        return try? decoder.decode(DomainSnapshot.self, from: bytes)
    }

    /// The current run's names go into a table of their own, and the two differences are asked
    /// of SQLite: neither list is held as a set in memory.
    func difference(from current: [String]) throws(SQLiteError) -> (added: [String], removed: [String]) {
        try database.execute(
            "CREATE TABLE IF NOT EXISTS current (position INTEGER PRIMARY KEY, domain TEXT NOT NULL); DELETE FROM current; BEGIN;"
        )
        let insert = try database.prepare("INSERT INTO current (position, domain) VALUES (?1, ?2)")
        for (position, domain) in current.enumerated() {
            insert.bind(position, at: 1)
            insert.bind(domain, at: 2)
            try insert.run()
        }
        try database.execute("COMMIT; CREATE INDEX IF NOT EXISTS current_domain ON current (domain);")
        let added = try names(
            "SELECT domain FROM current c WHERE NOT EXISTS (SELECT 1 FROM earlier e WHERE e.domain = c.domain) ORDER BY position"
        )
        let removed = try names(
            "SELECT domain FROM earlier e WHERE NOT EXISTS (SELECT 1 FROM current c WHERE c.domain = e.domain) ORDER BY rowid"
        )
        return (added, removed)
    }

    private func names(_ sql: String) throws(SQLiteError) -> [String] {
        let query = try database.prepare(sql)
        var names: [String] = []
        while try query.step() { if let name = query.text(0) { names.append(name) } }
        return names
    }
}
