import AASAChecks
import AASAFetch
import AASAJSON
import AASAMatching
import AASAModel
import AASAReport

/// `match`: which app opens each URL, against a local file or the file a domain serves.
public enum URLMatching {
    /// Where the file comes from.
    public enum Source: Sendable {
        /// A local file, as if served by `host` (nil: each URL's own host).
        case file(path: String, host: String?)
        /// The file `domain` serves at `.well-known`, fetched first.
        case domain(String, FetcherConfiguration)
    }

    /// Why the URLs could not be matched: the file is unusable.
    public struct UnusableFile: UserFacingError {
        public var message: String
        public var exitStatus: ExitStatus
    }

    /// Larger local files are not read past this (a valid file is at most 128 KB).
    public static let readLimit = 1 << 20

    /// Checks that every URL parses, before anything is read or fetched.
    public static func validate(_ urls: [String]) throws(InputError) {
        for url in urls {
            if case .failure(let error) = MatchURL.parse(url) { throw InputError("\"\(url)\" \(error.reason).") }
        }
    }

    public static func run(_ urls: [String], against source: Source) async throws -> [MatchRecord] {
        try validate(urls)
        let (file, servingHost) = try await load(source)
        return urls.map { url in
            let parsed = try! MatchURL.parse(url).get()  // validated above
            let matcher = Matcher(file: file, domain: servingHost ?? parsed.host)
            let decision = matcher.decide(parsed)
            // No rule decided: which came closest, and what it failed on.
            let nearest = decision.outcome == .none ? matcher.nearestRule(to: parsed) : nil
            return MatchRecord(url: url, decision: decision, nearest: nearest)
        }
    }

    static func load(_ source: Source) async throws -> (JSONObject, String?) {
        switch source {
        case .file(let path, let host):
            let normalisedHost = try host.map { host throws(InputError) in try AuditInput.host(host) }
            let bytes = try BoundedFileReader.read(path, prefix: readLimit).bytes
            // A signed file is matched on its content (its signature is lint's business).
            let opened = SignedFileOpener(caFile: nil).open(bytes, host: nil)
            if let opened, opened.content == nil {
                throw UnusableFile(
                    message:
                        "\(path) is a signed file that cannot be opened: \(opened.signature.problem ?? "no content").",
                    exitStatus: .usage)
            }
            return (try object(from: opened?.content ?? bytes, describedAs: path), normalisedHost)
        case .domain(let domain, let configuration):
            let host = try AuditInput.host(domain)
            let fetcher = try FetcherSetup.make(configuration)
            let url = AASALocation.wellKnown.url(on: host)
            let fetched = SignedFileOpener(configuration).unwrap(
                await fetcher.fetch(FetchRequest(url: url, location: .wellKnown, closeConnection: true)), host: host)
            fetcher.shutdown()
            let assessment = LocationChecks.assess(fetched)
            guard let file = assessment.file else {
                let reasons = assessment.findings.filter { $0.severity == .error }.map(\.message)
                throw UnusableFile(
                    message: "\(url) serves no usable file: \(reasons.joined(separator: " "))", exitStatus: .failed)
            }
            return (file, host)
        }
    }

    static func object(from bytes: [UInt8], describedAs name: String) throws(UnusableFile) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw UnusableFile(message: "\(name) is not valid JSON: \(error.description).", exitStatus: .usage)
        }
        guard case .object(let object) = value else {
            throw UnusableFile(message: "\(name) is not a JSON object.", exitStatus: .usage)
        }
        return object
    }
}

/// `match --expect`: how each URL must be decided, a CI guard for the URLs a team cares about.
public enum MatchExpectation: Sendable, Equatable {
    /// Opens an app, any app.
    case app
    /// Stays in the browser: excluded, or no rule matches.
    case browser
    /// Opens this app.
    case appID(String)

    /// `app`, `browser`, or an app ID (`TEAMID.bundle.id`, or another platform's app name).
    public init?(_ text: String) {
        switch text {
        case "app": self = .app
        case "browser": self = .browser
        case let id where id.contains(".") && !id.contains(where: \.isWhitespace): self = .appID(id)
        default: return nil
        }
    }

    /// Whether the URL was decided as expected.
    public func holds(for record: MatchRecord) -> Bool {
        switch self {
        case .app: record.result == .app
        case .browser: record.result == .excluded || record.result == .none
        case .appID(let id): record.result == .app && record.appIDs.first == id
        }
    }

    /// What was expected and what happened, for a URL it does not hold for.
    public func mismatch(_ record: MatchRecord) -> String {
        let expected =
            switch self {
            case .app: "to open an app"
            case .browser: "to stay in the browser"
            case .appID(let id): "to open \(id)"
            }
        let got =
            switch record.result {
            case .app: "it opens \(record.appIDs.first ?? "an app")"
            case .excluded, .none: "it stays in the browser (\(record.reason))"
            case .undecided: "it was not decided (\(record.reason))"
            }
        return "\(record.url): expected \(expected), but \(got)"
    }
}
