import Foundation

/// Domain records and HTML rows as they complete, in completion order, in two files of the run
/// folder; read back in input order when the reports are assembled. Memory holds only the
/// offsets, so a run of any size costs the same per domain.
final class ReportSpool {
    private struct Span {
        var offset: UInt64
        var length: Int
    }

    private let recordsURL: URL
    private let rowsURL: URL
    private let records: FileHandle
    private let rows: FileHandle
    private var recordSpans: [Span?]
    private var rowSpans: [Span?]
    private var recordsEnd: UInt64 = 0
    private var rowsEnd: UInt64 = 0

    init(directory: URL, capacity: Int) throws {
        recordsURL = directory.appendingPathComponent(".records.spool")
        rowsURL = directory.appendingPathComponent(".rows.spool")
        for url in [recordsURL, rowsURL] {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        records = try FileHandle(forUpdating: recordsURL)
        rows = try FileHandle(forUpdating: rowsURL)
        recordSpans = Array(repeating: nil, count: capacity)
        rowSpans = Array(repeating: nil, count: capacity)
    }

    func append(index: Int, record: Data, row: Data) throws {
        try records.write(contentsOf: record)
        recordSpans[index] = Span(offset: recordsEnd, length: record.count)
        recordsEnd += UInt64(record.count)
        try rows.write(contentsOf: row)
        rowSpans[index] = Span(offset: rowsEnd, length: row.count)
        rowsEnd += UInt64(row.count)
    }

    /// Calls `body` with each record in input order, skipping domains never audited.
    func forEachRecord(_ body: (Data) throws -> Void) throws {
        try forEach(records, recordSpans, body)
    }

    /// Calls `body` with each HTML row in input order, skipping domains never audited.
    func forEachRow(_ body: (Data) throws -> Void) throws {
        try forEach(rows, rowSpans, body)
    }

    private func forEach(_ handle: FileHandle, _ spans: [Span?], _ body: (Data) throws -> Void) throws {
        for case let span? in spans {
            try handle.seek(toOffset: span.offset)
            try body(try handle.read(upToCount: span.length) ?? Data())
        }
    }

    func remove() {
        try? records.close()
        try? rows.close()
        try? FileManager.default.removeItem(at: recordsURL)
        try? FileManager.default.removeItem(at: rowsURL)
    }
}
