import AASAModel
import Foundation

/// Builders of fetched locations, as the fetcher would record them.
enum Fixture {
    static let appID = "ABCDE12346.com.example.app"
    static let validFile =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.app"],"components":[{"/":"/buy/*"}]}]}}"#

    static func served(
        _ body: String, at location: AASALocation = .wellKnown, contentType: String? = "application/json",
        status: Int = 200
    ) -> FetchedLocation {
        served(Array(body.utf8), at: location, contentType: contentType, status: status)
    }

    static func served(
        _ body: [UInt8], at location: AASALocation = .wellKnown, contentType: String? = "application/json",
        status: Int = 200, truncated: Bool = false
    ) -> FetchedLocation {
        var record = FetchRecord(
            location: location, url: "https://example.com\(location.path)", status: status, httpVersion: "2")
        record.headers.contentType = contentType
        record.bodyBytes = body.count
        record.bodyTruncated = truncated
        // Not a real digest: equal bodies get equal values, which is what the checks compare.
        record.bodySHA256 = body.isEmpty ? nil : String(body.hashValue, radix: 16)
        return FetchedLocation(record: record, body: body)
    }

    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")
    static let otherFingerprint = (0..<32).map { String(format: "%02X", 255 - $0) }.joined(separator: ":")
    /// A good assetlinks.json declaring com.example.app for App Links with `fingerprint`.
    static let assetLinks =
        #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["\#(fingerprint)"]}}]"#

    /// A signed file's content as the audit hands it to the checks: the signature on the
    /// record (verified unless `problem` says otherwise), the content as the body.
    static func signed(_ content: String, problem: String?) -> FetchedLocation {
        var fetched = served(content, contentType: "application/pkcs7-mime")
        var signature = SignatureRecord(format: .der)
        signature.opened = true
        signature.contentBytes = content.utf8.count
        signature.signerSubject = "CN = example.com"
        signature.verified = problem == nil
        signature.problem = problem
        fetched.record.signature = signature
        fetched.record.bodyBytes += 1_500
        return fetched
    }

    static func redirect(to target: String, status: Int = 301, at location: AASALocation = .wellKnown)
        -> FetchedLocation
    {
        var record = FetchRecord(
            location: location, url: "https://example.com\(location.path)", status: status, httpVersion: "1.1")
        record.redirectTarget = target
        return FetchedLocation(record: record)
    }

    static func failed(
        _ kind: TransferErrorKind, at location: AASALocation = .wellKnown, message: String = "curl says no"
    ) -> FetchedLocation {
        var record = FetchRecord(location: location, url: "https://example.com\(location.path)")
        record.error = TransferError(kind: kind, curlCode: 7, message: message)
        return FetchedLocation(record: record)
    }

    static func target(_ appIDs: [String] = []) -> DomainTarget {
        DomainTarget(domain: "example.com", expectedAppIDs: appIDs, inputLine: 1)
    }
}

extension Array where Element == Finding {
    var summary: [String] { map { "\($0.code.rawValue)/\($0.severity.rawValue)/\($0.location.rawValue)" } }
}
