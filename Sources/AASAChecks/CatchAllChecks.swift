import AASAModel

/// A server that answers every path with its web app (a rewrite rule that sends `/.well-known/`
/// to a single-page app's `index.html` or a CMS's front controller): found with one request for
/// a path that cannot exist, made only when an association file came back 200 as a web page.
/// A file with merely the wrong type (JSON as `text/plain`) is a type problem, not this.
public enum CatchAllChecks {
    /// The path no site serves (the one HTTP Archive's `.well-known` crawl asks for).
    public static var probePath: String { AASALocation.catchAllProbe.path }
    /// A web page's types.
    static let pageTypes: Set<String> = ["text/html", "application/xhtml+xml"]

    static func pageType(_ record: FetchRecord) -> String? {
        guard let type = record.headers.contentType.map(LocationChecks.mediaType(of:)), pageTypes.contains(type)
        else { return nil }
        return type
    }

    /// Whether an answer is a web page: typed as one, or a body that starts as markup.
    public static func isPage(_ fetched: FetchedLocation) -> Bool {
        pageType(fetched.record) != nil || startsAsMarkup(fetched.body)
    }

    /// Whether bytes start as markup (`<`, after white space and a byte order mark).
    static func startsAsMarkup(_ bytes: [UInt8]) -> Bool {
        bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "<")
    }

    /// The domain's association files (at their own path, not the pages they lead to) that came
    /// back 200 as a web page: what makes the probe worth a request.
    public static func suspects(_ records: [FetchRecord], domain: String) -> [FetchRecord] {
        records.filter { record in
            record.status == 200 && record.location != .cdn && record.location != .catchAllProbe
                && record.url == record.location.url(on: domain) && pageType(record) != nil
        }
    }

    /// The probe's answer: the same kind of page, with 200, says every path answers so.
    public static func findings(probe: FetchRecord, suspects: [FetchRecord]) -> [Finding] {
        guard probe.status == 200, let type = pageType(probe), !suspects.isEmpty else { return [] }
        let files = suspects.map { $0.location.path }
        let unique = files.enumerated().filter { !files[..<$0.offset].contains($0.element) }.map(\.element)
        return [
            Finding(
                .aasa(.locationCatchAll), .domain,
                "\(probePath) answered 200 with a page (\(type)), as \(unique.joined(separator: ", ")) did: the server answers 200 for every path, so a rewrite rule catches /.well-known/: exclude it."
            )
        ]
    }
}
