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
            return MatchRecord(
                url: url, decision: Matcher(file: file, domain: servingHost ?? parsed.host).decide(parsed))
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
            let url = DomainAuditor.url(host, .wellKnown)
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
