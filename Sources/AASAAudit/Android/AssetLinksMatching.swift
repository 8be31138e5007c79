import AASAChecks
import AASAFetch
import AASAJSON
import AASAMatching
import AASAModel
import AASAReport

/// `match --android PACKAGE`: what Android 15's dynamic rules in `assetlinks.json` decide for
/// each URL, against a local file or the file a domain serves (its includes followed). The
/// first component that matches decides; `exclude` keeps the URL in the browser; no match, or
/// no rules, leaves it to the app's manifest, which bounds every rule and is not seen here: the
/// answer is then `undecided`, never a guess.
public enum AssetLinksMatching {
    public static let manifestNote =
        "The app's manifest bounds the scope (a rule cannot widen its intent filters) and is not seen here."

    public static func run(_ urls: [String], app: AndroidApp, against source: URLMatching.Source) async throws
        -> [MatchRecord]
    {
        try URLMatching.validate(urls)
        let statements = try await load(source, app: app)
        let own = statements.filter { statement in
            guard case .androidApp(let package, let fingerprints) = statement.target,
                statement.relations.contains(StatementList.handleAllURLs), package == app.package
            else { return false }
            return app.fingerprint.map(fingerprints.contains) ?? true
        }
        return urls.map { url in
            let parsed = try! MatchURL.parse(url).get()  // validated above
            return decide(url, parsed, app: app, statements: own)
        }
    }

    static func decide(_ url: String, _ parsed: MatchURL, app: AndroidApp, statements: [StatementList.Statement])
        -> MatchRecord
    {
        guard !statements.isEmpty else {
            return MatchRecord(
                url: url, result: .none, appIDs: [], rule: nil,
                reason:
                    "assetlinks.json does not declare \(app) for \(StatementList.handleAllURLs): its App Links are not verified, and no URL opens it."
            )
        }
        for statement in statements {
            guard let rules = statement.dynamicRules else { continue }
            let record = { (component: DynamicAppLinkRules.Component) in
                MatchRecord.RuleRecord(
                    path:
                        "[\(statement.index)].relation_extensions[\"\(StatementList.handleAllURLs)\"].dynamic_app_link_components[\(component.index)]",
                    entry: statement.index, index: component.index, kind: .components, exclude: component.exclude,
                    source: component.source)
            }
            switch rules.decide(parsed) {
            case .app(let component):
                return MatchRecord(
                    url: url, result: .app, appIDs: [app.package], rule: record(component),
                    reason: "Dynamic rule \(component.index) sends it to \(app.package). \(manifestNote)")
            case .excluded(let component):
                return MatchRecord(
                    url: url, result: .excluded, appIDs: [], rule: record(component),
                    reason: "Dynamic rule \(component.index) excludes it: it stays in the browser. \(manifestNote)")
            case .none:
                continue
            case .undecided:
                return MatchRecord(
                    url: url, result: .undecided, appIDs: [], rule: nil,
                    reason:
                        "Matching was stopped before a dynamic rule decided: its work budget was spent (rules or a URL built to be slow to match). Nothing is known of this URL."
                )
            }
        }
        // Nothing here decides: the manifest's intent filters do, and they are not seen. Saying
        // "stays in the browser" would be a guess (`--expect browser` would pass on it).
        let hasRules = statements.contains { $0.dynamicRules != nil }
        return MatchRecord(
            url: url, result: .undecided, appIDs: [], rule: nil,
            reason: hasRules
                ? "No dynamic rule matches it, so they leave it to the app's manifest, which decides and is not seen here: undecided."
                : "\(app.package) has no dynamic rules: the app's manifest alone decides, and it is not seen here: undecided."
        )
    }

    static func load(_ source: URLMatching.Source, app: AndroidApp) async throws -> [StatementList.Statement] {
        switch source {
        case .file(let path, _):
            let bytes = try BoundedFileReader.read(path, prefix: URLMatching.readLimit).bytes
            let result = AssetLinksChecks.assessContent(bytes, expected: [app], at: .file)
            if result.declarations == nil {
                let reasons = result.findings.filter { $0.severity == .error }.map(\.message)
                throw URLMatching.UnusableFile(
                    message: "\(path) is not a usable assetlinks.json: \(reasons.joined(separator: " "))",
                    exitStatus: .usage)
            }
            return result.statements
        case .domain(let domain, let configuration):
            let host = try AuditInput.host(domain)
            let fetcher = try FetcherSetup.make(configuration)
            defer { fetcher.shutdown() }
            let plan = OriginFetchPlan(fetcher: fetcher, domain: host, botUserAgent: nil, browserUserAgent: nil)
            let audit = AssetLinksAudit(expected: [app])
            let more = DeadlineFetch(plan: plan, deadline: DomainDeadline())
            let main = await more(audit.requests(domain: host)[0])
            let included = await audit.follow(from: main, more: more)
            let result = AssetLinksChecks.assess(main, included: included, expected: [app])
            guard result.declarations != nil else {
                let reasons = result.findings.filter { $0.severity == .error }.map(\.message)
                throw URLMatching.UnusableFile(
                    message:
                        "\(AASALocation.assetlinks.url(on: host)) serves no usable file: \(reasons.joined(separator: " "))",
                    exitStatus: .failed)
            }
            return result.statements
        }
    }
}
