/// A URL split as the matcher sees it: the raw text of each part, nothing decoded or
/// normalised (aasa-matching.md §13).
public struct MatchURL: Sendable, Equatable {
    public var scheme: String
    /// Lower-cased for comparison; the port, if any, removed.
    public var host: String
    public var port: String?
    /// As written; empty when the URL has none.
    public var path: String
    /// The text after the first `?` and before `#`; nil when there is no `?`.
    public var query: String?
    /// The text after the first `#`; nil when there is no `#`.
    public var fragment: String?

    public init(
        scheme: String, host: String, port: String? = nil, path: String, query: String? = nil, fragment: String? = nil
    ) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits an absolute `http`/`https` URL, or returns why it cannot.
    public static func parse(_ text: String) -> Result<MatchURL, MatchURLError> {
        guard let schemeEnd = text.firstRange(of: "://") else {
            return .failure(MatchURLError("is not an absolute URL (https://host/path)"))
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "https" || scheme == "http" else {
            return .failure(MatchURLError("has the scheme \(scheme); universal links are https URLs"))
        }
        var rest = text[schemeEnd.upperBound...]
        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: String?
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        let path = String(rest[slash...])
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var port: String?
        if let colon = authority.lastIndex(of: ":"), !authority.hasPrefix("[") || authority[..<colon].hasSuffix("]") {
            port = String(authority[authority.index(after: colon)...])
            authority = authority[..<colon]
        }
        guard !authority.isEmpty else { return .failure(MatchURLError("has no host")) }
        return .success(
            MatchURL(
                scheme: scheme, host: authority.lowercased(), port: port, path: path, query: query, fragment: fragment))
    }
}

public struct MatchURLError: Error, Equatable, Sendable {
    /// Completes a sentence that starts with the URL: `"x" is not an absolute URL`.
    public var reason: String
    init(_ reason: String) { self.reason = reason }
}
