import Foundation

/// Pieces of a report appended as domains complete (in completion order) to a file of the run
/// folder (hidden, or kept as the run's stream), and read back in input order when the report is assembled. Memory holds
/// only each piece's offset and length, so a run of any size costs the same per domain.
final class OrderedSpool {
    private struct Span {
        var offset: UInt64
        var length: Int
    }

    /// Each index's piece: where it starts in the file and its length (`absent` when never
    /// appended), in two arrays of 12 bytes an index together, not 24 in an array of optional
    /// spans: a million domains, three spools.
    private var offsets: [UInt64]
    private var lengths: [UInt32]
    private static let absent = UInt32.max

    private let url: URL
    private let handle: FileHandle
    private var end: UInt64 = 0

    /// - Parameter capacity: the number of domains; indices run from 0 to `capacity - 1`.
    init(url: URL, capacity: Int) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        self.url = url
        handle = try FileHandle(forUpdating: url)
        offsets = Array(repeating: 0, count: capacity)
        lengths = Array(repeating: Self.absent, count: capacity)
    }

    /// Appended pieces not yet written: one write a quarter megabyte, not one a domain.
    private var pending = Data()
    private static let pendingLimit = 256 << 10
    /// Pieces adjacent in the file are read together, up to this many bytes at once.
    private static let readLimit = 1 << 20

    func append(_ piece: Data, at index: Int) throws {
        // A piece is one domain's record: far below 4 GB (`RunHistoryStore.maximumReportLineBytes`).
        guard piece.count < Int(Self.absent) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "a report piece of 4 GB or more"])
        }
        pending.append(piece)
        (offsets[index], lengths[index]) = (end, UInt32(piece.count))
        end += UInt64(piece.count)
        if pending.count >= Self.pendingLimit { try flushPending() }
    }

    private func flushPending() throws {
        guard !pending.isEmpty else { return }
        try handle.seekToEnd()
        try handle.write(contentsOf: pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with each piece in input order, skipping indices never appended. Pieces that
    /// follow each other in the file too (most do: domains complete in about their order) are
    /// read in one call.
    func forEachInOrder(_ body: (Data) throws -> Void) throws {
        try flushPending()
        var group: [Span] = []
        func readGroup() throws {
            guard let first = group.first, let last = group.last else { return }
            try handle.seek(toOffset: first.offset)
            let chunk = try handle.read(upToCount: Int(last.offset - first.offset) + last.length) ?? Data()
            for span in group {
                let start = chunk.startIndex + Int(span.offset - first.offset)
                guard start + span.length <= chunk.endIndex else { throw CocoaError(.fileReadCorruptFile) }
                try body(Data(chunk[start..<(start + span.length)]))
            }
            group.removeAll(keepingCapacity: true)
        }
        for index in offsets.indices where lengths[index] != Self.absent {
            let span = Span(offset: offsets[index], length: Int(lengths[index]))
            if let last = group.last,
                last.offset + UInt64(last.length) != span.offset
                    || Int(span.offset - group[0].offset) + span.length > Self.readLimit
            {
                try readGroup()
            }
            group.append(span)
        }
        try readGroup()
    }

    /// Writes what is pending and closes the file, which stays.
    func close() {
        try? flushPending()
        try? handle.close()
    }

    func remove() {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }
}
