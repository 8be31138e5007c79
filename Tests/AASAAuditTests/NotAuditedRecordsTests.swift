import AASAFetch
import AASAModel
import Foundation
import Testing

@testable import AASAAudit

/// The records of domains an interrupted run did not reach, made from placeholders, are byte
/// for byte what every output renders for them.
@Suite struct NotAuditedRecordsTests {
    @Test func placeholderRecordsAreWhatTheOutputsRender() throws {
        var settings = AuditSettings(
            inputFiles: ["domains.txt"], outputDirectory: URL(fileURLWithPath: "/nonexistent"), concurrency: 1,
            fetcher: FetcherConfiguration(userAgent: "test"), failOn: .error)
        settings.junitFile = URL(fileURLWithPath: "/nonexistent/junit.xml")
        settings.metricsFile = URL(fileURLWithPath: "/nonexistent/metrics.prom")
        let outputs = Outputs(settings: settings).all
        var records = NotAuditedRecords(outputs: outputs)
        let targets = [
            DomainTarget(domain: "example.com", inputLine: 3),
            DomainTarget(domain: "987654321.example.org", inputLine: 876_543_219),
            DomainTarget(
                domain: "shop-2.example.net",
                expectedAppIDs: ["ABCDE12345.com.example.app", "FGHIJ67890.com.example.other"], inputLine: 12),
            DomainTarget(domain: "entitled.example", expectedAppIDs: ["ABCDE12345.com.example.app"]),
            DomainTarget(domain: "xn--bcher-kva.example", inputLine: 9),
        ]
        var fastOnes = 0
        for (number, target) in targets.enumerated() {
            for index in [0, 7, 123_456 + number] {
                let fast = records.render(target, index: index)
                let slow = records.slowRender(target, index: index)
                #expect(fast.count == outputs.count && fast.compactMap { $0 }.count >= 3)
                for (made, rendered) in zip(fast, slow) {
                    #expect(
                        made == rendered,
                        "\(target.domain) at \(index): \(String(decoding: made ?? Data(), as: UTF8.self))")
                }
                if NotAuditedRecords.isPlain(target.domain) { fastOnes += 1 }
            }
        }
        #expect(fastOnes == 12)
        #expect(
            !NotAuditedRecords.isPlain("xn--bcher-kva.example") && !NotAuditedRecords.isPlain("a.xn--p1ai")
                && !NotAuditedRecords.isPlain("Example.com"))
    }
}
