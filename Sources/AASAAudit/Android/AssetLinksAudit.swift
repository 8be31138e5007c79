import AASAChecks
import AASAFetch
import AASAModel

/// `assetlinks.json` in an audit: one request on the domain's connection, then its `include`
/// directives followed breadth-first with the same rules as the file itself (HTTPS, no
/// redirect, 200, JSON, the size cap, the address policy, the domain's deadline), at most
/// `AssetLinksLimits.maximumIncludeDepth` levels and `maximumIncludedFiles` files, each URL once.
struct AssetLinksAudit: AssociationFileAudit {
    let expected: [AndroidApp]
    /// The host's scope in the app's manifest (`--android-manifest`), to judge dynamic rules by.
    var manifestScope: AndroidManifest.HostScope?
    /// The domain declares passkeys: each expected app needs `get_login_creds` too.
    var sharesLogins = false

    func requests(domain: String) -> [FetchRequest] {
        [FetchRequest(url: AASALocation.assetlinks.url(on: domain), location: .assetlinks, closeConnection: true)]
    }

    func audit(_ answers: [FetchedLocation], more: DeadlineFetch) async -> AssociationOutcome {
        guard let main = answers.first else { return AssociationOutcome() }
        let included = await follow(from: main, more: more)
        let result = AssetLinksChecks.assess(main, included: included, expected: expected)
        var findings =
            result.findings
            + AssetLinksChecks.loginSharingFindings(
                expected, declarations: result.declarations, sharesLogins: sharesLogins, at: .assetlinks)
        if let manifestScope {
            for statement in result.statements {
                guard case .androidApp(let package, _) = statement.target,
                    expected.contains(where: { $0.package == package }), let rules = statement.dynamicRules
                else { continue }
                findings += AndroidManifestScope.findings(rules: rules, package: package, scope: manifestScope)
            }
        }
        return AssociationOutcome(
            findings: findings,
            fetches: [main.record] + included.compactMap { $0.fetched?.record },
            records: AssociationRecords(expectedAndroidApps: expected.map(\.description), android: result.declarations))
    }

    /// The included lists, in the order they were met. A list included twice (from two
    /// lists) is read once; one that includes itself, directly or not, is a cycle.
    func follow(from main: FetchedLocation, more: DeadlineFetch) async -> [AssetLinksChecks.IncludedFile] {
        struct Pending {
            var url: String
            /// The lists above it, from assetlinks.json down.
            var chain: [String]
        }
        var files: [AssetLinksChecks.IncludedFile] = []
        var fetchedURLs: Set<String> = []
        var level = Self.includes(of: main).map { Pending(url: $0, chain: [main.record.url]) }
        while !level.isEmpty {
            var next: [Pending] = []
            for pending in level {
                let from = pending.chain.last ?? ""
                func notFetched(_ why: String) {
                    files.append(.init(url: pending.url, includedFrom: from, fetched: nil, notFetched: why))
                }
                if pending.chain.contains(pending.url) {
                    notFetched(
                        "the includes form a cycle (\((pending.chain + [pending.url]).joined(separator: " → "))); Google stops too (\"Fetch budget exhausted\")."
                    )
                    continue
                }
                guard fetchedURLs.insert(pending.url).inserted else { continue }
                guard pending.chain.count <= AssetLinksLimits.maximumIncludeDepth else {
                    notFetched(
                        "it is \(pending.chain.count) includes deep; this audit follows \(AssetLinksLimits.maximumIncludeDepth) levels."
                    )
                    continue
                }
                guard fetchedURLs.count <= AssetLinksLimits.maximumIncludedFiles else {
                    notFetched(
                        "the domain's lists already include \(AssetLinksLimits.maximumIncludedFiles) files, the most this audit follows."
                    )
                    continue
                }
                let fetched = await more(FetchRequest(url: pending.url, location: .assetlinks, closeConnection: true))
                files.append(.init(url: pending.url, includedFrom: from, fetched: fetched))
                next += Self.includes(of: fetched).map { Pending(url: $0, chain: pending.chain + [pending.url]) }
            }
            level = next
        }
        return files
    }

    /// The include URLs of a fetched list that Google follows (none when it is not usable).
    static func includes(of fetched: FetchedLocation) -> [String] {
        guard AssetLinksChecks.served(fetched, what: "").body != nil else { return [] }
        let secure = fetched.record.url.lowercased().hasPrefix("https:")
        var distinct: [String] = []
        for include in StatementList.parse(fetched.body, secure: secure).includes where !distinct.contains(include.url)
        {
            distinct.append(include.url)
        }
        return distinct
    }
}

extension AndroidWant: AuditedWant {
    func audit(within wants: AssociationWants) -> any AssociationFileAudit {
        AssetLinksAudit(expected: apps, manifestScope: manifestScope, sharesLogins: wants.declaresPasskeys)
    }
}
