import AASAJSON
import AASAModel
import PublicSuffix

/// `/.well-known/webauthn`, read to the letter of the clients: Chromium's
/// `WebAuthRequestSecurityChecker::RemoteValidation` (the fetch, the exact content type, 256 KiB,
/// `ValidateWellKnownJSON`) and Firefox's `WebAuthnRelatedOriginFetcher.sys.mjs`. Findings are
/// at the `webauthn` location; what a browser answers a caller origin is `result(of:for:)`.
public enum WebAuthnChecks {
    /// What Chromium answers a passkey request from an origin under this RP ID
    /// (`blink::mojom::AuthenticatorStatus`).
    public enum ClientResult: String, Sendable {
        case success = "SUCCESS"
        case attemptedFetch = "BAD_RELYING_PARTY_ID_ATTEMPTED_FETCH"
        case wrongContentType = "BAD_RELYING_PARTY_ID_WRONG_CONTENT_TYPE"
        case parseError = "BAD_RELYING_PARTY_ID_JSON_PARSE_ERROR"
        case noMatch = "BAD_RELYING_PARTY_ID_NO_JSON_MATCH"
        case noMatchHitLimits = "BAD_RELYING_PARTY_ID_NO_JSON_MATCH_HIT_LIMITS"

        public var allowsTheOrigin: Bool { self == .success }
    }

    /// One entry of `origins` as a client reads it, in order.
    public enum Entry: Sendable, Equatable {
        /// An origin that counts: its label (the first of its registrable domain) and whether a
        /// new label past the fifth dropped it.
        case origin(WebOrigin, written: String, label: String, dropped: Bool)
        /// Skipped silently: not a URL, or no registrable domain.
        case skipped(written: String, why: String)
        /// Not a string: Chromium stops here.
        case notString(index: Int, type: String)
    }

    /// The file's `origins`, read as Chromium reads them; nil when it is not an object with an
    /// `origins` array (a parse error to every client).
    public static func entries(of json: JSONValue) -> [Entry]? {
        guard case .object(let object) = json, case .array(let items)? = object["origins"] else { return nil }
        var labels: [String] = []
        var entries: [Entry] = []
        for (index, item) in items.enumerated() {
            guard case .string(let written) = item else {
                entries.append(.notString(index: index, type: item.typeName))
                break
            }
            guard let origin = WebOrigin(written) else {
                entries.append(.skipped(written: written, why: "it is not a URL with a host"))
                continue
            }
            guard !origin.host.hasPrefix("["), let label = RegistrableDomain.label(of: origin.host) else {
                entries.append(.skipped(written: written, why: "\(origin.host) has no registrable domain"))
                continue
            }
            let known = labels.contains(label)
            let dropped = !known && labels.count >= WebAuthnLimits.maximumLabels
            if !known && !dropped { labels.append(label) }
            entries.append(.origin(origin, written: written, label: label, dropped: dropped))
        }
        return entries
    }

    /// What Chromium answers `caller` for this JSON (`ValidateWellKnownJSON`).
    public static func result(of json: JSONValue, for caller: WebOrigin) -> ClientResult {
        guard let entries = entries(of: json) else { return .parseError }
        var hitLimits = false
        for entry in entries {
            switch entry {
            case .notString: return .parseError
            case .skipped: continue
            case .origin(_, _, _, dropped: true): hitLimits = true
            case .origin(let origin, _, _, dropped: false): if origin == caller { return .success }
            }
        }
        return hitLimits ? .noMatchHitLimits : .noMatch
    }

    /// What Chromium answers `caller` for a served answer: the fetch, the type, the JSON.
    public static func result(of fetched: FetchedLocation, for caller: WebOrigin) -> ClientResult {
        let record = fetched.record
        guard record.error == nil, record.status == 200, !record.bodyTruncated,
            record.bodyBytes <= WebAuthnLimits.maximumBodyBytes
        else { return .attemptedFetch }
        guard record.headers.contentType.map(LocationChecks.mediaType(of:)) == "application/json" else {
            return .wrongContentType
        }
        guard let json = try? JSONParser.parse(withoutByteOrderMark(fetched.body)) else { return .parseError }
        return result(of: json, for: caller)
    }

    /// The audit of the file a client ends at (after `hops`, the https redirects followed), with
    /// the origins the input expects.
    /// - Parameter optional: read because the domain declares passkeys, with no origin expected:
    ///   a site that serves none (404) gets a note, since one origin needs no file.
    public static func assess(
        _ fetched: FetchedLocation, hops: [FetchRecord] = [], expected: [String], optional: Bool = false
    ) -> (findings: [Finding], declarations: WebAuthnDeclarations?) {
        var findings = redirectFindings(hops)
        if let failed = findings.first(where: { $0.severity == .error }) {
            return (findings + missing(expected, because: .attemptedFetch, detail: failed.message), nil)
        }
        let record = fetched.record
        if let error = record.error {
            guard error.kind != .skipped else { return (findings, nil) }
            findings.append(LocationChecks.transferFinding(error, at: .webauthn))
            return (findings + missing(expected, because: .attemptedFetch, detail: error.message), nil)
        }
        guard let status = record.status else { return (findings, nil) }
        if optional, expected.isEmpty, status == 404 || status == 410 {
            let absent = "No /.well-known/webauthn (HTTP \(status)): no other origin may use this RP ID's passkeys."
            return (findings + [Finding(.webAuthn(.absent), .webauthn, absent)], nil)
        }
        guard status == 200 else {
            let finding = Finding(
                .webAuthn(.status), .webauthn,
                "/.well-known/webauthn answered HTTP \(status)\(hops.isEmpty ? "" : " after \(hops.count) redirect\(hops.count == 1 ? "" : "s")"); it must be 200."
            )
            return (findings + [finding] + missing(expected, because: .attemptedFetch, detail: finding.message), nil)
        }
        if record.bodyTruncated || record.bodyBytes > WebAuthnLimits.maximumBodyBytes {
            let finding = Finding(
                .webAuthn(.tooLarge), .webauthn,
                "/.well-known/webauthn is \(record.bodyTruncated ? "more than " : "")\(record.bodyBytes) bytes; browsers read at most \(WebAuthnLimits.maximumBodyBytes)."
            )
            return (findings + [finding] + missing(expected, because: .attemptedFetch, detail: finding.message), nil)
        }
        let mediaType = record.headers.contentType.map(LocationChecks.mediaType(of:))
        guard mediaType == "application/json" else {
            let finding = Finding(
                .webAuthn(.contentType), .webauthn,
                record.headers.contentType.map { "Content-Type is \($0.prefix(200)), not application/json." }
                    ?? "No Content-Type header; browsers need application/json.")
            return (findings + [finding] + missing(expected, because: .wrongContentType, detail: finding.message), nil)
        }
        let assessed = assessContent(fetched.body, expected: expected, at: .webauthn)
        return (findings + assessed.findings, assessed.declarations)
    }

    /// The file's content, wherever it came from (`lint` reads a local file at `.file`).
    public static func assessContent(_ bytes: [UInt8], expected: [String], at location: FindingLocation) -> (
        findings: [Finding], declarations: WebAuthnDeclarations?
    ) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(withoutByteOrderMark(bytes))
        } catch {
            let finding = Finding(.webAuthn(.jsonInvalid), location, "Not valid JSON: \(error.description).")
            return ([finding] + missing(expected, because: .parseError, detail: finding.message, at: location), nil)
        }
        guard let entries = entries(of: json) else {
            let finding = Finding(
                .webAuthn(.shape), location,
                json.objectValue == nil
                    ? "The file is a JSON \(json.typeName), not an object with \"origins\"."
                    : "The object has no \"origins\" array.")
            return ([finding] + missing(expected, because: .parseError, detail: finding.message, at: location), nil)
        }
        var findings: [Finding] = []
        let unknown = json.objectValue?.members.map(\.key).filter { $0 != "origins" } ?? []
        if !unknown.isEmpty {
            findings.append(
                Finding(
                    .webAuthn(.unknownKey), location,
                    "Keys besides \"origins\": \(unknown.prefix(10).map { "\"\($0.prefix(80))\"" }.joined(separator: ", ")); browsers ignore them."
                ).at(.key(unknown[0])))
        }
        if entries.isEmpty {
            findings.append(
                Finding(.webAuthn(.originsEmpty), location, "\"origins\" is empty: no other origin may use the RP ID.")
                    .at(.key("origins")))
        }
        findings += entryFindings(entries, at: location)
        let declarations = WebAuthnDeclarations(
            origins: entries.compactMap {
                if case .origin(let origin, _, _, false) = $0 { return origin.serialized } else { return nil }
            },
            labels: entries.reduce(into: []) { labels, entry in
                if case .origin(_, _, let label, false) = entry, !labels.contains(label) { labels.append(label) }
            },
            dropped: entries.compactMap {
                if case .origin(_, let written, _, true) = $0 { return written } else { return nil }
            })
        if let none = noOrigin(entries, declarations: declarations, at: location) { findings.append(none) }
        for origin in expected {
            guard let caller = WebOrigin(origin) else { continue }
            let result = result(of: json, for: caller)
            guard !result.allowsTheOrigin else { continue }
            findings.append(
                Finding(
                    .webAuthn(.originMissing), location,
                    "\(origin) cannot use this RP ID's passkeys: \(why(result)) (Chromium: \(result.rawValue))."))
        }
        return (FindingPositions.place(findings, in: withoutByteOrderMark(bytes)), declarations)
    }

    /// A file with entries none of which a browser can use allows no origin: its failure.
    static func noOrigin(_ entries: [Entry], declarations: WebAuthnDeclarations, at location: FindingLocation)
        -> Finding?
    {
        guard !entries.isEmpty, declarations.origins.isEmpty else { return nil }
        return Finding(
            .webAuthn(.noOrigin), location,
            "None of the \(entries.count) entries is an origin a browser can use (each is said above): the file allows no other origin, and Chromium refuses every request from another origin for this RP ID."
        ).at(.key("origins"))
    }

    /// The body as browsers parse it: Chromium's JSON reader (and Firefox's, after decoding the
    /// UTF-8) skips a UTF-8 byte-order mark before the JSON.
    static func withoutByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }

    /// What to write instead of a skipped entry, when it is a host written without its scheme
    /// that would be read as an origin with one (`login.example.com` → `https://login.example.com`).
    /// An entry that has a scheme (`https://localhost`) is skipped for its host: no advice.
    static func suggestion(for written: String) -> WebOrigin? {
        guard !written.contains("://"), let origin = WebOrigin("https://" + written),
            !origin.host.hasPrefix("["), RegistrableDomain.label(of: origin.host) != nil
        else { return nil }
        return origin
    }

    static func entryFindings(_ entries: [Entry], at location: FindingLocation) -> [Finding] {
        var findings: [Finding] = []
        // An entry stands at its place in "origins" (`entries(of:)` keeps their order).
        for (place, entry) in entries.enumerated() {
            switch entry {
            case .notString(let index, let type):
                findings.append(
                    Finding(
                        .webAuthn(.entryType), location,
                        "origins[\(index)] is a \(type), not a string: Chromium stops reading there (no later entry matches) and Firefox refuses the file."
                    ).at(.key("origins"), .index(index)))
            case .skipped(let written, let why):
                findings.append(
                    Finding(
                        .webAuthn(.entrySkipped), location,
                        "\"\(written.prefix(200))\" is skipped by every browser: \(why)."
                            + (suggestion(for: written).map { " Write \($0.serialized)." } ?? "")
                    ).at(.key("origins"), .index(place)))
            case .origin(let origin, let written, _, let dropped):
                if dropped { continue }
                if let note = readingNote(origin, written: written) {
                    findings.append(Finding(.webAuthn(.entryRead), location, note).at(.key("origins"), .index(place)))
                }
            }
        }
        let dropped = entries.compactMap { entry -> String? in
            if case .origin(_, let written, _, true) = entry { return written } else { return nil }
        }
        if !dropped.isEmpty {
            findings.append(
                Finding(
                    .webAuthn(.labelLimit), location,
                    "More than \(WebAuthnLimits.maximumLabels) labels: browsers skip \(dropped.prefix(10).map { "\"\($0.prefix(200))\"" }.joined(separator: ", "))\(dropped.count > 10 ? " and \(dropped.count - 10) more" : "")."
                ))
        }
        return findings
    }

    /// How an entry reads when it is not the origin itself.
    static func readingNote(_ origin: WebOrigin, written: String) -> String? {
        let quoted = "\"\(written.prefix(200))\""
        if origin.host.contains("*") {
            return "\(quoted) names the host \(origin.host) literally: a * is never a pattern, so no site matches it."
        }
        if origin.scheme != "https" {
            return
                "\(quoted) is the origin \(origin.serialized): a passkey request comes from an https page, which is another origin."
        }
        if !origin.isBare || written != origin.serialized {
            return "\(quoted) is read as the origin \(origin.serialized)."
        }
        return nil
    }

    static func why(_ result: ClientResult) -> String {
        switch result {
        case .success: "it is listed"
        case .attemptedFetch: "the file could not be fetched"
        case .wrongContentType: "the file is not served as application/json"
        case .parseError: "the file cannot be read, or an entry that is not a string comes before it"
        case .noMatch: "the file does not list it as an origin"
        case .noMatchHitLimits: "it is not listed within the first five labels"
        }
    }

    /// The expected origins, each refused for the same reason.
    static func missing(
        _ expected: [String], because result: ClientResult, detail: String, at location: FindingLocation = .webauthn
    ) -> [Finding] {
        expected.map {
            Finding(
                .webAuthn(.originMissing), location,
                "\($0) cannot use this RP ID's passkeys: \(why(result)) (Chromium: \(result.rawValue)).")
        }
    }

    /// The https redirects a client follows, and a hop it refuses.
    static func redirectFindings(_ hops: [FetchRecord]) -> [Finding] {
        guard let last = hops.last else { return [] }
        let targets = hops.compactMap { $0.redirectTarget ?? $0.headers.location }
        if let insecure = targets.first(where: { !$0.lowercased().hasPrefix("https://") }) {
            return [
                Finding(
                    .webAuthn(.redirectInsecure), .webauthn,
                    "/.well-known/webauthn redirects to \(insecure.prefix(300)), which is not https.")
            ]
        }
        if hops.count > WebAuthnLimits.maximumRedirects {
            return [
                Finding(
                    .webAuthn(.redirectInsecure), .webauthn,
                    "/.well-known/webauthn redirects more than \(WebAuthnLimits.maximumRedirects) times (last to \((last.redirectTarget ?? "?").prefix(300)))."
                )
            ]
        }
        return [
            Finding(
                .webAuthn(.redirect), .webauthn,
                "/.well-known/webauthn redirects (\(targets.map { String($0.prefix(300)) }.joined(separator: " → "))); browsers follow it."
            )
        ]
    }
}
