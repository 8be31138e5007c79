import AASAJSON
import AASAModel

/// Android's `/.well-known/assetlinks.json`, to Google's Digital Asset Links rules
/// (`../shared/docs/assetlinks-rules.md`): served with 200, no redirect, as application/json,
/// within the size cap; its statement list read as Google reads it (`StatementList`), the
/// included lists merged; and each expected app declared for
/// `delegate_permission/common.handle_all_urls` with its signing certificate's fingerprint.
/// Findings are at the `assetlinks` location.
public enum AssetLinksChecks {
    public struct Result: Sendable, Equatable {
        public var findings: [Finding]
        /// What the file (with its includes) declares, when it parsed as a list.
        public var declarations: AndroidDeclarations?
        /// The statements Google keeps, the included lists' too: for `match`.
        public var statements: [StatementList.Statement] = []
    }

    /// An included list, as the audit followed it.
    public struct IncludedFile: Sendable {
        public var url: String
        /// The list that included it (its URL).
        public var includedFrom: String
        /// Its fetch; nil when it was not fetched (`notFetched` says why).
        public var fetched: FetchedLocation?
        public var notFetched: String?

        public init(url: String, includedFrom: String, fetched: FetchedLocation?, notFetched: String? = nil) {
            self.url = url
            self.includedFrom = includedFrom
            self.fetched = fetched
            self.notFetched = notFetched
        }
    }

    /// The relation App Links need.
    public static let handleAllURLs = StatementList.handleAllURLs

    /// Transport: the answer's problems, and its bytes when they can be read as a list.
    public static func served(_ fetched: FetchedLocation, what: String) -> (findings: [Finding], body: [UInt8]?) {
        let record = fetched.record
        if let error = record.error {
            return (error.kind == .skipped ? [] : [LocationChecks.transferFinding(error, at: .assetlinks)], nil)
        }
        guard let status = record.status else { return ([], nil) }
        if (300..<400).contains(status) {
            let target = record.redirectTarget ?? record.headers.location
            return (
                [
                    Finding(
                        .assetLinks(.redirect), .assetlinks,
                        "\(what): HTTP \(status) redirect\(target.map { " to \($0)" } ?? ""). Google's verifier follows no redirect."
                    )
                ], nil
            )
        }
        guard status == 200 else {
            return (
                [Finding(.assetLinks(.status), .assetlinks, "\(what): HTTP \(status); it must be served with 200.")],
                nil
            )
        }
        var findings: [Finding] = []
        let mediaType = record.headers.contentType.map(LocationChecks.mediaType(of:))
        if mediaType != "application/json" {
            findings.append(
                Finding(
                    .assetLinks(.contentType), .assetlinks,
                    "\(what): "
                        + (record.headers.contentType.map { "Content-Type is \($0), not application/json." }
                            ?? "no Content-Type header; serve application/json.")))
        }
        if record.bodyTruncated || record.bodyBytes > AppleLimits.maximumFileBytes {
            findings.append(
                Finding(
                    .assetLinks(.tooLarge), .assetlinks,
                    "\(what) is \(record.bodyTruncated ? "more than " : "")\(record.bodyBytes) bytes; this audit reads at most \(AppleLimits.maximumFileBytes)."
                ))
            return (findings, nil)
        }
        return (findings, fetched.body)
    }

    /// The fetched file and the lists it includes (as the audit followed them).
    public static func assess(
        _ fetched: FetchedLocation, included: [IncludedFile] = [], expected: [AndroidApp]
    ) -> Result {
        let main = served(fetched, what: "assetlinks.json")
        guard let body = main.body else { return Result(findings: main.findings) }
        let list = StatementList.parse(body)
        var findings = main.findings + findingsOf(list, in: nil, at: .assetlinks, offline: false)
        var statements = list.statements
        var failed: [(url: String, why: String)] = []
        for file in included {
            let label = "included \(file.url.prefix(300)) (from \(file.includedFrom.prefix(300)))"
            guard let fetched = file.fetched else {
                failed.append((file.url, file.notFetched ?? "not fetched"))
                continue
            }
            let transport = served(fetched, what: "The " + label)
            guard let bytes = transport.body else {
                // Its problem, under the include's own code.
                findings += transport.findings.filter { $0.severity != .error }
                failed.append(
                    (file.url, transport.findings.first { $0.severity == .error }?.message ?? "it could not be read"))
                continue
            }
            findings += transport.findings.map {
                $0.severity == .error ? Finding(.assetLinks(.includeFailed), .assetlinks, $0.message) : $0
            }
            let secure = file.url.lowercased().hasPrefix("https:")
            let sub = StatementList.parse(bytes, secure: secure)
            if sub.problems.contains(where: { $0.effect == .rejectsFile }) {
                failed.append((file.url, sub.problems.first { $0.effect == .rejectsFile }?.message ?? "not a list"))
                continue
            }
            findings += findingsOf(sub, in: file.url, at: .assetlinks, offline: false)
            statements += sub.statements
        }
        let declarations = AndroidDeclarations(statements: statements, includes: list.includes.map(\.url))
        let missing = missingPackages(expected, declarations: declarations)
        for failure in failed {
            let lost =
                missing.isEmpty
                ? ""
                : " The input's \(missing.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") then not declared."
            findings.append(
                Finding(
                    .assetLinks(.includeFailed), .assetlinks,
                    "The included list \(failure.url.prefix(300)) is not used: \(failure.why) Its statements do not count.\(lost)"
                ))
        }
        findings += expectationFindings(expected, declarations: declarations, at: .assetlinks)
        return Result(findings: bounded(findings), declarations: declarations, statements: statements)
    }

    /// The file's bytes alone (a local file for `lint`, which does not fetch its includes).
    public static func assessContent(_ bytes: [UInt8], expected: [AndroidApp], at location: FindingLocation) -> Result {
        let list = StatementList.parse(bytes)
        var findings = findingsOf(list, in: nil, at: location, offline: true)
        guard !list.problems.contains(where: { $0.effect == .rejectsFile }) else {
            // The apps it then declares to no one are said, linked to why, as the audit says
            // them of a served file (one judge).
            let none = AndroidDeclarations(statements: [], includes: [])
            return Result(findings: bounded(findings + expectationFindings(expected, declarations: none, at: location)))
        }
        let declarations = AndroidDeclarations(statements: list.statements, includes: list.includes.map(\.url))
        findings += expectationFindings(expected, declarations: declarations, at: location)
        return Result(findings: bounded(findings), declarations: declarations, statements: list.statements)
    }

    /// Findings per file past which the rest are counted in one.
    public static let maximumFindings = 60

    /// At most `maximumFindings`, the apps a rejected file or list loses linked to why
    /// (`Finding.causedBy`): one cause, one headline.
    static func bounded(_ all: [Finding]) -> [Finding] {
        var findings = all
        let rejections: Set<FindingCode> = [
            .assetLinks(.jsonInvalid), .assetLinks(.notList), .assetLinks(.includeFailed),
        ]
        if let cause = findings.first(where: { rejections.contains($0.code) && $0.severity == .error }) {
            for index in findings.indices
            where [.assetLinks(.packageMissing), .assetLinks(.fingerprintMissing)].contains(findings[index].code) {
                findings[index].causedBy = FindingCause(cause)
            }
        }
        guard findings.count > maximumFindings else { return findings }
        // The findings not listed are summed up under the code and severity of the worst of
        // them: the verdict stays what they make it, at a severity their code's catalog entry has.
        let cut = findings.dropFirst(maximumFindings - 1)
        var summary = cut.max { $0.severity < $1.severity } ?? cut[cut.startIndex]
        summary.message = "… and \(cut.count) more findings about assetlinks.json, not listed."
        summary.position = nil
        summary.causedBy = nil
        return Array(findings.prefix(maximumFindings - 1)) + [summary]
    }

    static func findingsOf(
        _ list: StatementList, in includedFile: String?, at location: FindingLocation, offline: Bool
    ) -> [Finding] {
        let prefix = includedFile.map { "In the included \($0.prefix(300)): " } ?? ""
        var findings = list.problems.map { problem -> Finding in
            let place = problem.place.isEmpty ? "" : "\(problem.place): "
            let message = prefix + place + problem.message
            var finding =
                problem.severityCase.map { Finding(problem.code, $0, location, message) }
                ?? Finding(problem.code, location, message)
            // An included list's places are in that list, not in this file.
            if includedFile == nil { finding.position = problem.position }
            return finding
        }
        if offline {
            var seen: Set<String> = []
            for include in list.includes where seen.insert(include.url).inserted {
                findings.append(
                    Finding(
                        .assetLinks(.include), .includeNotFollowedOffline, location,
                        "[\(include.index)] includes \(include.url.prefix(300)); lint does not fetch it (audit and check follow it)."
                    ))
            }
        }
        return findings
    }

    /// `delegate_permission/common.get_login_creds`: what shares a site's passkeys and
    /// passwords with its Android app (Credential Manager).
    public static let getLoginCreds = "delegate_permission/common.get_login_creds"

    /// For a domain that declares passkeys (`sharesLogins`): each expected app the file declares
    /// must be given `get_login_creds` (an app it does not declare at all is already said). The
    /// audit and `lint` both ask this (one judge, issue 55).
    public static func loginSharingFindings(
        _ expected: [AndroidApp], declarations: AndroidDeclarations?, sharesLogins: Bool, at location: FindingLocation
    ) -> [Finding] {
        guard sharesLogins, let declarations else { return [] }
        return expected.compactMap { app in
            guard let declared = declarations.apps.first(where: { $0.package == app.package }),
                !declared.relations.contains(getLoginCreds)
            else { return nil }
            return Finding(
                .assetLinks(.loginCreds), location,
                "\(app.package) is declared for \(declared.relations.joined(separator: ", ")), not for \(getLoginCreds): the domain declares passkeys, and Credential Manager offers them in the app only with it."
            )
        }
    }

    static func missingPackages(_ expected: [AndroidApp], declarations: AndroidDeclarations) -> [String] {
        expected.filter { app in
            !declarations.apps.contains { $0.package == app.package && $0.relations.contains(handleAllURLs) }
        }.map(\.package)
    }

    static func expectationFindings(
        _ expected: [AndroidApp], declarations: AndroidDeclarations, at location: FindingLocation
    ) -> [Finding] {
        var findings: [Finding] = []
        for app in expected {
            guard let declared = declarations.apps.first(where: { $0.package == app.package }) else {
                findings.append(
                    Finding(
                        .assetLinks(.packageMissing), location,
                        "No statement Google's parser keeps declares \(app.package)."))
                continue
            }
            // Declared, but for another relation (credentials sharing, passkeys): its own code.
            guard declared.relations.contains(handleAllURLs) else {
                let relations = declared.relations.isEmpty ? "no relation" : declared.relations.joined(separator: ", ")
                findings.append(
                    Finding(
                        .assetLinks(.relation), location,
                        "\(app.package) is declared only for \(relations), not for \(handleAllURLs): its App Links are not verified (common.get_login_creds shares credentials and passkeys; it does not open links)."
                    ))
                continue
            }
            if let fingerprint = app.fingerprint, !declared.fingerprints.contains(fingerprint) {
                findings.append(
                    Finding(
                        .assetLinks(.fingerprintMissing), location,
                        "\(app.package) is declared with \(declared.fingerprints.joined(separator: ", ")), not with \(fingerprint). If that is the upload key's fingerprint, add the app signing key's from the Play Console (App integrity, App signing)."
                    ))
            }
        }
        return findings
    }
}

extension AndroidDeclarations {
    /// Distinct include URLs a record lists.
    public static let maximumListedIncludes = 10

    /// The apps of the statements, merged by package in order of appearance.
    init(statements: [StatementList.Statement], includes: [String]) {
        var distinct: [String] = []
        for url in includes where !distinct.contains(url) && distinct.count < Self.maximumListedIncludes {
            distinct.append(url)
        }
        self.init(includes: distinct)
        for statement in statements {
            guard case .androidApp(let package, let fingerprints) = statement.target else { continue }
            add(
                package: package, fingerprints: fingerprints, relations: statement.relations,
                dynamicRules: statement.dynamicRules?.components.count)
        }
    }

    /// Adds a statement's app, merging with an earlier statement for the same package.
    mutating func add(package: String, fingerprints: [String], relations: [String], dynamicRules: Int?) {
        if let index = apps.firstIndex(where: { $0.package == package }) {
            for fingerprint in fingerprints where !apps[index].fingerprints.contains(fingerprint) {
                apps[index].fingerprints.append(fingerprint)
            }
            for relation in relations where !apps[index].relations.contains(relation) {
                apps[index].relations.append(relation)
            }
            if let dynamicRules { apps[index].dynamicRules = (apps[index].dynamicRules ?? 0) + dynamicRules }
        } else {
            apps.append(
                App(package: package, fingerprints: fingerprints, relations: relations, dynamicRules: dynamicRules))
        }
    }
}
