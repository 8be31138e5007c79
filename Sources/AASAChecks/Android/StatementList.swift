import AASAJSON
import AASAModel

/// An `assetlinks.json` statement list read as Google's Digital Asset Links parser reads it,
/// rule for rule as its compatibility suite (`google/digitalassetlinks`,
/// `compatibility-tests/v1/2000-web-statement-list-parsing`) tests it: what it keeps, and every
/// problem with what Google does about it. Pure: the bytes in, the list out.
public struct StatementList: Sendable, Equatable {
    public enum Target: Sendable, Equatable, Hashable {
        case androidApp(package: String, fingerprints: [String])
        /// `scheme://host[:port]`, normalised: lower case, no trailing dot, no default port.
        case web(site: String)
    }

    /// A statement Google keeps.
    public struct Statement: Sendable, Equatable {
        public var index: Int
        public var relations: [String]
        public var target: Target
        /// Android 15's dynamic rules for `handle_all_urls`, when the statement has them and they
        /// are usable (`DynamicAppLinkRules`).
        public var dynamicRules: DynamicAppLinkRules?
    }

    /// An `include` directive Google follows.
    public struct Include: Sendable, Equatable {
        public var index: Int
        public var url: String
    }

    /// What Google does with a problem.
    public enum Effect: Sendable, Equatable {
        /// The whole file gives no statements.
        case rejectsFile
        /// Google reports an error and skips the statement; the others still count.
        case skipsStatement
        /// The statement counts; Android discards its dynamic rules.
        case dropsDynamicRules
        /// Nothing Google reports; worth knowing.
        case notice
    }

    public struct Problem: Sendable, Equatable {
        public var code: FindingCode
        public var effect: Effect
        /// Where: `[2] /2/target/site (line 5, column 13)`, or empty for the file.
        public var place: String
        public var message: String
        /// The catalog's named case of another severity, when the problem is one; nil: the
        /// code's own severity.
        public var severityCase: SeverityCase? = nil
        /// The same place as data: its pointer, line and column.
        public var position: FilePosition? = nil
    }

    public var statements: [Statement] = []
    public var includes: [Include] = []
    public var problems: [Problem] = []
    /// Whether Google answers with an error for this list (its API's `FETCH_ERROR`).
    public var googleReportsError: Bool {
        problems.contains { $0.effect == .rejectsFile || $0.effect == .skipsStatement }
    }

    /// Statements past this many are not read (a hostile file of millions of statements); the
    /// 128 KB cap bounds it first in practice.
    public static let maximumStatements = 10_000

    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"
    /// The keys of a statement Android reads (`exclude` has its own notice).
    static let statementKeys: Set<String> = ["relation", "target", "relation_extensions", "include", "exclude"]

    /// Whether a statement grants `relation` to `target`: Google's check.
    public func grants(relation: String, to target: Target) -> Bool {
        statements.contains { statement in
            guard statement.relations.contains(relation) else { return false }
            switch (statement.target, target) {
            case (.androidApp(let package, let fingerprints), .androidApp(let wanted, let wantedFingerprints)):
                return package == wanted && wantedFingerprints.allSatisfy(fingerprints.contains)
            case (.web(let site), .web(let wanted)):
                return site == WebSite.normalized(wanted).site
            default:
                return false
            }
        }
    }

    /// Parses bytes served at (or included from) a URL; `secure` is false only for a list
    /// fetched over plain HTTP (which may then include HTTP lists).
    public static func parse(_ bytes: [UInt8], secure: Bool = true) -> StatementList {
        func rejected(_ code: FindingCode, _ message: String) -> StatementList {
            StatementList(problems: [Problem(code: code, effect: .rejectsFile, place: "", message: message)])
        }
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(bytes)
        } catch {
            return rejected(
                .assetLinks(.jsonInvalid),
                "Not valid JSON: \(JSONDiagnosis.describe(error, in: bytes, reader: "Google's parser")). Google's parser rejects the whole file."
            )
        }
        guard case .array(let elements) = parsed else {
            return rejected(
                .assetLinks(.notList),
                "The top level is \(ContentChecks.article(parsed.typeName)), not an array of statements. Google's parser rejects the whole file: wrap the statement in [ ]."
            )
        }
        guard !elements.isEmpty else {
            return rejected(
                .assetLinks(.notList),
                "The statement list is empty: Google finds no statements (\"No statements were found\").")
        }
        var list = StatementList()
        let reader = Reader(bytes: bytes, positions: JSONLocator.Index(bytes), secure: secure)
        for (index, element) in elements.prefix(maximumStatements).enumerated() {
            reader.read(element, at: index, into: &list)
        }
        if elements.count > maximumStatements {
            list.problems.append(
                Problem(
                    code: .assetLinks(.statement), effect: .notice, place: "",
                    message:
                        "The list has \(elements.count) statements; the first \(maximumStatements) were read.",
                    severityCase: .readInPart))
        }
        return list
    }

    struct Reader {
        let bytes: [UInt8]
        /// Where each statement starts: a position costs its statement's bytes.
        let positions: JSONLocator.Index
        let secure: Bool

        func position(_ index: Int, _ path: [JSONLocator.Step] = []) -> FilePosition {
            let steps = [JSONLocator.Step.index(index)] + path
            let position = positions.locate(steps)
            return FilePosition(pointer: JSONLocator.pointer(steps), line: position?.line, column: position?.column)
        }
        func place(_ index: Int, _ path: [JSONLocator.Step] = []) -> String {
            let at = position(index, path)
            return "[\(index)] \(at.pointer ?? "")\(at.line.map { " (line \($0), column \(at.column ?? 1))" } ?? "")"
        }

        func read(_ element: JSONValue, at index: Int, into list: inout StatementList) {
            func skip(_ code: FindingCode, _ path: [JSONLocator.Step], _ why: String, losing package: String? = nil) {
                let lost = package.map { ", and with it \($0)'s declaration" } ?? ""
                list.problems.append(
                    Problem(
                        code: code, effect: .skipsStatement, place: place(index, path),
                        message: "\(why) Google's parser reports an error and skips this statement\(lost).",
                        position: position(index, path)))
            }
            guard case .object(let statement) = element else {
                skip(
                    .assetLinks(.statement), [],
                    "The statement is \(ContentChecks.article(element.typeName)), not an object.")
                return
            }
            let package = statement["target"]?.objectValue?["package_name"]?.stringValue
            if let include = statement["include"] {
                if let kept = readInclude(include, in: statement, at: index, package: package, skip: skip) {
                    list.includes.append(kept)
                }
                return
            }
            list.problems += notices(statement, at: index)
            guard let target = statement["target"] else {
                skip(.assetLinks(.statement), [], "The statement has no target (\"no target specified\").")
                return
            }
            guard let relationValue = statement["relation"] else {
                skip(
                    .assetLinks(.relation), [],
                    "The statement has no relation array (\"no relation array specified\"); App Links need [\"\(handleAllURLs)\"].",
                    losing: package)
                return
            }
            guard let relations = readRelations(relationValue, at: index, package: package, skip: skip) else { return }
            guard case .object(let descriptor) = target else {
                skip(
                    .assetLinks(.statement), [.key("target")],
                    "The target is \(ContentChecks.article(target.typeName)), not an object (an asset descriptor).")
                return
            }
            guard let parsedTarget = readTarget(descriptor, at: index, skip: skip) else { return }
            var kept = Statement(index: index, relations: relations, target: parsedTarget)
            if let extensions = statement["relation_extensions"] {
                let rules = DynamicAppLinkRules.read(
                    extensions, relations: relations, at: { path in place(index, [.key("relation_extensions")] + path) }
                )
                kept.dynamicRules = rules.rules
                list.problems += rules.problems
            }
            list.statements.append(kept)
        }

        /// What Android ignores in a statement, said: an `exclude` object beside the target, and
        /// keys it does not know (what they were meant to limit is not limited).
        func notices(_ statement: JSONObject, at index: Int) -> [Problem] {
            var problems: [Problem] = []
            if let exclude = statement["exclude"], exclude.objectValue != nil || exclude.arrayValue != nil {
                problems.append(
                    Problem(
                        code: .assetLinks(.dynamicRules), effect: .notice, place: place(index, [.key("exclude")]),
                        message:
                            "An \"exclude\" object beside the target is not Android's syntax (it circulates in blog posts): Android ignores it, so nothing is excluded. \(DynamicAppLinkRules.syntax)",
                        severityCase: .dynamicRulesNotice, position: position(index, [.key("exclude")])))
            }
            for key in statement.keys where !StatementList.statementKeys.contains(key) {
                problems.append(
                    Problem(
                        code: .assetLinks(.unknownKey), effect: .notice, place: place(index, [.key(key)]),
                        message:
                            "Unknown key \"\(key.prefix(80))\": Android ignores it, so it limits nothing; every URL the app's manifest accepts opens the app.",
                        position: position(index, [.key(key)])))
            }
            return problems
        }

        /// The asset descriptor: an Android app, or a web site; nil (skipped) for anything else.
        func readTarget(
            _ descriptor: JSONObject, at index: Int,
            skip: (FindingCode, [JSONLocator.Step], String, String?) -> Void
        ) -> Target? {
            switch descriptor["namespace"]?.stringValue {
            case "android_app":
                return readApp(descriptor, at: index, skip: skip)
            case "web":
                guard case .string(let site)? = descriptor["site"] else {
                    skip(
                        .assetLinks(.statement), [.key("target")],
                        "The web target has no site string (\"no site field\"); write \"site\": \"https://host\".", nil)
                    return nil
                }
                let checked = WebSite.normalized(site)
                guard let normalized = checked.site else {
                    skip(
                        .assetLinks(.site), [.key("target"), .key("site")],
                        "The site \"\(site.prefix(200))\" \(checked.problem ?? "is not a URL"). Write it as scheme://host[:port] only, e.g. \"\(checked.suggestion)\".",
                        nil)
                    return nil
                }
                return .web(site: normalized)
            case let other:
                skip(
                    .assetLinks(.statement), [.key("target"), .key("namespace")],
                    "The target's namespace is \(other.map { "\"\($0.prefix(80))\"" } ?? "missing") (\"unrecognized namespace\"); Google knows android_app and web.",
                    nil)
                return nil
            }
        }

        func readInclude(
            _ include: JSONValue, in statement: JSONObject, at index: Int, package: String?,
            skip: (FindingCode, [JSONLocator.Step], String, String?) -> Void
        ) -> Include? {
            let standard = ["relation", "target", "relation_extensions"].filter { statement[$0] != nil }
            guard standard.isEmpty else {
                if include.objectValue != nil || include.arrayValue != nil {
                    skip(
                        .assetLinks(.dynamicRules), [.key("include")],
                        "\"include\" holding path rules beside \(standard.joined(separator: " and ")) is a shape blog posts give for Android 15 rules, not Android's syntax: an include directive admits no other standard field (\"invalid field\"). \(DynamicAppLinkRules.syntax)",
                        package)
                } else {
                    skip(
                        .assetLinks(.include), [.key("include")],
                        "An include directive admits no other standard field (\"invalid field\"), and this statement also has \(standard.joined(separator: " and ")). Put the include in a statement of its own.",
                        package)
                }
                return nil
            }
            guard case .string(let url) = include else {
                skip(
                    .assetLinks(.include), [.key("include")],
                    "The include is \(ContentChecks.article(include.typeName)), not a URL string.", nil)
                return nil
            }
            switch IncludeURL.check(url, fromSecure: secure) {
            case .success(let checked): return Include(index: index, url: checked)
            case .failure(let problem):
                skip(
                    .assetLinks(.include), [.key("include")], "The include URL \"\(url.prefix(200))\" \(problem.text).",
                    nil)
                return nil
            }
        }

        func readRelations(
            _ value: JSONValue, at index: Int, package: String?,
            skip: (FindingCode, [JSONLocator.Step], String, String?) -> Void
        ) -> [String]? {
            guard case .array(let values) = value else {
                skip(
                    .assetLinks(.relation), [.key("relation")],
                    "The relation is \(ContentChecks.article(value.typeName)), not an array (\"not an array\"): write [\"\(handleAllURLs)\"].",
                    package)
                return nil
            }
            guard !values.isEmpty else {
                skip(.assetLinks(.relation), [.key("relation")], "The relation array is empty.", package)
                return nil
            }
            var relations: [String] = []
            for (position, value) in values.enumerated() {
                guard case .string(let relation) = value else {
                    skip(
                        .assetLinks(.relation), [.key("relation"), .index(position)],
                        "The relation is \(ContentChecks.article(value.typeName)), not a string (\"invalid relation\").",
                        package)
                    return nil
                }
                if let problem = RelationString.problem(relation) {
                    skip(
                        .assetLinks(.relation), [.key("relation"), .index(position)],
                        "The relation \"\(relation.prefix(120))\" \(problem); a relation is kind/detail of lower-case letters, digits, _ and ., such as \(handleAllURLs).",
                        package)
                    return nil
                }
                relations.append(relation)
            }
            return relations
        }

        func readApp(
            _ descriptor: JSONObject, at index: Int,
            skip: (FindingCode, [JSONLocator.Step], String, String?) -> Void
        ) -> Target? {
            guard let packageValue = descriptor["package_name"] else {
                skip(
                    .assetLinks(.statement), [.key("target")],
                    "The android_app target has no package_name (\"no package_name field\").", nil)
                return nil
            }
            guard case .string(let package) = packageValue, AndroidPackageName.isValid(package) else {
                let shown =
                    packageValue.stringValue.map { "\"\($0.prefix(120))\"" }
                    ?? ContentChecks.article(packageValue.typeName)
                skip(
                    .assetLinks(.statement), [.key("target"), .key("package_name")],
                    "The package_name \(shown) is not a package name (\"invalid package name\"): dot-separated Java identifiers, e.g. com.example.app.",
                    nil)
                return nil
            }
            let path: [JSONLocator.Step] = [.key("target"), .key("sha256_cert_fingerprints")]
            guard let fingerprintsValue = descriptor["sha256_cert_fingerprints"] else {
                skip(
                    .assetLinks(.fingerprint), [.key("target")], "\(package) has no sha256_cert_fingerprints array.",
                    package)
                return nil
            }
            guard case .array(let values) = fingerprintsValue else {
                skip(
                    .assetLinks(.fingerprint), path,
                    "\(package)'s sha256_cert_fingerprints is \(ContentChecks.article(fingerprintsValue.typeName)), not an array (\"not an array\").",
                    package)
                return nil
            }
            guard !values.isEmpty else {
                skip(
                    .assetLinks(.fingerprint), path,
                    "\(package)'s sha256_cert_fingerprints is empty (\"must contain at least one certificate\").",
                    package)
                return nil
            }
            guard let fingerprints = readFingerprints(values, of: package, at: path, skip: skip) else { return nil }
            return .androidApp(package: package, fingerprints: fingerprints)
        }

        /// Each fingerprint a string Google reads as a SHA-256; nil (skipped) at the first that is not.
        func readFingerprints(
            _ values: [JSONValue], of package: String, at path: [JSONLocator.Step],
            skip: (FindingCode, [JSONLocator.Step], String, String?) -> Void
        ) -> [String]? {
            var fingerprints: [String] = []
            for (position, value) in values.enumerated() {
                guard case .string(let fingerprint) = value else {
                    skip(
                        .assetLinks(.fingerprint), path + [.index(position)],
                        "The fingerprint is \(ContentChecks.article(value.typeName)), not a string.", package)
                    return nil
                }
                if let problem = CertificateFingerprint.problem(with: fingerprint) {
                    let fix = CertificateFingerprint.normalized(fingerprint).map { " Write it \($0)." } ?? ""
                    skip(
                        .assetLinks(.fingerprint), path + [.index(position)],
                        "The fingerprint \"\(fingerprint.prefix(120))\" \(problem) (\"malformed cert\").\(fix)", package
                    )
                    return nil
                }
                fingerprints.append(fingerprint)
            }
            return fingerprints
        }
    }
}

/// Relation strings as Google reads them: `kind/detail`, each of `[a-z0-9_.]+`.
public enum RelationString {
    /// Why a text is not a relation (as a phrase), or nil.
    public static func problem(_ text: String) -> String? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return "is not of the form kind/detail (\"Invalid relation string\")" }
        func valid(_ part: Substring) -> Bool {
            !part.isEmpty
                && part.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "." }
        }
        if !valid(parts[0]) { return "has an invalid kind \"\(parts[0].prefix(60))\" (\"Invalid 'kind' field\")" }
        if !valid(parts[1]) { return "has an invalid detail \"\(parts[1].prefix(60))\" (\"Invalid 'detail' field\")" }
        return nil
    }
}

/// A `web` target's `site` as Google accepts it: an `http` or `https` URL with a host, no login
/// information, no path (not even `/`), no query, no fragment, a port in range. The scheme's
/// and host's case, a trailing dot and an explicit default port do not matter.
public enum WebSite {
    public struct Checked: Sendable, Equatable {
        /// Normalised, when valid.
        public var site: String?
        public var problem: String?
        /// What to write instead (the same URL without what is wrong).
        public var suggestion: String
    }

    public static func normalized(_ text: String) -> Checked {
        switch URLParts.split(text) {
        case .failure(let problem):
            return Checked(site: nil, problem: problem.text, suggestion: "https://example.com")
        case .success(let parts):
            let suggestion = parts.origin
            if parts.rest.hasPrefix("/") {
                return Checked(
                    site: nil, problem: "has a path (\"cannot contain a path\", not even /)", suggestion: suggestion)
            }
            if parts.rest.hasPrefix("?") {
                return Checked(site: nil, problem: "has query parameters", suggestion: suggestion)
            }
            if parts.rest.hasPrefix("#") {
                return Checked(site: nil, problem: "has a fragment identifier", suggestion: suggestion)
            }
            return Checked(site: parts.origin, problem: nil, suggestion: suggestion)
        }
    }
}

/// An `include` directive's URL: an `http` or `https` URL (with any path); from a list served
/// over HTTPS, HTTPS only ("Insecure URL in fetch stack of secure asset").
public enum IncludeURL {
    public static func check(_ text: String, fromSecure secure: Bool) -> Result<String, IncludeURLProblem> {
        switch URLParts.split(text) {
        case .failure(let problem): return .failure(problem)
        case .success(let parts):
            if secure, parts.scheme == "http" {
                return .failure(
                    IncludeURLProblem(
                        text:
                            "is plain HTTP, included from a list served over HTTPS: Google refuses it (\"Insecure URL in fetch stack of secure asset\"); serve it over https"
                    ))
            }
            return .success(text)
        }
    }
}

public struct IncludeURLProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var description: String { text }
}

/// An absolute `http`/`https` URL cut into its origin and the rest.
enum URLParts {
    struct Parts {
        var scheme: String
        /// `scheme://host[:port]`, lower case, no trailing dot, no default port.
        var origin: String
        /// From the first `/`, `?` or `#` after the authority.
        var rest: Substring
    }

    static func split(_ text: String) -> Result<Parts, IncludeURLProblem> {
        // Refused whole, never cut at the NUL and the prefix fetched in its name.
        guard !text.utf8.contains(0) else {
            return .failure(
                IncludeURLProblem(text: "holds a NUL character (U+0000), which no URL can (\"not a valid URL\")"))
        }
        guard let colon = text.firstIndex(of: ":"),
            text[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            text[..<colon].first?.isLetter == true
        else {
            return .failure(IncludeURLProblem(text: "has no scheme (\"Invalid site\"): it must start with https://"))
        }
        let scheme = text[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else {
            return .failure(
                IncludeURLProblem(text: "is a \(scheme.prefix(20)): URL, not http or https (\"non-HTTP URL\")"))
        }
        let afterColon = text[text.index(after: colon)...]
        guard afterColon.hasPrefix("//") else {
            return .failure(IncludeURLProblem(text: "has no //host after \(scheme): (\"not a valid URL\")"))
        }
        let authorityAndRest = afterColon.dropFirst(2)
        let end = authorityAndRest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? authorityAndRest.endIndex
        let authority = authorityAndRest[..<end]
        if authority.contains("@") {
            return .failure(IncludeURLProblem(text: "has login information (user@ or user:password@)"))
        }
        var host = Substring(authority)
        var port: Int?
        if let portColon = authority.lastIndex(of: ":"), !authority[portColon...].contains("]") {
            host = authority[..<portColon]
            let digits = authority[authority.index(after: portColon)...]
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ ("0"..."9").contains($0) }),
                let value = Int(digits), value <= 65535
            else {
                return .failure(
                    IncludeURLProblem(text: "has an invalid port \"\(digits.prefix(12))\" (\"not a valid URL\")"))
            }
            port = value
        }
        var lowered = host.lowercased()
        if lowered.hasSuffix("."), lowered.count > 1 { lowered.removeLast() }
        guard !lowered.isEmpty, !lowered.contains(where: { $0.isWhitespace || $0 == "\\" || $0 == "%" }) else {
            return .failure(IncludeURLProblem(text: "has no valid host (\"not a valid URL\")"))
        }
        let defaultPort = scheme == "https" ? 443 : 80
        let origin = "\(scheme)://\(lowered)" + (port.map { $0 == defaultPort ? "" : ":\($0)" } ?? "")
        return .success(Parts(scheme: scheme, origin: origin, rest: authorityAndRest[end...]))
    }
}
