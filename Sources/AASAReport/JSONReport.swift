import AASAModel
import Foundation

/// The JSON report's encoding. A report is written as a stream: the envelope (everything but
/// `domains`) around the domain records, one record per line, so that writing a run of any
/// size needs memory for one record at a time.
public enum JSONReport {
    /// Keys sorted, dates in ISO 8601 (UTC), slashes unescaped: stable output for diffs.
    public static func makeEncoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// One domain's record, compact, as it stands in the `domains` array.
    public static func encodeRecord(_ report: DomainReport, encoder: JSONEncoder = makeEncoder()) -> Data {
        // Encoding a value built from Codable model types cannot fail.
        try! encoder.encode(report)
    }

    /// The text before and after the domain records: the top-level members in sorted key
    /// order, each encoded on its own, with `domains` streamed in between:
    /// `{"changes":…,"domains":[` and `],"input":…,"run":…,"schemaVersion":1,"summary":…,"tool":…}`.
    /// The head and the tail are one line each, and each record is a line of its own.
    public static func envelope(tool: ToolInfo, run: RunInfo, summary: ReportSummary, input: InputInfo, changes: RunChanges? = nil) -> (head: Data, tail: Data) {
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

    /// Writes a whole document: the envelope around `records`, separated by commas.
    public static func writeDocument(
        tool: ToolInfo, run: RunInfo, summary: ReportSummary, input: InputInfo, changes: RunChanges? = nil,
        records: some Sequence<Data>, to write: (Data) throws -> Void
    ) rethrows {
        let (head, tail) = envelope(tool: tool, run: run, summary: summary, input: input, changes: changes)
        try write(head)
        var first = true
        for record in records {
            if !first { try write(Data(",\n".utf8)) }
            try write(record)
            first = false
        }
        try write(tail)
    }
}
