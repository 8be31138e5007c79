import Foundation

/// Pieces of a report appended as domains complete (in completion order) to a hidden file of
/// the run folder, and read back in input order when the report is assembled. Memory holds
/// only each piece's offset and length, so a run of any size costs the same per domain.
final class OrderedSpool {
    private struct Span {
        var offset: UInt64
        var length: Int
    }

    private let url: URL
    private let handle: FileHandle
    private var spans: [Span?]
    private var end: UInt64 = 0

    /// - Parameter capacity: the number of domains; indices run from 0 to `capacity - 1`.
    init(url: URL, capacity: Int) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        self.url = url
        handle = try FileHandle(forUpdating: url)
        spans = Array(repeating: nil, count: capacity)
    }

    func append(_ piece: Data, at index: Int) throws {
        try handle.write(contentsOf: piece)
        spans[index] = Span(offset: end, length: piece.count)
        end += UInt64(piece.count)
    }

    /// Calls `body` with each piece in input order, skipping indices never appended.
    func forEachInOrder(_ body: (Data) throws -> Void) throws {
        for case let span? in spans {
            try handle.seek(toOffset: span.offset)
            try body(try handle.read(upToCount: span.length) ?? Data())
        }
    }

    func remove() {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }
}
