import AASAModel
import Foundation

/// Apple Pay's merchant file, as Apple's domain verification fetches it (issue 58, work in
/// progress): the extensionless path over HTTPS, 200, no redirect, the bytes the merchant (or
/// its provider) was issued. Apple documents no content type and no size: what was served is
/// said, and none of it fails.
public enum ApplePayChecks {
    /// The file's answer, with the `.txt` copy when the extensionless path did not serve it
    /// (asked only then), judged against the want; and what was served.
    public static func assess(_ fetched: FetchedLocation, textCopy: FetchedLocation?, want: ApplePayWant) -> (
        findings: [Finding], file: ApplePayFile?
    ) {
        let record = fetched.record
        let path = AASALocation.applePay.path
        if let error = record.error {
            if error.kind == .tlsHandshake {
                return (
                    [
                        Finding(
                            .applePay(.tls), .applePay,
                            "The TLS handshake failed when offered what Apple's servers offer (TLS 1.2 or later, \((ApplePayLimits.tls13Suites + ApplePayLimits.tls12Suites).joined(separator: ", "))): \(error.message.prefix(200))"
                        )
                    ], nil
                )
            }
            return (error.kind == .skipped ? [] : [LocationChecks.transferFinding(error, at: .applePay)], nil)
        }
        guard let status = record.status else { return ([], nil) }
        if (300..<400).contains(status) {
            let target = record.redirectTarget ?? record.headers.location
            return (
                [
                    Finding(
                        .applePay(.redirect), .applePay,
                        "\(path) answered HTTP \(status)\(target.map { " to \($0.prefix(300))" } ?? ""); Apple follows no redirect."
                    )
                ], nil
            )
        }
        guard status == 200 else {
            if let textCopy, textCopy.record.status == 200, !textCopy.body.isEmpty {
                return (
                    [
                        Finding(
                            .applePay(.textOnly), .applePay,
                            "\(path) answered HTTP \(status), and \(path).txt serves the file: Apple asks only for the name without .txt."
                        )
                    ], nil
                )
            }
            let refused = [401, 403, 429, 503].contains(status) ? " (a refusal: a WAF or bot rule?)" : ""
            return (
                [Finding(.applePay(.status), .applePay, "\(path) answered HTTP \(status)\(refused); it must be 200.")],
                nil
            )
        }
        let file = ApplePayFile(
            bytes: record.bodyBytes, sha256: record.bodySHA256 ?? "", contentType: record.headers.contentType,
            tls: fetched.tls)
        let tooLarge =
            file.bytes > ApplePayLimits.maximumFileBytes
            ? [
                Finding(
                    .applePay(.tooLarge), .applePay,
                    "\(path) is \(file.bytes) bytes; this audit reads \(ApplePayLimits.maximumFileBytes) of them (Apple documents no limit)."
                )
            ] : []
        return (assessContent(fetched, file: file, want: want) + tooLarge, file)
    }

    /// What a 200 answer holds: bytes, not a page, the hash the input names.
    static func assessContent(_ fetched: FetchedLocation, file: ApplePayFile, want: ApplePayWant) -> [Finding] {
        contentFindings(file, isPage: CatchAllChecks.isPage(fetched), want: want, at: .applePay)
    }

    /// The file's bytes, served or local: not empty, not a page, the hash the input names.
    static func contentFindings(_ file: ApplePayFile, isPage: Bool, want: ApplePayWant, at location: FindingLocation)
        -> [Finding]
    {
        let name = location == .file ? "The file" : AASALocation.applePay.path
        if file.bytes == 0 {
            return [Finding(.applePay(.empty), location, "\(name) has no bytes.")]
        }
        if isPage {
            return [
                Finding(
                    .applePay(.page), location,
                    "\(name) is a web page (\(file.contentType.map { String($0.prefix(80)) } ?? "markup")), not the merchant file."
                )
            ]
        }
        if let expected = want.sha256, file.sha256 != expected {
            return [
                Finding(
                    .applePay(.hashMismatch), location,
                    "\(name)'s SHA-256 is \(file.sha256.prefix(64)), not \(expected) as the input names.")
            ]
        }
        return []
    }

    /// Apple verifies the domain again before its TLS certificate expires (30, 15 and 7 days
    /// ahead): a certificate that ends within `ApplePayLimits.certificateWarningDays` is a warning.
    public static let certificateWatch = CertificateWatch(
        days: ApplePayLimits.certificateWarningDays, code: .applePay(.certificateExpiring), location: .applePay,
        consequence:
            "Apple verifies the merchant domain again before then, and a certificate that lapses means registering the domain again."
    )
}
