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

    /// The text before and after the domain records: `{"domains":[` ... `],"input":...}`.
    public static func envelope(tool: ToolInfo, run: RunInfo, summary: ReportSummary, input: InputInfo) -> (head: Data, tail: Data) {
        let shell = AuditReport(tool: tool, run: run, summary: summary, input: input, domains: [])
        let encoded = try! makeEncoder().encode(shell)
        // Keys are sorted, so the document starts with the empty `domains` array.
        let emptyDomains = Data(#"{"domains":[]"#.utf8)
        precondition(encoded.starts(with: emptyDomains), "the report envelope no longer starts with domains")
        return (Data(#"{"domains":["#.utf8) + Data("\n".utf8), Data("\n]".utf8) + encoded.dropFirst(emptyDomains.count))
    }

    /// Writes a whole document: the envelope around `records`, separated by commas.
    public static func writeDocument(
        tool: ToolInfo, run: RunInfo, summary: ReportSummary, input: InputInfo,
        records: some Sequence<Data>, to write: (Data) throws -> Void
    ) rethrows {
        let (head, tail) = envelope(tool: tool, run: run, summary: summary, input: input)
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
