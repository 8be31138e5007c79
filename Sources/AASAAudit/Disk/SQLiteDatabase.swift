import CSQLite
import Foundation

/// A SQLite database file (Debian's libsqlite3), used by one thread at a time: its owner
/// serialises the calls. Statements are prepared once and reset between uses.
final class SQLiteDatabase {
    private var handle: OpaquePointer?

    /// Opens (or with `create`, makes) the file.
    init(path: String, create: Bool) throws(SQLiteError) {
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK else {
            let error = SQLiteError(code: code, handle: handle, doing: "open \(path)")
            sqlite3_close_v2(handle)
            handle = nil
            throw error
        }
        sqlite3_busy_timeout(handle, 5000)
    }

    deinit { close() }

    func close() {
        sqlite3_close_v2(handle)
        handle = nil
    }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, handle: handle, doing: sql) }
    }

    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw SQLiteError(code: code, handle: handle, doing: sql) }
        return Statement(statement, database: self)
    }

    fileprivate func error(_ code: Int32, doing: String) -> SQLiteError {
        SQLiteError(code: code, handle: handle, doing: doing)
    }

    /// A prepared statement: bind (1-based), step, read columns (0-based), reset.
    final class Statement {
        private let statement: OpaquePointer
        private let database: SQLiteDatabase

        fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
            self.statement = statement
            self.database = database
        }

        deinit { sqlite3_finalize(statement) }

        func bind(_ value: Int, at index: Int32) {
            sqlite3_bind_int64(statement, index, Int64(value))
        }

        func bind(_ value: Double, at index: Int32) {
            sqlite3_bind_double(statement, index, value)
        }

        /// Binds text by its byte count, copied (SQLITE_TRANSIENT: the C string Swift makes lives
        /// for the call only). A NUL inside is kept, not where the text ends.
        func bind(_ value: String, at index: Int32) {
            var value = value
            value.withUTF8 { bytes in
                let start = UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                sqlite3_bind_text(
                    statement, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                    csqlite_transient())
            }
        }

        /// Binds a blob, copied (the bytes need not outlive the call).
        func bind(_ bytes: [UInt8], at index: Int32) {
            bytes.withUnsafeBytes { buffer in
                // A zero-length blob needs a non-null pointer to be a blob and not NULL.
                let start = buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
                sqlite3_bind_blob(statement, index, start, Int32(buffer.count), csqlite_transient())
            }
        }

        /// Binds blobs (nil binds NULL) without copying them, runs the statement to its end and
        /// resets it: the bytes are only read while it runs.
        func run(binding blobs: [Data?], from index: Int32) throws(SQLiteError) {
            guard let first = blobs.first else { return try run() }
            let rest = Array(blobs.dropFirst())
            guard let first else {
                sqlite3_bind_null(statement, index)
                return try run(binding: rest, from: index + 1)
            }
            let result: Result<Void, SQLiteError> = first.withUnsafeBytes { bytes in
                // A zero-length blob needs a non-null pointer to be a blob and not NULL.
                let start = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
                // SQLITE_STATIC: the statement runs and is reset (its bindings cleared) inside
                // this closure, before the bytes' pointer goes.
                sqlite3_bind_blob(statement, index, start, Int32(bytes.count), nil)
                do throws(SQLiteError) {
                    try run(binding: rest, from: index + 1)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try result.get()
        }

        /// Steps once: true while there is a row to read.
        func step() throws(SQLiteError) -> Bool {
            let code = sqlite3_step(statement)
            switch code {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default: throw database.error(code, doing: String(cString: sqlite3_sql(statement)))
            }
        }

        /// Runs the statement to its end and resets it for the next use.
        func run() throws(SQLiteError) {
            defer { reset() }
            while try step() {}
        }

        func reset() {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }

        func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

        func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

        /// The column's text, copied by its byte count while the row is current (SQLite's pointer
        /// is valid until the next step or reset).
        func text(_ column: Int32) -> String? {
            guard let text = sqlite3_column_text(statement, column) else { return nil }
            let count = Int(sqlite3_column_bytes(statement, column))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        }

        /// The column's bytes, or nil when it is NULL.
        func data(_ column: Int32) -> Data? {
            guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return Data() }
            return Data(bytes: bytes, count: count)
        }
    }
}

/// What SQLite said went wrong, and while doing what.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String

    init(code: Int32, handle: OpaquePointer?, doing: String) {
        self.code = code
        let detail =
            handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        message = "\(detail) (SQLite \(code), \(doing.prefix(80)))"
    }

    /// A file SQLite reads but whose content is not what aasa-audit wrote: `what` says so.
    init(content what: String) {
        code = 0
        message = what
    }

    var description: String { message }
}
