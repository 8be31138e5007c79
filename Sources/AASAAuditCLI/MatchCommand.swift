import AASAAudit
import AASAChecks
import AASAFetch
import AASAJSON
import AASAMatching
import AASAModel
import AASAReport
import ArgumentParser
import DomainList
import Foundation

/// `aasa-audit match`: which app opens a URL, and which rule decided.
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Say which app opens each URL, as iOS would decide it, and which rule decided.",
        discussion: """
            aasa-audit match --file FILE [--domain HOST] URL...   (a local file, as if served by HOST; by default each URL's host)
            aasa-audit match DOMAIN URL...                        (the file DOMAIN serves at /.well-known/, fetched first)
            """
    )

    @Option(help: ArgumentHelp("A local association file to match against, instead of fetching one.", valueName: "file"))
    var file: String?

    @Option(help: ArgumentHelp("With --file: the host the file is served by (default: each URL's own host).", valueName: "host"))
    var domain: String?

    @Argument(help: "With --file: the URLs. Without: the domain, then the URLs.")
    var arguments: [String]

    @Flag(help: "Print a JSON array, one object per URL, in argument order.")
    var json = false

    @OptionGroup var fetch: FetchOptions

    func validate() throws {
        if file == nil {
            guard arguments.count >= 2 else { throw ValidationError("Give a domain and at least one URL, or --file FILE and URLs.") }
            if domain != nil { throw ValidationError("--domain goes with --file; without it the first argument is the domain.") }
        } else if arguments.isEmpty {
            throw ValidationError("Give at least one URL to match.")
        }
        for url in urls {
            if case .failure(let error) = MatchURL.parse(url) { throw ValidationError("\"\(url)\" \(error.reason).") }
        }
    }

    var urls: [String] { file == nil ? Array(arguments.dropFirst()) : arguments }
}

extension MatchCommand {
    func run() async throws {
        let (fileObject, servingHost) = try await loadFile()
        var records: [MatchRecord] = []
        for url in urls {
            let parsed = try MatchURL.parse(url).get()
            let host = servingHost ?? parsed.host
            records.append(MatchRecord(url: url, decision: Matcher(file: fileObject, domain: host).decide(parsed)))
        }
        if json {
            let data = try JSONReport.makeEncoder(pretty: true).encode(records)
            Terminal.print(String(decoding: data, as: UTF8.self) + "\n")
        } else {
            Terminal.print(TerminalReport(colour: Terminal.colourOnStandardOutput).matches(records))
        }
    }

    /// The file to match against, and the host that serves it (nil: each URL's host).
    func loadFile() async throws -> (JSONObject, String?) {
        if let file {
            let bytes: [UInt8]
            switch LintCommand.read(file) {
            case .success(let (read, _)): bytes = read
            case .failure(let error):
                Terminal.printError("aasa-audit: \(error.description)\n")
                throw ExitStatus.usage
            }
            let host = try domain.map(Self.normalise)
            return (try Self.object(from: bytes, describedAs: file), host)
        }
        let host = try Self.normalise(arguments[0])
        let fetcher = try fetch.makeFetcher()
        let url = DomainAuditor.url(host, .wellKnown)
        let fetched = await fetcher.fetch(FetchRequest(url: url, location: .wellKnown, closeConnection: true))
        fetcher.shutdown()
        let assessment = LocationChecks.assess(fetched)
        guard let file = assessment.file else {
            let reasons = assessment.findings.filter { $0.severity == .error }.map(\.message)
            Terminal.printError("aasa-audit: \(url) serves no usable file: \(reasons.joined(separator: " "))\n")
            throw ExitStatus.failed
        }
        return (file, host)
    }

    static func normalise(_ host: String) throws -> String {
        switch HostName.normalize(host) {
        case .success(let normalised): return normalised
        case .failure(let error): throw ValidationError("\"\(host)\" \(error.reason).")
        }
    }

    static func object(from bytes: [UInt8], describedAs name: String) throws -> JSONObject {
        do {
            guard case .object(let object) = try JSONParser.parse(bytes) else {
                Terminal.printError("aasa-audit: \(name) is not a JSON object.\n")
                throw ExitStatus.usage
            }
            return object
        } catch let error as JSONParseError {
            Terminal.printError("aasa-audit: \(name) is not valid JSON: \(error.description).\n")
            throw ExitStatus.usage
        }
    }
}
