/// Every finding code the auditor emits. The raw values are a public interface: reports,
/// dashboards and `docs/findings.md` use them. Add codes; never rename one.
public enum FindingCode: String, Codable, Sendable, CaseIterable {
    // Network and TLS: the file could not be fetched at all.
    case netDNS = "net.dns"
    case netConnect = "net.connect"
    case netTimeout = "net.timeout"
    case tlsCertificate = "tls.certificate"
    case tlsHandshake = "tls.handshake"
    case netOther = "net.other"

    // HTTP: how the file is served.
    case httpRedirect = "http.redirect"
    case httpStatus = "http.status"
    case httpContentType = "http.content-type"

    // The body.
    case bodyTooLarge = "body.too-large"
    case bodyEmpty = "body.empty"

    // The content.
    case jsonInvalid = "json.invalid"
    case jsonNotObject = "json.not-object"
    case applinksMissing = "applinks.missing"
    case appIDMalformed = "appid.malformed"
    case appIDMissing = "appid.missing"

    // The domain as a whole.
    case locationRootOnly = "location.root-only"
    case locationNone = "location.none"
}

extension FindingCode {
    /// What the code means and how to fix it: the text of `docs/findings.md` and the
    /// explanation `aasa-audit check` prints under a finding.
    public var explanation: (meaning: String, fix: String) {
        switch self {
        case .netDNS:
            ("The host name did not resolve.", "Publish A/AAAA records for the host, or remove it from the app's associated domains.")
        case .netConnect:
            ("No TCP connection could be made to port 443 (refused or unreachable).", "Make the host answer HTTPS on port 443 from the public internet.")
        case .netTimeout:
            ("The server did not complete the response within the time limit.", "Serve the file quickly; Apple's CDN gives up on slow origins too.")
        case .tlsCertificate:
            ("The TLS certificate is not trusted: unknown or self-signed issuer, expired, or not valid for the host name.", "Serve a certificate from a public CA, with the full chain, covering this exact host name.")
        case .tlsHandshake:
            ("The TLS handshake failed (the server reset the connection, spoke plain HTTP, or offered nothing acceptable).", "Serve modern TLS (1.2 or 1.3) on port 443.")
        case .netOther:
            ("The transfer failed for another reason; curl's message says which.", "Read curl's message in the finding and check the server's logs.")
        case .httpRedirect:
            ("The server answered with a redirect. Devices and Apple's CDN never follow redirects for this file, even to a perfect copy.", "Serve the file with status 200 directly at this URL on this exact host (apex and www each need their own).")
        case .httpStatus:
            ("The server answered with a status other than 200. 403 and 404 usually mean a firewall, bot protection or missing file.", "Serve the file with status 200 to every client, without authentication or cookies.")
        case .httpContentType:
            ("The Content-Type is not application/json. Current iOS still reads the file, so this is a warning (info for the signed application/pkcs7-mime of the iOS 8 era).", "Serve the file with Content-Type: application/json.")
        case .bodyTooLarge:
            ("The file is larger than 128 KB (131,072 bytes) after decompression; iOS ignores such files.", "Shrink the file: use components with wildcards instead of listing paths one by one.")
        case .bodyEmpty:
            ("The server answered 200 with an empty body.", "Serve the JSON file's content.")
        case .jsonInvalid:
            ("The file is not strict JSON (comments, trailing commas, typographic quotes and front matter are common causes); the message gives the line and column.", "Fix the syntax; validate the file with a strict JSON parser before deploying.")
        case .jsonNotObject:
            ("The file is valid JSON but its top level is not an object.", "Make the file one JSON object: {\"applinks\": {...}}.")
        case .applinksMissing:
            ("The file has no applinks section, so it opens no universal links.", "Add an applinks section with details for the app.")
        case .appIDMalformed:
            ("An app ID is not of the form PREFIX.bundle.id with a 10-character upper-case prefix, or is an obvious placeholder left in (TEAM_ID, <TeamID>, ABCDE12345, ...).", "Use the real Team ID (Application Identifier Prefix) and bundle ID, e.g. ABCDE12345.com.example.app, as shown in the developer portal.")
        case .appIDMissing:
            ("An app ID that domains.txt (or --app-id) expects is not in the file's applinks section, so that app opens no links on this host.", "Add the app ID to applinks.details (appIDs or appID) in the file this host serves.")
        case .locationRootOnly:
            ("A valid file is served only at /apple-app-site-association. Current iOS and Apple's CDN read only /.well-known/.", "Serve the same file at /.well-known/apple-app-site-association.")
        case .locationNone:
            ("Neither location served the file with status 200.", "Serve the file at https://HOST/.well-known/apple-app-site-association.")
        }
    }
}

extension FindingCode {
    /// The severity the code is reported with at `.well-known` (or for the domain). Findings
    /// about the root copy are at most warnings, and only info when the root serves no file.
    public var severityNote: String {
        switch self {
        case .httpContentType: "warning (info for application/pkcs7-mime)"
        default: "error"
        }
    }
}
