import Foundation

@testable import AASAModel

/// Report values with every field filled, and values carrying markup in every text field.
enum Samples {
    static let started = Date(timeIntervalSince1970: 1_795_000_000)
    static let finished = Date(timeIntervalSince1970: 1_795_000_042)

    static let options = RunOptions(
        inputFiles: ["domains.txt"], outputDirectory: "reports", concurrency: 64, timeoutSeconds: 10,
        userAgent: "aasa-audit/0.1.0",
        failOn: .error, resolve: ["*:443:127.0.0.1"], connectTo: [], caCertFile: "/tmp/ca.pem")

    static func run(complete: Bool = true) -> RunInfo {
        RunInfo(startedAt: started, finishedAt: finished, complete: complete, options: options)
    }

    static func fullFetch(_ location: AASALocation, text: String = "x") -> FetchRecord {
        var headers = ResponseHeaders()
        for name in ResponseHeaders.recordedNames { headers.set(name: name, value: "\(name): \(text)") }
        var record = FetchRecord(
            location: location, url: "https://example.com\(location.path)?\(text)", status: 301, httpVersion: "2",
            redirectTarget: "https://www.example.com/\(text)", remoteIP: "127.0.0.1", newConnection: true,
            headers: headers,
            timings: FetchTimings(dnsMs: 1.5, connectMs: 2.25, tlsMs: 9.75, firstByteMs: 12, totalMs: 13.5),
            bodyBytes: 42, bodySHA256: String(repeating: "ab", count: 32), bodyTruncated: false,
            error: TransferError(kind: .other, curlCode: 56, message: "Recv failure \(text)"))
        var signature = SignatureRecord(format: .der)
        signature.opened = true
        signature.contentBytes = 30
        signature.signerSubject = "CN = example.com \(text)"
        signature.certificates = 2
        signature.problem = "The signature does not match the content \(text)."
        record.signature = signature
        return record
    }

    static func domain(_ name: String = "example.com", text: String = "x", findings: [Finding]? = nil) -> DomainReport {
        var report = DomainReport(
            domain: name, inputLine: 3, expectedAppIDs: ["ABCDE12346.com.example.\(text)"],
            fetches: [fullFetch(.wellKnown, text: text), fullFetch(.root, text: text)],
            appIDs: ServiceAppIDs(
                applinks: ["ABCDE12346.\(text)"], webcredentials: [], appclips: ["ABCDE12346.a.Clip"],
                activitycontinuation: ["ABCDE12346.\(text)"]),
            findings: findings
                ?? FindingCode.allCases.enumerated().map { index, code in
                    Finding(
                        code: code, severity: Severity.allCases[index % 3],
                        location: [.wellKnown, .root, .domain][index % 3], message: "\(code.rawValue): \(text)")
                })
        let fingerprint = (0..<32).map { String(format: "%02X", $0) }.joined(separator: ":")
        report.expectedAndroidApps = ["com.example.\(text)@\(fingerprint)", "com.example.lite"]
        report.android = AndroidDeclarations(
            apps: [
                .init(
                    package: "com.example.\(text)", fingerprints: [fingerprint],
                    relations: ["delegate_permission/common.handle_all_urls"])
            ],
            includes: ["https://other.example/.well-known/assetlinks.json"])
        return report
    }

    static func minimalDomain() -> DomainReport {
        DomainReport(
            domain: "bare.example", inputLine: nil, expectedAppIDs: [],
            fetches: [
                FetchRecord(location: .wellKnown, url: "https://bare.example/.well-known/apple-app-site-association")
            ],
            appIDs: ServiceAppIDs(), findings: [])
    }

    static func problem(text: String = "https://x") -> InputProblem {
        InputProblem(file: "domains.txt", line: 7, text: text, severity: .error, message: "\"\(text)\" is a URL")
    }

    static func summary(of domains: [DomainReport], problems: Int = 1) -> ReportSummary {
        var summary = ReportSummary()
        for domain in domains { summary.add(domain) }
        summary.inputProblems = problems
        return summary
    }
}
