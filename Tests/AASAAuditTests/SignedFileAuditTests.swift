import AASAAudit
import AASAFetch
import AASAModel
import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// Signed (iOS 8) files served by a real HTTPS server on loopback, signed with the server's own
/// key and certificate as Apple's documentation said: opened, checked and verified in an audit,
/// in `lint` and in `match --file`.
@Suite(.live, .tags(.live)) struct SignedFileAuditTests {
    static let content = Array(TestWorld.validFile.utf8)

    @Test func anAuditOpensVerifiesAndChecksSignedFiles() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pki = try TestPKI()
        let caFile = try pki.writeCACertificate(in: directory.url)
        let identity = try pki.issueServerIdentity(for: ["*.aasa.test"])
        let maker = SignedFileMaker(directory: directory.url)
        let signed = try maker.sign(Self.content, with: identity)
        var tampered = signed
        let at = try #require(tampered.firstRange(of: Array("/buy/".utf8)))
        tampered[at.lowerBound + 1] = UInt8(ascii: "g")
        let stranger = try maker.sign(
            Self.content, with: try TestPKI(name: "someone else").issueServerIdentity(for: ["*.aasa.test"]))
        let bodies: [String: ([UInt8], String)] = [
            "signed.aasa.test": (signed, "application/pkcs7-mime"),
            "tampered.aasa.test": (tampered, "application/pkcs7-mime"),
            "stranger.aasa.test": (stranger, "application/pkcs7-mime"),
            "mislabelled.aasa.test": (Self.content, "application/pkcs7-mime"),
        ]
        let server = try LoopbackServer(identity: identity) { host, path in
            guard path == "/.well-known/apple-app-site-association", let (body, type) = bodies[host] else {
                return .status(404)
            }
            return .respond(status: 200, headers: [("Content-Type", type)], body: body)
        }
        defer { server.shutdown() }
        let fetcher = try Fetcher(
            configuration: FetcherConfigurationBuilder.make(
                timeout: 60, connectTo: [server.connectTo], caFile: caFile, concurrency: 4))
        defer { fetcher.shutdown() }
        let auditor = DomainAuditor(fetcher: fetcher)
        func audit(_ host: String) async -> DomainReport {
            await auditor.audit(DomainTarget(domain: host, expectedAppIDs: [TestWorld.appID])).report
        }
        func codes(_ report: DomainReport) -> [String] {
            report.findings.filter { $0.location == .wellKnown }.map { "\($0.code.rawValue)/\($0.severity.rawValue)" }
        }

        let good = await audit("signed.aasa.test")
        #expect(good.verdict == .pass, "\(good.findings.map(\.message))")
        #expect(codes(good) == ["file.signed/info"])
        #expect(good.appIDs.applinks == [TestWorld.appID])
        let signature = try #require(good.fetches.first { $0.location == .wellKnown }?.signature)
        #expect(signature.verified && signature.opened && signature.format == .der)
        #expect(signature.signerSubject?.contains("aasa.test") == true)
        #expect(good.fetches.first { $0.location == .wellKnown }?.bodyBytes == signed.count)

        let changed = await audit("tampered.aasa.test")
        #expect(changed.verdict == .fail)
        #expect(codes(changed) == ["file.signed/info", "signature.invalid/error"])
        #expect(changed.findings.contains { $0.message.hasPrefix("The signature does not match the content") })
        // Its content is still read and reported.
        #expect(changed.appIDs.applinks == [TestWorld.appID])

        let untrusted = await audit("stranger.aasa.test")
        #expect(codes(untrusted) == ["file.signed/info", "signature.invalid/error"])
        #expect(
            untrusted.findings.contains {
                $0.message.hasPrefix("The signer's certificate does not chain to a trusted CA")
            })

        // With Apple's bot and a browser compared, a signed file given to the bot is a usable
        // file: no browser is asked.
        let compared = await DomainAuditor(fetcher: fetcher, deviceView: DeviceViewSettings(cdnBase: nil))
            .audit(DomainTarget(domain: "signed.aasa.test", expectedAppIDs: [TestWorld.appID])).report
        #expect(compared.verdict == .pass, "\(compared.findings.map(\.message))")
        #expect(compared.fetches.map(\.location) == [.wellKnown, .root])

        let mislabelled = await audit("mislabelled.aasa.test")
        #expect(codes(mislabelled) == ["http.content-type/warning"])
        #expect(mislabelled.findings.first?.message.contains("the file is plain JSON") == true)
    }

    @Test func lintAndMatchOpenASignedFileOnDisk() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pki = try TestPKI()
        let caFile = try pki.writeCACertificate(in: directory.url)
        let signed = try SignedFileMaker(directory: directory.url).sign(
            Self.content, with: try pki.issueServerIdentity(for: ["example.com"]))
        let path = directory.url.appendingPathComponent("apple-app-site-association.p7").path
        try Data(signed).write(to: URL(fileURLWithPath: path))

        let trusted = LocalLint.run([path], options: .init(), caFile: caFile)[0]
        #expect(trusted.verdict == .pass, "\(trusted.findings.map(\.message))")
        #expect(trusted.appIDs?.applinks == [TestWorld.appID])
        #expect(trusted.findings.map(\.code) == [.aasa(.fileSigned)])
        // Against the system's CAs the test CA is a stranger.
        let untrusted = LocalLint.run([path], options: .init())[0]
        #expect(untrusted.findings.map(\.code) == [.aasa(.fileSigned), .aasa(.signatureInvalid)])

        let matches = try await URLMatching.run(
            ["https://example.com/buy/1"], against: .file(path: path, host: "example.com"))
        #expect(matches.map(\.result) == [.app])
    }
}
