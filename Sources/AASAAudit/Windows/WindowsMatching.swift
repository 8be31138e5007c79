import AASAChecks
import AASAFetch
import AASAMatching
import AASAModel
import AASAReport

/// `match --windows PACKAGE_FAMILY_NAME`: what Windows decides for each URL with a
/// `windows-app-web-link`, a local file or the one a domain serves: the app's entries for the
/// URL's host (or its subdomains with `allowSubdomains`), each's `excludePaths` before its
/// `paths`; no pattern leaves the URL in the browser.
public enum WindowsMatching {
    public static func run(_ urls: [String], packageFamilyName: String, against source: URLMatching.Source)
        async throws -> [MatchRecord]
    {
        try URLMatching.validate(urls)
        let (declarations, fileHost) = try await load(source, packageFamilyName: packageFamilyName)
        return urls.map { url in
            let parsed = try! MatchURL.parse(url).get()  // validated above
            let host = fileHost ?? parsed.host
            let decision = WindowsChecks.decide(
                parsed, packageFamilyName: packageFamilyName, declarations: declarations, host: host)
            let rule = decision.entry.map { entry in
                MatchRecord.RuleRecord(
                    path: "[\(entry)].\(decision.exclude ? "excludePaths" : "paths")", entry: entry, index: 0,
                    kind: .paths, exclude: decision.exclude, source: .string(decision.pattern ?? ""))
            }
            let reason =
                switch decision.outcome {
                case .app:
                    "\(decision.pattern ?? "") in entry \(decision.entry ?? 0)'s paths sends it to \(packageFamilyName)."
                case .excluded:
                    "\(decision.pattern ?? "") in entry \(decision.entry ?? 0)'s excludePaths keeps it in the browser (excludePaths are checked first)."
                case .undecided: "Matching was stopped before a pattern decided: its work budget was spent."
                case .none:
                    declarations.entries.contains { $0.packageFamilyName == packageFamilyName }
                        ? "No pattern of \(packageFamilyName)'s entries matches it on \(parsed.host): it stays in the browser."
                        : "The file has no entry for \(packageFamilyName): no URL opens it."
                }
            return MatchRecord(
                url: url, result: decision.outcome, appIDs: decision.outcome == .app ? [packageFamilyName] : [],
                rule: rule, reason: reason + " " + WindowsLimits.refreshNote)
        }
    }

    /// The file's entries, and the host it was served by (nil for a local file not given one).
    static func load(_ source: URLMatching.Source, packageFamilyName: String) async throws -> (
        WindowsDeclarations, String?
    ) {
        switch source {
        case .file(let path, let host):
            let bytes = try BoundedFileReader.read(path, prefix: URLMatching.readLimit).bytes
            let result = WindowsChecks.assessContent(bytes, expected: [], at: .file)
            guard let declarations = result.declarations else {
                let reasons = result.findings.filter { $0.severity == .error }.map(\.message)
                throw URLMatching.UnusableFile(
                    message: "\(path) is not a usable windows-app-web-link: \(reasons.joined(separator: " "))",
                    exitStatus: .usage)
            }
            return (declarations, host)
        case .domain(let domain, let configuration):
            let host = try AuditInput.host(domain)
            let fetcher = try FetcherSetup.make(configuration)
            defer { fetcher.shutdown() }
            let plan = OriginFetchPlan(fetcher: fetcher, domain: host, botUserAgent: nil, browserUserAgent: nil)
            let more = DeadlineFetch(plan: plan, deadline: DomainDeadline())
            var answers: [FetchedLocation] = []
            for request in WindowsAudit(expected: []).requests(domain: host) { answers.append(await more(request)) }
            let result = WindowsChecks.assess(wellKnown: answers[0], root: answers[1], expected: [])
            guard let declarations = result.declarations else {
                let reasons = result.findings.filter { $0.severity == .error }.map(\.message)
                throw URLMatching.UnusableFile(
                    message: "\(host) serves no usable windows-app-web-link: \(reasons.joined(separator: " "))",
                    exitStatus: .failed)
            }
            return (declarations, host)
        }
    }
}
