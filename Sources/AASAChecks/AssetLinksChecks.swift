import AASAJSON
import AASAModel

/// Android's `/.well-known/assetlinks.json`, to Google's Digital Asset Links rules
/// (`../shared/docs/assetlinks-rules.md`): served with 200, no redirect, as application/json,
/// strict JSON, a non-empty array of well-formed statements, and each expected app declared for
/// `delegate_permission/common.handle_all_urls` with its signing certificate's fingerprint.
/// Findings are at the `assetlinks` location.
public enum AssetLinksChecks {
    public struct Result: Sendable, Equatable {
        public var findings: [Finding]
        /// What the file declares, when it parsed as a list.
        public var declarations: AndroidDeclarations?
    }

    /// The relation App Links need.
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    /// The fetched file: transport first, then the content.
    public static func assess(_ fetched: FetchedLocation, expected: [AndroidApp]) -> Result {
        let record = fetched.record
        if let error = record.error {
            return Result(
                findings: error.kind == .skipped ? [] : [LocationChecks.transferFinding(error, at: .assetlinks)])
        }
        guard let status = record.status else { return Result(findings: []) }
        if (300..<400).contains(status) {
            let target = record.redirectTarget ?? record.headers.location
            return Result(findings: [
                Finding(
                    .assetlinksRedirect, .assetlinks,
                    "HTTP \(status) redirect\(target.map { " to \($0)" } ?? ""). Google's verifier follows no redirect."
                )
            ])
        }
        guard status == 200 else {
            return Result(findings: [
                Finding(.assetlinksStatus, .assetlinks, "HTTP \(status); the file must be served with 200.")
            ])
        }
        var findings: [Finding] = []
        let mediaType = record.headers.contentType?.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingASCIIWhitespace().lowercased()
        }
        if mediaType != "application/json" {
            findings.append(
                Finding(
                    .assetlinksContentType, .assetlinks,
                    record.headers.contentType.map { "Content-Type is \($0), not application/json." }
                        ?? "No Content-Type header; serve application/json."))
        }
        if record.bodyTruncated || record.bodyBytes > AppleLimits.maximumFileBytes {
            findings.append(
                Finding(
                    .assetlinksTooLarge, .assetlinks,
                    "The file is \(record.bodyTruncated ? "more than " : "")\(record.bodyBytes) bytes; this audit reads at most \(AppleLimits.maximumFileBytes)."
                ))
            return Result(findings: findings)
        }
        let content = assessContent(fetched.body, expected: expected, at: .assetlinks)
        return Result(findings: findings + content.findings, declarations: content.declarations)
    }

    /// Distinct include URLs reported per file; the rest are counted in one finding.
    public static let maximumIncludes = 10

    /// The file's bytes (served, or a local file for `lint`).
    public static func assessContent(_ bytes: [UInt8], expected: [AndroidApp], at location: FindingLocation) -> Result {
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(bytes)
        } catch {
            return Result(findings: [
                Finding(
                    .assetlinksJSONInvalid, location, "Not valid JSON: \(JSONDiagnosis.describe(error, in: bytes)).")
            ])
        }
        guard case .array(let statements) = parsed, !statements.isEmpty else {
            let what = parsed.arrayValue != nil ? "an empty array" : ContentChecks.article(parsed.typeName)
            return Result(findings: [
                Finding(.assetlinksNotList, location, "The top level is \(what), not a non-empty array of statements.")
            ])
        }
        var findings: [Finding] = []
        var declarations = AndroidDeclarations()
        var listed = 0
        var includeStatements = 0
        func report(_ code: FindingCode, _ message: String) {
            // A file of thousands of broken statements gets a bounded report.
            listed += 1
            if listed <= 50 { findings.append(Finding(code, location, message)) }
        }
        for (index, statement) in statements.enumerated() {
            let place = "[\(index)]"
            guard case .object(let object) = statement else {
                report(
                    .assetlinksStatement,
                    "\(place) is \(ContentChecks.article(statement.typeName)), not a statement object.")
                continue
            }
            if let include = object["include"] {
                if case .string(let url) = include {
                    // Bounded like every repeated key: the first few distinct URLs, then a count.
                    includeStatements += 1
                    if declarations.includes.count < maximumIncludes, !declarations.includes.contains(url) {
                        declarations.includes.append(url)
                        findings.append(
                            Finding(
                                .assetlinksInclude, location,
                                "\(place) includes \(url.prefix(300)); that file is not followed by this audit."))
                    }
                } else {
                    report(
                        .assetlinksStatement,
                        "\(place).include is \(ContentChecks.article(include.typeName)), not a URL string.")
                }
                continue
            }
            let relations = relations(of: object, at: place, report: report)
            guard case .object(let target)? = object["target"] else {
                report(.assetlinksStatement, "\(place) has no target object.")
                continue
            }
            switch target["namespace"]?.stringValue {
            case "android_app":
                guard let package = target["package_name"]?.stringValue, !package.isEmpty else {
                    report(.assetlinksStatement, "\(place).target has no package_name string.")
                    continue
                }
                guard case .array(let values)? = target["sha256_cert_fingerprints"], !values.isEmpty else {
                    report(
                        .assetlinksStatement,
                        "\(place).target (\(package)) has no non-empty sha256_cert_fingerprints array.")
                    continue
                }
                var fingerprints: [String] = []
                for (position, value) in values.enumerated() {
                    guard case .string(let fingerprint) = value else {
                        report(
                            .assetlinksFingerprint,
                            "\(place).target.sha256_cert_fingerprints[\(position)] is \(ContentChecks.article(value.typeName)), not a string."
                        )
                        continue
                    }
                    if let problem = CertificateFingerprint.problem(with: fingerprint) {
                        report(
                            .assetlinksFingerprint,
                            "\(place).target.sha256_cert_fingerprints[\(position)] \"\(fingerprint.prefix(120))\" \(problem)."
                        )
                    }
                    fingerprints.append(fingerprint)
                }
                declarations.add(package: package, fingerprints: fingerprints, relations: relations)
            case "web":
                if target["site"]?.stringValue == nil {
                    report(.assetlinksStatement, "\(place).target (web) has no site string.")
                }
            case let other:
                report(
                    .assetlinksStatement,
                    "\(place).target.namespace is \(other.map { "\"\($0)\"" } ?? "missing"); Android knows android_app and web."
                )
            }
        }
        if listed > 50 {
            findings.append(
                Finding(.assetlinksStatement, location, "… and \(listed - 50) more malformed statements, not listed."))
        }
        if includeStatements > declarations.includes.count {
            let more = includeStatements - declarations.includes.count
            findings.append(
                Finding(
                    .assetlinksInclude, location,
                    "… and \(more) more include statements (repeated, or past the first \(maximumIncludes) URLs), not listed."
                ))
        }
        findings += expectationFindings(expected, declarations: declarations, at: location)
        return Result(findings: findings, declarations: declarations)
    }

    static func relations(of statement: JSONObject, at place: String, report: (FindingCode, String) -> Void) -> [String]
    {
        guard case .array(let values)? = statement["relation"], !values.isEmpty else {
            report(
                .assetlinksRelation,
                "\(place).relation is \(statement["relation"].map { ContentChecks.article($0.typeName) } ?? "missing"), not a non-empty array of kind/detail strings."
            )
            return []
        }
        var relations: [String] = []
        for (position, value) in values.enumerated() {
            guard case .string(let relation) = value, isRelation(relation) else {
                report(
                    .assetlinksRelation,
                    "\(place).relation[\(position)] is not a kind/detail string such as \(handleAllURLs).")
                continue
            }
            relations.append(relation)
        }
        return relations
    }

    /// `kind/detail`, each part of `[a-z0-9_.]+`.
    static func isRelation(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2
            && parts.allSatisfy { part in
                !part.isEmpty
                    && part.allSatisfy {
                        ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "."
                    }
            }
    }

    static func expectationFindings(
        _ expected: [AndroidApp], declarations: AndroidDeclarations, at location: FindingLocation
    ) -> [Finding] {
        var findings: [Finding] = []
        for app in expected {
            guard let declared = declarations.apps.first(where: { $0.package == app.package }) else {
                findings.append(Finding(.assetlinksPackageMissing, location, "No statement declares \(app.package)."))
                continue
            }
            // Declared, but for another relation (credentials sharing, passkeys): its own code.
            guard declared.relations.contains(handleAllURLs) else {
                let relations = declared.relations.isEmpty ? "no relation" : declared.relations.joined(separator: ", ")
                findings.append(
                    Finding(
                        .assetlinksRelation, location,
                        "\(app.package) is declared only for \(relations), not for \(handleAllURLs): its App Links are not verified (common.get_login_creds shares credentials and passkeys; it does not open links)."
                    ))
                continue
            }
            if let fingerprint = app.fingerprint, !declared.fingerprints.contains(fingerprint) {
                findings.append(
                    Finding(
                        .assetlinksFingerprintMissing, location,
                        "\(app.package) is declared with \(declared.fingerprints.joined(separator: ", ")), not with \(fingerprint). If that is the upload key's fingerprint, add the app signing key's from the Play Console (App integrity, App signing)."
                    ))
            }
        }
        return findings
    }
}

extension AndroidDeclarations {
    /// Adds a statement's app, merging with an earlier statement for the same package.
    mutating func add(package: String, fingerprints: [String], relations: [String]) {
        if let index = apps.firstIndex(where: { $0.package == package }) {
            for fingerprint in fingerprints where !apps[index].fingerprints.contains(fingerprint) {
                apps[index].fingerprints.append(fingerprint)
            }
            for relation in relations where !apps[index].relations.contains(relation) {
                apps[index].relations.append(relation)
            }
        } else {
            apps.append(App(package: package, fingerprints: fingerprints, relations: relations))
        }
    }
}
