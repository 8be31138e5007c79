import AASAJSON
import AASAModel

/// `/.well-known/passkey-endpoints` (W3C "Passkey Endpoints"): at the RP ID's host, no redirect,
/// 200 (404: the site advertises none, a note), application/json, a JSON object whose `enroll`,
/// `manage` and `prfUsageDetails` are each an absolute https URL whose page answers 2xx.
public enum PasskeyEndpointsChecks {
    /// An endpoint's page as the audit followed it: its name, URL and final answer (after redirects).
    public typealias EndpointPage = (name: String, url: String, final: FetchRecord)

    /// The served file; nil endpoints when it could not be read.
    public static func assess(_ fetched: FetchedLocation) -> (
        findings: [Finding], endpoints: PasskeyEndpoints?
    ) {
        let record = fetched.record
        let location = FindingLocation.passkeyEndpoints
        if let error = record.error {
            return (error.kind == .skipped ? [] : [LocationChecks.transferFinding(error, at: location)], nil)
        }
        guard let status = record.status else { return ([], nil) }
        if (300..<400).contains(status) {
            let target = record.redirectTarget ?? record.headers.location
            return (
                [
                    Finding(
                        .passkeyEndpoints(.redirect), location,
                        "HTTP \(status) redirect\(target.map { " to \($0.prefix(300))" } ?? ""); the file must be served at the RP ID's host."
                    )
                ], PasskeyEndpoints(served: false)
            )
        }
        if status == 404 {
            return (
                [Finding(.passkeyEndpoints(.absent), location, "No /.well-known/passkey-endpoints (404).")],
                PasskeyEndpoints(served: false)
            )
        }
        guard status == 200 else {
            return (
                [Finding(.passkeyEndpoints(.status), location, "HTTP \(status); serve the file with 200, or 404.")],
                PasskeyEndpoints(served: false)
            )
        }
        var findings: [Finding] = []
        if record.headers.contentType.map(LocationChecks.mediaType(of:)) != "application/json" {
            findings.append(
                Finding(
                    .passkeyEndpoints(.contentType), location,
                    record.headers.contentType.map { "Content-Type is \($0.prefix(200)), not application/json." }
                        ?? "No Content-Type header; serve application/json."))
        }
        if record.bodyTruncated || record.bodyBytes > AppleLimits.maximumFileBytes {
            findings.append(
                Finding(
                    .passkeyEndpoints(.tooLarge), location,
                    "The file is \(record.bodyTruncated ? "more than " : "")\(record.bodyBytes) bytes; this audit reads at most \(AppleLimits.maximumFileBytes)."
                ))
            return (findings, PasskeyEndpoints(served: false))
        }
        let content = assessContent(fetched.body, at: location)
        return (findings + content.findings, content.endpoints)
    }

    /// The file's content, wherever it came from (`lint` reads a local file at `.file`).
    public static func assessContent(_ bytes: [UInt8], at location: FindingLocation) -> (
        findings: [Finding], endpoints: PasskeyEndpoints?
    ) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            return ([Finding(.passkeyEndpoints(.jsonInvalid), location, "Not valid JSON: \(error.description).")], nil)
        }
        guard let object = json.objectValue else {
            return (
                [
                    Finding(
                        .passkeyEndpoints(.notObject), location, "The file is a JSON \(json.typeName), not an object.")
                ],
                nil
            )
        }
        var findings: [Finding] = []
        var endpoints = PasskeyEndpoints(served: true)
        for name in PasskeyEndpoints.names {
            guard let value = object[name] else { continue }
            // Judged as it would be fetched: a NUL is never cut off and the rest read instead.
            if let text = value.stringValue, text.utf8.contains(0) {
                findings.append(
                    Finding(
                        .passkeyEndpoints(.url), location,
                        "\(name) holds a NUL character (U+0000), which no URL can: browsers and this audit do not open it."
                    ).at(.key(name)))
                continue
            }
            guard let url = value.stringValue, let origin = WebOrigin(url), origin.scheme == "https" else {
                findings.append(
                    Finding(
                        .passkeyEndpoints(.url), location,
                        "\(name) is \(value.stringValue.map { "\"\($0.prefix(200))\"" } ?? "a \(value.typeName)"), not an absolute https URL."
                    ).at(.key(name)))
                continue
            }
            switch name {
            case "enroll": endpoints.enroll = url
            case "manage": endpoints.manage = url
            default: endpoints.prfUsageDetails = url
            }
        }
        let unknown = object.members.map(\.key).filter { !PasskeyEndpoints.names.contains($0) }
        if !unknown.isEmpty {
            findings.append(
                Finding(
                    .passkeyEndpoints(.unknownKey), location,
                    "Members besides enroll, manage and prfUsageDetails: \(unknown.prefix(10).map { "\"\($0.prefix(80))\"" }.joined(separator: ", "))."
                ).at(.key(unknown[0])))
        }
        return (FindingPositions.place(findings, in: bytes), endpoints)
    }

    /// Each endpoint page that did not end in 2xx.
    public static func pageFindings(_ pages: [EndpointPage]) -> [Finding] {
        pages.compactMap { page in
            if let status = page.final.status, (200..<300).contains(status) { return nil }
            let answer =
                page.final.error.map { "could not be fetched (\($0.message.prefix(200)))" }
                ?? "answered HTTP \(page.final.status ?? 0)"
            return Finding(
                .passkeyEndpoints(.unreachable), .passkeyEndpoints, "\(page.name) (\(page.url.prefix(300))) \(answer).")
        }
    }
}
