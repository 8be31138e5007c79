import AASAJSON
import AASAModel

/// A file a location served with 200, kept for the HTML report's display.
public struct ServedBody: Sendable {
    public var location: AASALocation
    public var sha256: String
    /// What the display is made from; the text is made only for a file's first appearance in
    /// the report (most domains of a run serve a file some earlier domain served).
    var source: Source

    enum Source: Sendable {
        case json(JSONObject)
        case raw(bytes: [UInt8], totalBytes: Int)
    }

    /// More than any valid file may hold; the rest of a larger body is not shown.
    public static let displayLimit = AppleLimits.maximumFileBytes

    /// Pretty-printed JSON when the file parsed as an object; otherwise the raw text (invalid
    /// UTF-8 replaced), cut to `displayLimit` bytes.
    public var displayText: String {
        switch source {
        case .json(let object):
            return JSONValue.object(object).prettyPrinted()
        case .raw(let bytes, let totalBytes):
            let shown = bytes.prefix(Self.displayLimit)
            let cut = totalBytes > shown.count ? "\n… (\(totalBytes - shown.count) more bytes not shown)" : ""
            return String(decoding: shown, as: UTF8.self) + cut
        }
    }
}

/// The audit of one domain: its report record and what it served.
public struct DomainOutcome: Sendable {
    public var report: DomainReport
    public var served: [ServedBody]
}
