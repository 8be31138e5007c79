import AASAModel
import Foundation

/// What a request asks for. Pure: made from the request line alone, so that every path the
/// server answers is listed here and tested without a socket (`Tests/AASAServeTests`). A new
/// endpoint is a case, its line in `init`, its token in `needsToken` and its handler's line in
/// `ServeApp.handle` (docs/architecture.md, "A new serve endpoint").
public enum Route: Equatable, Sendable {
    /// `/`: the history page of `--out`, with the check form.
    case historyPage
    /// `/check`: the form, or with `domain=` a check's page.
    case checkPage(CheckQuery?)
    /// A file of `--out`: `/history.json`, `/latest.json`, `/latest.html`, or `/RUN/FILE` of a
    /// kept run. `run` is nil for the top-level files.
    case outputFile(run: RunFolderName?, file: String)
    case apiCheck(CheckQuery)
    case apiLatest
    case apiRuns
    case apiHistory(domain: String?)
    case metrics
    case health
    /// `/api/v1/openapi.json`: the API's own description (`OpenAPIDocument`).
    case apiDescription
    /// `/badge/DOMAIN.svg`, `/badge/DOMAIN.json` (shields.io's endpoint): the domain's newest
    /// sound verdict, for a status page or a README.
    case badge(domain: String, format: BadgeFormat)
    /// `/mcp`: the Model Context Protocol's Streamable HTTP transport (`MCPHTTPEndpoint`): POST
    /// a JSON-RPC message, DELETE a session.
    case mcp

    public enum BadgeFormat: String, Sendable {
        case svg, json
    }

    /// Whether the route needs the token (`--token-file`), when one is set: the API, the
    /// metrics, every path that serves the same data as JSON (`/latest.json`, `/history.json`,
    /// a run's `report.json`), and every path that runs a check (`/check?domain=`). The pages
    /// for people (the history page, the reports' HTML, the empty form) and the health check
    /// stay open.
    /// What `needsToken` guards, in words, for `--token-file`'s help and docs/serve.md.
    public static let tokenScope =
        "/api/v1/ (but its openapi.json), /mcp, /metrics, /check?domain= and the JSON files of \(OptionName.out) (/latest.json, /history.json, a run's report.json)"

    public var needsToken: Bool {
        switch self {
        case .apiCheck, .apiLatest, .apiRuns, .apiHistory, .metrics, .mcp: true
        case .checkPage(let query): query != nil
        case .outputFile(_, let file): file.hasSuffix(".json")
        // A badge shows one word of what the history page shows, for pages anyone may read.
        case .historyPage, .health, .badge: false
        // What the API is, not what it knows: open, as a public API's description is.
        case .apiDescription: false
        }
    }

    /// The longest request target taken (path and query); a longer one is 414.
    public static let maximumTargetBytes = 4096

    /// Routes a request's method and target (`/check?domain=example.com`); a request that asks
    /// for nothing served is refused: 400, 404, 405 or 414, and why.
    public init(method: String, target: String) throws(HTTPError) {
        guard target.utf8.count <= Self.maximumTargetBytes else {
            throw HTTPError(414, "The request target is longer than \(Self.maximumTargetBytes) bytes.")
        }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        // /mcp takes its transport's methods, and answers those it does not serve itself.
        if path == Paths.mcp {
            self = .mcp
            return
        }
        guard method == "GET" || method == "HEAD" else { throw HTTPError(405, "Only GET and HEAD are served.") }
        guard let query = Query(parts.count > 1 ? String(parts[1]) : "") else {
            throw HTTPError(400, "The query is not valid percent-encoding.")
        }
        switch path {
        case Paths.history, Paths.index: self = .historyPage
        case Paths.check: self = .checkPage(CheckQuery(query))
        case Paths.apiCheck:
            guard let check = CheckQuery(query) else {
                throw HTTPError(400, "Give the domain to check: /api/v1/check?domain=example.com")
            }
            self = .apiCheck(check)
        case Paths.apiLatest: self = .apiLatest
        case Paths.apiRuns: self = .apiRuns
        case Paths.apiHistory: self = .apiHistory(domain: query.first("domain").flatMap { $0.isEmpty ? nil : $0 })
        case Paths.metrics: self = .metrics
        case Paths.health: self = .health
        case OpenAPIDocument.path: self = .apiDescription
        case _ where Self.outputFiles.contains { "/" + $0 == path }:
            self = .outputFile(run: nil, file: String(path.dropFirst()))
        case _ where path.hasPrefix(Self.badgePrefix):
            self = try Self.badge(String(path.dropFirst(Self.badgePrefix.count)))
        default:
            // /RUN/FILE: a run folder's name and a report's plain name; nothing else of the disk.
            let pieces = path.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count == 3, pieces[0].isEmpty, let run = RunFolderName(pieces[1]), Self.isFileName(pieces[2])
            else { throw HTTPError(404, "Nothing is served at this path.") }
            self = .outputFile(run: run, file: String(pieces[2]))
        }
    }

    static let badgePrefix = "/badge/"

    /// Every fixed path served: the one place they are spelled, read by `init` and `path`.
    enum Paths {
        static let history = "/"
        /// The history page by the file's own name, as a static host serves `--out`.
        static let index = "/" + OutputFolderLayout.index
        static let check = "/check"
        static let apiCheck = "/api/v1/check"
        static let apiLatest = "/api/v1/latest"
        static let apiRuns = "/api/v1/runs"
        static let apiHistory = "/api/v1/history"
        static let metrics = "/metrics"
        static let health = "/healthz"
        static let mcp = "/mcp"
    }

    /// A run folder's file: `/RUN/FILE`.
    static func runFile(_ run: String, _ file: String) -> String { "/\(run)/\(file)" }

    /// The target that asks for this route: what pages and answers link to (`init` reads it back
    /// as this route).
    public var path: String {
        switch self {
        case .historyPage: Paths.history
        case .checkPage(let query): Paths.check + (query.map { "?" + $0.queryString } ?? "")
        case .outputFile(let run, let file): run.map { Self.runFile($0.description, file) } ?? "/" + file
        case .apiCheck(let query): Paths.apiCheck + "?" + query.queryString
        case .apiLatest: Paths.apiLatest
        case .apiRuns: Paths.apiRuns
        case .apiHistory(let domain): Paths.apiHistory + (domain.map { "?domain=" + Query.encode($0) } ?? "")
        case .metrics: Paths.metrics
        case .health: Paths.health
        case .apiDescription: OpenAPIDocument.path
        case .badge(let domain, let format): Self.badgePrefix + domain + "." + format.rawValue
        case .mcp: Paths.mcp
        }
    }

    /// `DOMAIN.svg` or `DOMAIN.json`: a host name's letters only (the handler reads it as
    /// `check` does).
    static func badge(_ name: String) throws(HTTPError) -> Route {
        guard let dot = name.lastIndex(of: "."),
            let format = BadgeFormat(rawValue: String(name[name.index(after: dot)...]))
        else { throw HTTPError(404, "A badge is /badge/DOMAIN.svg or /badge/DOMAIN.json.") }
        let domain = name[..<dot].lowercased()
        guard (1...253).contains(domain.utf8.count),
            domain.utf8.allSatisfy({
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E
            })
        else { throw HTTPError(404, "Not a domain: a badge is /badge/DOMAIN.svg or /badge/DOMAIN.json.") }
        return .badge(domain: domain, format: format)
    }

    /// The files of a run folder that are served: what the audit writes there.
    static let runFiles = Set(OutputFolderLayout.runReports.map { Substring($0) })
    /// The output folder's own files served at the root.
    static let outputFiles = [OutputFolderLayout.history, OutputFolderLayout.latestJSON, OutputFolderLayout.latestHTML]

    static func isFileName(_ name: Substring) -> Bool { runFiles.contains(name) }
}

/// A check's parameters: `domain` (any form `check` takes: a URL, `applinks:host`), `app-id`
/// (repeatable), and the other association files' own (`AssociationFiles.swift`).
public struct CheckQuery: Equatable, Sendable {
    public var domain: String
    public var appIDs: [String]
    /// The other association files' parameters, by name, in the order given.
    public var more: [String: [String]]
    /// `ios=none`: the domain serves no AASA (as `ios:none` in domains.txt); nil when not given.
    public var ios: String?

    /// At most this many values of each repeatable parameter.
    public static let maximumValues = 20

    public init(domain: String, appIDs: [String] = [], more: [String: [String]] = [:], ios: String? = nil) {
        self.domain = domain
        self.appIDs = appIDs
        self.more = more
        self.ios = ios
    }

    /// Nil without a non-empty domain.
    init?(_ query: Query) {
        guard let domain = query.first("domain")?.trimmingCharacters(in: .whitespaces), !domain.isEmpty else {
            return nil
        }
        self.domain = domain
        appIDs = Array(query.all("app-id").filter { !$0.isEmpty }.prefix(Self.maximumValues))
        ios = query.first("ios").flatMap { $0.isEmpty ? nil : $0 }
        more = [:]
        for name in Self.associationParameters {
            let values = query.all(name).filter { !$0.isEmpty }.prefix(Self.maximumValues)
            if !values.isEmpty { more[name] = Array(values) }
        }
    }

    /// The query string that asks for this check again (for links to its JSON and its page).
    public var queryString: String {
        let pairs =
            [("domain", domain)] + appIDs.map { ("app-id", $0) } + (ios.map { [("ios", $0)] } ?? [])
            + Self.associationParameters.flatMap { name in (more[name] ?? []).map { (name, $0) } }
        return pairs.map { "\($0.0)=\(Query.encode($0.1))" }.joined(separator: "&")
    }
}

/// A decoded `application/x-www-form-urlencoded` query.
struct Query: Equatable {
    var pairs: [(String, String)]

    init?(_ text: String) {
        pairs = []
        for piece in text.split(separator: "&") where !piece.isEmpty {
            let halves = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(halves[0]), let value = Self.decode(halves.count > 1 ? halves[1] : "")
            else { return nil }
            pairs.append((name, value))
        }
    }

    func first(_ name: String) -> String? { pairs.first { $0.0 == name }?.1 }
    func all(_ name: String) -> [String] { pairs.filter { $0.0 == name }.map(\.1) }

    static func == (lhs: Query, rhs: Query) -> Bool {
        lhs.pairs.map(\.0) == rhs.pairs.map(\.0) && lhs.pairs.map(\.1) == rhs.pairs.map(\.1)
    }

    /// `+` is a space; `%XX` a byte; the bytes must be UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// Percent-encodes all but unreserved characters.
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: ":"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}
