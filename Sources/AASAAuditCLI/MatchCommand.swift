import AASAAudit
import AASAModel
import AASAReport
import ArgumentParser

/// `aasa-audit match`: which app opens a URL, and which rule decided.
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match", abstract: "Say which app opens each URL, as iOS would decide it, and which rule decided.",
        discussion: """
            aasa-audit match --file FILE [--domain HOST] URL...   (a local file, as if served by HOST; by default each URL's host)
            aasa-audit match DOMAIN URL...                        (the file DOMAIN serves at /.well-known/, fetched first)
            aasa-audit match URL...                               (the file the URLs' host serves, as check URL reads it)

            """ + AssociationAppOptions.matchDiscussion)

    @Option(
        help: ArgumentHelp("A local association file to match against, instead of fetching one.", valueName: "file"))
    var file: String?
    @Option(
        help: ArgumentHelp(
            "With --file: the host the file is served by (default: each URL's own host).", valueName: "host"))
    var domain: String?
    @Argument(help: "With --file: the URLs. Without: the domain, then the URLs.") var arguments: [String]
    @Flag(
        name: .customLong(OptionName.json.rawValue), help: "Print a JSON array, one object per URL, in argument order.")
    var json = false
    @Option(
        help: ArgumentHelp(
            "Exit 1 unless every URL is decided this way: app (opens an app), browser (stays in the browser) or an app ID (opens that app). A CI guard for the URLs a team cares about.",
            valueName: "app|browser|APPID"))
    var expect: String?
    @OptionGroup var otherFiles: AssociationAppOptions
    @OptionGroup var fetch: FetchOptions

    /// `match URL...`: no domain first; the URLs' host is it, as `check URL` reads a URL.
    var urlsAlone: Bool { file == nil && arguments.first?.contains("://") == true }

    func validate() throws {
        if file == nil, !urlsAlone, arguments.count < 2 {
            throw ValidationError("Give a domain and at least one URL, or URLs of one host, or --file FILE and URLs.")
        }
        if urlsAlone {
            let hosts = Set(arguments.map { try? AuditInput.pastedHost($0).host })
            guard hosts.count == 1, hosts.first! != nil else {
                throw ValidationError(
                    "URLs of more than one host: give the domain first (match DOMAIN URL...), or --file FILE.")
            }
        }
        if file == nil, domain != nil {
            throw ValidationError("--domain goes with --file; without it the first argument is the domain.")
        }
        if file != nil, arguments.isEmpty { throw ValidationError("Give at least one URL to match.") }
        do { try URLMatching.validate(urls) } catch { throw ValidationError(error.message) }
        try otherFiles.validateForMatch()
        if let expect, MatchExpectation(expect) == nil {
            throw ValidationError("--expect must be app, browser or an app ID (TEAMID.bundle.id), not '\(expect)'.")
        }
    }

    var urls: [String] { file == nil && !urlsAlone ? Array(arguments.dropFirst()) : arguments }

    func run() async throws {
        let host = urlsAlone ? try AuditInput.pastedHost(arguments[0]).host : arguments[0]
        let source: URLMatching.Source =
            file.map { .file(path: $0, host: domain) } ?? .domain(host, fetch.configuration(concurrency: 1))
        let records = try await otherFiles.match(urls, against: source)
        let console = StandardConsole()
        console.print(json ? try prettyJSON(records) : TerminalReport(colour: console.colour).matches(records))
        guard let expectation = expect.flatMap(MatchExpectation.init) else { return }
        let wrong = records.filter { !expectation.holds(for: $0) }
        wrong.forEach { console.printError("aasa-audit: \(TerminalReport.clean(expectation.mismatch($0)))\n") }
        try endCommand(with: wrong.isEmpty ? .success : .failed)
    }
}
