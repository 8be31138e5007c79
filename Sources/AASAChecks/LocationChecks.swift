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
    /// The findings on the body (size, signature, syntax, content), also in `findings`.
    var bodyFindings: [Finding] = []
}

/// The checks on one fetched location, in the order a device meets the problems: the
/// transfer, the redirect, the status, the headers, the size, the syntax, the content.
public enum LocationChecks {
    /// `sameBody`: the assessment of the other location when it served these very bytes,
    /// whose body checks (the JSON parse and every content check) are then taken over, moved
    /// to this location, instead of run again.
    public static func assess(
        _ fetched: FetchedLocation, options: ValidationOptions = ValidationOptions(),
        sameBody: LocationAssessment? = nil
    ) -> LocationAssessment {
        let record = fetched.record
        let location = FindingLocation(record.location)
        var assessment = LocationAssessment(
            findings: [], answered200: record.status == 200, responded: record.status != nil)

        if let error = record.error {
            if error.kind != .skipped { assessment.findings.append(transferFinding(error, at: location)) }
            return assessment
        }
        guard let status = record.status else { return assessment }

        if (300..<400).contains(status) {
            let target = record.redirectTarget ?? record.headers.location
            let whereTo = target.map { "to \($0)" } ?? "without a Location header"
            assessment.findings.append(
                Finding(
                    .aasa(.httpRedirect), location,
                    "HTTP \(status) redirect \(whereTo). Redirects are never followed for this file."))
            return assessment
        }
        guard status == 200 else {
            assessment.findings.append(
                Finding(
                    .aasa(.httpStatus), location,
                    "HTTP \(status)\(statusHint(status)); the file must be served with 200.")
            )
            return assessment
        }

        if let finding = contentTypeFinding(record.headers.contentType, signed: record.signature != nil, at: location) {
            assessment.findings.append(finding)
        }
        let body =
            sameBody.map { earlier in
                (
                    findings: earlier.bodyFindings.map {
                        var moved = $0
                        moved.location = location
                        return moved
                    },
                    file: earlier.file, content: earlier.content
                )
            }
            ?? assessBody(
                fetched.body, declaredSize: record.bodyBytes, truncated: record.bodyTruncated,
                contentLength: record.headers.contentLength, signature: record.signature, at: location, options: options
            )
        assessment.findings += body.findings
        assessment.bodyFindings = body.findings
        assessment.file = body.file
        assessment.content = body.content
        return assessment
    }

    /// The checks on a body that was served (or a local file): size, emptiness, syntax and
    /// content. `declaredSize` is the size counted while reading (bytes after decoding).
    ///
    /// For a signed file, `body` is its signed content (`signature` says what was found): the
    /// 128 KB limit applies to `declaredSize`, the bytes served, since that is what a device
    /// or Apple's CDN downloads; the rest of the checks judge the content.
    public static func assessBody(
        _ body: [UInt8], declaredSize: Int, truncated: Bool, contentLength: String? = nil,
        signature: SignatureRecord? = nil,
        at location: FindingLocation, options: ValidationOptions = ValidationOptions()
    ) -> (findings: [Finding], file: JSONObject?, content: ContentAssessment?) {
        if truncated {
            let size =
                declaredSize == 0 && contentLength != nil
                ? "\(contentLength!) bytes by its Content-Length (not read)"
                : "more than \(declaredSize) bytes after decoding (reading stopped there)"
            return (
                [
                    Finding(
                        .aasa(.bodyTooLarge), location,
                        "The body is \(size); iOS ignores files over \(AppleLimits.maximumFileBytes) bytes.")
                ], nil, nil
            )
        }
        if declaredSize > AppleLimits.maximumFileBytes {
            return (
                [
                    Finding(
                        .aasa(.bodyTooLarge), location,
                        "The body is \(declaredSize) bytes after decoding; iOS ignores files over \(AppleLimits.maximumFileBytes) bytes."
                    )
                ], nil, nil
            )
        }
        var signatureFindings: [Finding] = []
        if let signature {
            let signer = signature.signerSubject.map { " by \($0)" } ?? ""
            let content = signature.contentBytes.map { ", \($0) bytes of content" } ?? ""
            signatureFindings.append(
                Finding(
                    .aasa(.fileSigned), location,
                    "The file is signed (CMS/PKCS#7, \(signature.format.rawValue.uppercased())\(content))\(signer)\(signature.verified ? "; the signature verifies" : "")."
                ))
            if let problem = signature.problem {
                signatureFindings.append(Finding(.aasa(.signatureInvalid), location, problem))
            }
            guard signature.opened else { return (signatureFindings, nil, nil) }
        }
        let assessed = assessContent(body, at: location, options: options)
        return (signatureFindings + assessed.findings, assessed.file, assessed.content)
    }

    /// "The two locations served the same bytes": both answered 200 without a transfer error,
    /// with as many bytes, the same SHA-256 of all of them (a body past the limit is cut at the
    /// same place), the same bytes kept and the same signature, so that their bodies are judged
    /// alike and their content problems are one file's. The one reading.
    public static func sameBytes(_ fetched: FetchedLocation, as other: FetchedLocation) -> Bool {
        let (a, b) = (fetched.record, other.record)
        return a.status == 200 && b.status == 200 && a.error == nil && b.error == nil && a.bodyBytes == b.bodyBytes
            && a.bodyTruncated == b.bodyTruncated && a.bodySHA256 == b.bodySHA256 && a.signature == b.signature
            && fetched.body == other.body
    }

    /// Emptiness, syntax and content of the file's bytes (a signed file's content).
    static func assessContent(
        _ body: [UInt8], at location: FindingLocation, options: ValidationOptions
    ) -> (findings: [Finding], file: JSONObject?, content: ContentAssessment?) {
        if body.isEmpty {
            return ([Finding(.aasa(.bodyEmpty), location, "HTTP 200 with an empty body.")], nil, nil)
        }
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(body)
        } catch {
            var invalid = Finding(
                .aasa(.jsonInvalid), location, "Not valid JSON: \(JSONDiagnosis.describe(error, in: body)).")
            invalid.position = FilePosition(pointer: nil, line: error.line, column: error.column)
            return ([invalid], nil, nil)
        }
        guard case .object(let file) = parsed else {
            return (
                [
                    Finding(
                        .aasa(.jsonNotObject), location,
                        "The top level is \(ContentChecks.article(parsed.typeName)), not an object.")
                ], nil, nil
            )
        }
        var content = ContentChecks.assess(file, at: location, options: options)
        content.findings = FindingPositions.locate(content.findings, in: body)
        return (content.findings, file, content)
    }

    static func transferFinding(_ error: TransferError, at location: FindingLocation) -> Finding {
        let code: FindingCode =
            switch error.kind {
            case .dns: .transfer(.netDNS)
            case .connect: .transfer(.netConnect)
            case .timeout: .transfer(.netTimeout)
            case .tlsCertificate: .transfer(.tlsCertificate)
            case .tlsHandshake: .transfer(.tlsHandshake)
            case .blockedAddress: .transfer(.netBlockedAddress)
            case .local: .run(.auditUnchecked)
            case .skipped, .cancelled, .other: .transfer(.netOther)
            }
        return Finding(code, location, error.message)
    }

    /// `application/json` (with any parameters) is right, and `application/pkcs7-mime` for a
    /// signed file; anything else, or none, is a warning.
    static func contentTypeFinding(_ header: String?, signed: Bool = false, at location: FindingLocation) -> Finding? {
        guard let header, !header.isEmpty else {
            return Finding(.aasa(.httpContentType), location, "No Content-Type header; serve application/json.")
        }
        switch mediaType(of: header) {
        case "application/json":
            return nil
        case "application/pkcs7-mime" where signed:
            return nil
        case "application/pkcs7-mime":
            return Finding(
                .aasa(.httpContentType), location,
                "Content-Type is \(header), the type of a signed file, but the file is plain JSON: serve it as application/json."
            )
        default:
            return Finding(.aasa(.httpContentType), location, "Content-Type is \(header), not application/json.")
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

extension LocationChecks {
    /// A Content-Type value's media type in lower case: what comes before any parameters,
    /// without the whitespace around it. On bytes: it runs for every fetch.
    static func mediaType(of header: String) -> String {
        let type = Substring(header.utf8.prefix { $0 != UInt8(ascii: ";") }).trimmingASCIIWhitespace()
        return String(decoding: type.utf8.map { $0 &- 65 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

extension Substring {
    func trimmingASCIIWhitespace() -> String {
        var bytes = utf8[...]
        while let first = bytes.first, first == 32 || first == 9 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 32 || last == 9 { bytes = bytes.dropLast() }
        return String(Substring(bytes))
    }
}
