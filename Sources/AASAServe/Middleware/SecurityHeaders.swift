import AASAFetch
import AASAReport
import Digest
import Foundation

/// The headers of every answer: no script but the report pages' own (by its hash), nothing
/// from elsewhere, no framing, no sniffing, no referrer.
enum SecurityHeaders {
    static let contentSecurityPolicy: String = {
        let hash = Data(SHA256Stream.digest(Array(HTMLReport.inlineScript.utf8))).base64EncodedString()
        return
            "default-src 'none'; script-src 'sha256-\(hash)'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    }()

    static let all: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
    ]
}
