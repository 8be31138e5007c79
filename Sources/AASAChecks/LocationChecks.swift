import AASAJSON
import AASAModel

/// What one location served, judged on its own: findings at their natural severity (as if
/// devices read this location), and the file when it is usable.
public struct LocationAssessment: Sendable {
    public var findings: [Finding]
    /// True when the server answered 200 (even if the body then failed to arrive).
    public var answered200: Bool
    /// True when the server gave an HTTP response of any status.
    public var responded: Bool
    /// The parsed file, when it was served with 200, within the size limit, as a JSON object.
    public var file: JSONObject?
    /// The content checks of `file`.
    public var content: ContentAssessment?
}

/// The checks on one fetched location, in the order a device meets the problems: the
/// transfer, the redirect, the status, the headers, the size, the syntax, the content.
public enum LocationChecks {
    public static func assess(_ fetched: FetchedLocation) -> LocationAssessment {
        let record = fetched.record
        let location = FindingLocation(record.location)
        var assessment = LocationAssessment(findings: [], answered200: record.status == 200, responded: record.status != nil)

        if let error = record.error {
            if error.kind != .skipped { assessment.findings.append(transferFinding(error, at: location)) }
            return assessment
        }
        guard let status = record.status else { return assessment }

        if (300..<400).contains(status) {
            let target = record.redirectTarget ?? record.headers.location
            let whereTo = target.map { "to \($0)" } ?? "without a Location header"
            assessment.findings.append(Finding(.httpRedirect, .error, location, "HTTP \(status) redirect \(whereTo). Redirects are never followed for this file."))
            return assessment
        }
        guard status == 200 else {
            assessment.findings.append(Finding(.httpStatus, .error, location, "HTTP \(status)\(statusHint(status)); the file must be served with 200."))
            return assessment
        }

        if let finding = contentTypeFinding(record.headers.contentType, at: location) {
            assessment.findings.append(finding)
        }
        if record.bodyTruncated {
            let size = record.bodyBytes == 0 && record.headers.contentLength != nil
                ? "\(record.headers.contentLength!) bytes by its Content-Length (not read)"
                : "more than \(record.bodyBytes) bytes after decoding (reading stopped there)"
            assessment.findings.append(Finding(.bodyTooLarge, .error, location, "The body is \(size); iOS ignores files over \(AppleLimits.maximumFileBytes) bytes."))
            return assessment
        }
        if record.bodyBytes > AppleLimits.maximumFileBytes {
            assessment.findings.append(Finding(.bodyTooLarge, .error, location, "The body is \(record.bodyBytes) bytes after decoding; iOS ignores files over \(AppleLimits.maximumFileBytes) bytes."))
            return assessment
        }
        if fetched.body.isEmpty {
            assessment.findings.append(Finding(.bodyEmpty, .error, location, "HTTP 200 with an empty body."))
            return assessment
        }

        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(fetched.body)
        } catch {
            assessment.findings.append(Finding(.jsonInvalid, .error, location, "Not valid JSON: \(error.description)."))
            return assessment
        }
        guard case .object(let file) = parsed else {
            assessment.findings.append(Finding(.jsonNotObject, .error, location, "The top level is \(ContentChecks.article(parsed.typeName)), not an object."))
            return assessment
        }
        let content = ContentChecks.assess(file, at: location)
        assessment.file = file
        assessment.content = content
        assessment.findings += content.findings
        return assessment
    }

    static func transferFinding(_ error: TransferError, at location: FindingLocation) -> Finding {
        let code: FindingCode = switch error.kind {
        case .dns: .netDNS
        case .connect: .netConnect
        case .timeout: .netTimeout
        case .tlsCertificate: .tlsCertificate
        case .tlsHandshake: .tlsHandshake
        case .skipped, .cancelled, .other: .netOther
        }
        return Finding(code, .error, location, error.message)
    }

    /// `application/json` (with any parameters) is right; the signed format's type is info;
    /// anything else, or none, is a warning.
    static func contentTypeFinding(_ header: String?, at location: FindingLocation) -> Finding? {
        guard let header, !header.isEmpty else {
            return Finding(.httpContentType, .warning, location, "No Content-Type header; serve application/json.")
        }
        let mediaType = header.split(separator: ";", maxSplits: 1).first.map { $0.trimmingASCIIWhitespace().lowercased() } ?? ""
        switch mediaType {
        case "application/json":
            return nil
        case "application/pkcs7-mime":
            return Finding(.httpContentType, .info, location, "Content-Type \(header): the signed format of iOS 8; current iOS expects unsigned application/json.")
        default:
            return Finding(.httpContentType, .warning, location, "Content-Type is \(header), not application/json.")
        }
    }

    static func statusHint(_ status: Int) -> String {
        switch status {
        case 401, 403: " (access denied: a firewall, bot protection or authentication)"
        case 404: " (not found)"
        case 429: " (rate limited: bot protection)"
        case 500...599: " (server error)"
        default: ""
        }
    }
}

extension Substring {
    func trimmingASCIIWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
