import AASAModel
import Foundation

/// The JSON report's encoding. A report is written as a stream: the envelope (everything but
/// `domains`) around the domain records, one record per line, so that writing a run of any
/// size needs memory for one record at a time.
public enum JSONReport {
    /// Keys sorted, dates in ISO 8601 (UTC), slashes unescaped: stable output for diffs.
    public static func makeEncoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// One domain's record, compact, as it stands in the `domains` array.
    /// Written by `SortedJSONEncoder`, whose bytes are `makeEncoder()`'s at a fraction of the CPU.
    public static func encodeRecord(_ report: DomainReport) -> Data {
        // Encoding a value built from Codable model types cannot fail: the only error is a
        // number that is not finite, and the record's numbers are counts and libcurl's timings.
        try! SortedJSONEncoder.encode(report)
    }

    /// The text before and after the domain records: the top-level members in sorted key
    /// order, each encoded on its own, with `domains` streamed in between:
    /// `{"changes":…,"domains":[` and `],"input":…,"run":…,"schemaVersion":1,"summary":…,"tool":…}`.
    /// The head and the tail are one line each, and each record is a line of its own.
    public static func envelope(
        tool: ToolInfo, run: RunInfo, summary: ReportSummary, input: InputInfo, changes: RunChanges? = nil
    ) -> (head: Data, tail: Data) {
        let encoder = makeEncoder()
        func member(_ name: String, _ value: some Encodable) -> Data {
            Data("\"\(name)\":".utf8) + (try! encoder.encode(value))
        }
        var head = Data("{".utf8)
        if let changes { head += member("changes", changes) + Data(",".utf8) }
        head += Data("\"domains\":[\n".utf8)
        var tail = Data("\n],".utf8)
        tail += member("input", input) + Data(",".utf8)
        tail += member("run", run) + Data(",".utf8)
        tail += member("schemaVersion", ReportSchema.version) + Data(",".utf8)
        tail += member("summary", summary) + Data(",".utf8)
        tail += member("tool", tool) + Data("}".utf8)
        return (head, tail)
    }

    /// Writes a whole document: the envelope around the records, one a line, separated by
    /// commas. `records` calls its argument with each record, in order.
    public static func writeDocument(
        tool: ToolInfo, run: RunInfo, summary: ReportSummary, input: InputInfo, changes: RunChanges? = nil,
        records: ((Data) throws -> Void) throws -> Void, to write: (Data) throws -> Void
    ) throws {
        let (head, tail) = envelope(tool: tool, run: run, summary: summary, input: input, changes: changes)
        try write(head)
        var first = true
        try withoutActuallyEscaping(write) { write in
            try records { record in
                if !first { try write(Data(",\n".utf8)) }
                try write(record)
                first = false
            }
        }
        try write(tail)
    }
}

/// What a written report says of its domains, as far as changes go: read back from the lines
/// `JSONReport.writeDocument` writes, one record at a time, so that a previous run of any size
/// is read in the memory of one record.
public struct ReportSnapshot: Sendable, Equatable {
    public var startedAt: Date
    public var finishedAt: Date
    /// False for an interrupted run's report.
    public var complete: Bool
    /// In the report's order.
    public var domains: [DomainSnapshot]
    /// Why the run could not check properly (`summary.auditorProblems`); nil for a sound run.
    public var auditorProblems: [String]? = nil
}

extension JSONReport {
    /// Reads a report from its lines, in the layout `writeDocument` writes: the head (ending in
    /// `"domains":[`) on one line, a record a line, then the tail (`],"input":…,"run":{…}…`).
    /// Nil when the lines are not such a document.
    public static func snapshot(lines: some Sequence<Data>) -> ReportSnapshot? {
        var domains: [DomainSnapshot] = []
        guard var snapshot = snapshot(lines: lines, each: { domains.append($0) }) else { return nil }
        snapshot.domains = domains
        return snapshot
    }

    /// Reads a report from its lines as `snapshot(lines:)` does, handing each domain to `each`
    /// as it is read: the snapshot returned has no domains. A report of any size is read in the
    /// memory of one record.
    public static func snapshot(lines: some Sequence<Data>, each: (DomainSnapshot) throws -> Void) rethrows
        -> ReportSnapshot?
    {
        let decoder = makeDecoder()
        let tailLine = try records(lines: lines) { record in
            if let snapshot = try? decoder.decode(DomainSnapshot.self, from: record) { try each(snapshot) }
            return true
        }
        guard let tailLine, let tail = tail(tailLine) else { return nil }
        return ReportSnapshot(
            startedAt: tail.run.startedAt, finishedAt: tail.run.finishedAt, complete: tail.run.complete,
            domains: [], auditorProblems: tail.summary?.auditorProblems)
    }

    /// A report's domain records read from its lines, one at a time: each line after `"domains":[`
    /// handed to `body` without its trailing comma, until the tail line (`],…`), which is
    /// returned; nil when the lines end first or `body` returns false to stop.
    public static func records(lines: some Sequence<Data>, _ body: (Data) throws -> Bool) rethrows -> Data? {
        var inDomains = false
        for line in lines {
            if !inDomains {
                inDomains = line.reversed().starts(with: #""domains":["#.utf8.reversed())
                continue
            }
            if line.first == UInt8(ascii: "]") { return line }
            let record = line.last == UInt8(ascii: ",") ? line.dropLast() : line
            guard try body(record) else { return nil }
        }
        return nil
    }
}

extension JSONReport {
    /// The `run` of a report's last line (`],"input":…,"run":{…},…}`), or nil when the line is
    /// not such a tail.
    public static func runInfo(tailLine line: Data) -> RunInfo? {
        tail(line)?.run
    }

    /// The run and its summary from a report's last line (`serve`'s `/metrics`).
    public static func runSummary(tailLine line: Data) -> (run: RunInfo, summary: ReportSummary)? {
        struct Tail: Decodable {
            var run: RunInfo
            var summary: ReportSummary
        }
        guard line.starts(with: "],".utf8),
            let tail = try? makeDecoder().decode(Tail.self, from: Data("{".utf8) + line.dropFirst(2))
        else { return nil }
        return (tail.run, tail.summary)
    }

    fileprivate static func tail(_ line: Data) -> ReportTail? {
        guard line.starts(with: "],".utf8) else { return nil }
        return try? makeDecoder().decode(ReportTail.self, from: Data("{".utf8) + line.dropFirst(2))
    }
}

/// The part of a report's tail that `JSONReport.snapshot(lines:)` reads.
private struct ReportTail: Decodable {
    struct Summary: Decodable {
        var auditorProblems: [String]?
    }

    var run: RunInfo
    var summary: Summary?
}
