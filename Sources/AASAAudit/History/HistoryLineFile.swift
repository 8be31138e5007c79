import AASAModel
import Foundation

/// `history.json` read a line at a time without holding a line: a line is a run of every
/// domain (tens of megabytes at a million), and the history update goes through its domains one
/// at a time (`HistoryLine.ListScanner`), from the file, in pieces of a megabyte.
struct HistoryLineFile {
    /// Where a line is in the file, without its newline.
    struct Span {
        var offset: UInt64
        var length: Int
    }

    let handle: FileHandle
    /// How much is read at once (small in tests, so that elements straddle pieces).
    var pieceBytes = 1 << 20
    /// A domain of a line (its name, verdict and codes) longer than this is damage.
    static let maximumElementBytes = 1 << 20

    /// The lines' spans in order, handed to `body` one at a time (it may read the file between
    /// them, and returns false to stop); stops at a line longer than `maximumLineBytes`, and
    /// returns false then.
    func forEachSpan(maximumLineBytes: Int, _ body: (Span) throws -> Bool) throws -> Bool {
        var position: UInt64 = 0
        var start: UInt64 = 0
        while true {
            try handle.seek(toOffset: position)
            guard let piece = try handle.read(upToCount: pieceBytes), !piece.isEmpty else { break }
            var cursor = piece.startIndex
            while let newline = piece[cursor...].firstIndex(of: UInt8(ascii: "\n")) {
                let end = position + UInt64(newline - piece.startIndex)
                guard end - start <= UInt64(maximumLineBytes) else { return false }
                guard try body(Span(offset: start, length: Int(end - start))) else { return true }
                start = end + 1
                cursor = newline + 1
            }
            position += UInt64(piece.count)
            guard position - start <= UInt64(maximumLineBytes) else { return false }
        }
        if position > start { _ = try body(Span(offset: start, length: Int(position - start))) }
        return true
    }

    /// The line's bytes, whole (a line of another layout, read the slow way).
    func bytes(_ span: Span) throws -> Data {
        try handle.seek(toOffset: span.offset)
        let data = try handle.read(upToCount: span.length) ?? Data()
        guard data.count == span.length else { throw CocoaError(.fileReadCorruptFile) }
        return data
    }

    /// Copies the line, with a newline, to `write` in pieces.
    func copy(_ span: Span, to write: (Data) throws -> Void) throws {
        try handle.seek(toOffset: span.offset)
        var remaining = span.length
        while remaining > 0 {
            let piece = try handle.read(upToCount: min(remaining, pieceBytes)) ?? Data()
            guard !piece.isEmpty else { throw CocoaError(.fileReadCorruptFile) }
            try write(piece)
            remaining -= piece.count
        }
        try write(Data("\n".utf8))
    }

    /// A kept run's line: its run without domains (`header`), read first, then its domains
    /// gone through one at a time (`forEachDomain`) as often as asked.
    struct Line {
        let file: HistoryLineFile
        let span: Span

        /// The run without its domains, its verdicts counted from them; throws for damage.
        func header() throws -> HistoryRun {
            var verdicts = VerdictCounts()
            if let rest = try file.read(span, each: { verdicts[$0.verdict] += 1 }) {
                var run = try HistoryRun(line: rest)
                run.verdicts = verdicts
                return run
            }
            // Another layout: read whole, the slow way.
            var run = try HistoryRun(line: file.bytes(span))
            run.domains = []
            return run
        }

        func forEachDomain(_ each: (HistoryDomain) -> Void) throws {
            if try file.read(span, each: each) != nil { return }
            // Another layout: read whole, the slow way (`header` read it so too).
            for domain in try HistoryRun(line: file.bytes(span)).domains { each(domain) }
        }
    }

    /// Goes through the line's domains, each handed to `each`, and returns the line with `[]`
    /// for its list; nil when the line is not of that layout (then it is read whole, the slow
    /// way) or is damaged. Only the fields around the list are held.
    func read(_ span: Span, each: (HistoryDomain) -> Void) throws -> Data? {
        try handle.seek(toOffset: span.offset)
        var remaining = span.length
        func nextPiece() throws -> Data? {
            guard remaining > 0 else { return nil }
            let piece = try handle.read(upToCount: min(remaining, pieceBytes)) ?? Data()
            guard !piece.isEmpty else { throw CocoaError(.fileReadCorruptFile) }
            remaining -= piece.count
            return piece
        }
        // The head, up to the key.
        let key = Data(#""domains":"#.utf8)
        var head = Data()
        var keyEnd: Int?
        while keyEnd == nil {
            guard let piece = try nextPiece() else { return nil }
            head.append(piece)
            keyEnd = head.firstRange(of: key)?.upperBound
        }
        guard let keyEnd, HistoryLine.isListHead(head[..<keyEnd]) else { return nil }
        var pending = Data(head[keyEnd...])
        head = Data(head[..<keyEnd])
        // The list, element by element.
        var scanner = HistoryLine.ListScanner()
        while true {
            let atEnd = remaining == 0
            let used = pending.withUnsafeBytes { scanner.feed($0, atEnd: atEnd, each: each) }
            pending = Data(pending[(pending.startIndex + used)...])
            if scanner.state == .done || scanner.state == .failed { break }
            // An element longer than a piece is damage, not something to gather without end.
            guard pending.count <= Self.maximumElementBytes, let piece = try nextPiece() else { return nil }
            pending.append(piece)
        }
        guard scanner.state == .done else { return nil }
        // The tail, after the list.
        var rest = head
        rest.append(contentsOf: Array("[]".utf8))
        rest.append(pending)
        while let piece = try nextPiece() { rest.append(piece) }
        return rest
    }
}
