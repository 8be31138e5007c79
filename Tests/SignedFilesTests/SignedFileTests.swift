import AASAModel
import Foundation
import SignedFiles
import TestSupport
import Testing

/// Signed files made with the openssl command, opened and verified with OpenSSL's CMS.
@Suite struct SignedFileTests {
    static let host = "signed.aasa.test"
    static let content = Array(
        #"{"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.app"],"components":[{"/":"/buy/*"}]}]}}"#.utf8)

    let ca: TrustedTestCA
    let identity: ServerIdentity
    let trust: TrustStore
    let maker: SignedFileMaker
    var pki: TestPKI { ca.pki }

    init() throws {
        ca = try TrustedTestCA()
        identity = try ca.pki.issueServerIdentity(for: [Self.host])
        trust = try TrustStore(caFile: ca.caFile)
        maker = SignedFileMaker(directory: ca.directory.url)
    }

    @Test(arguments: [SignedFileMaker.Kind.der, .pem])
    func aFileSignedWithTheSitesCertificateOpensAndVerifies(kind: SignedFileMaker.Kind) throws {
        let signed = try maker.sign(Self.content, with: identity, as: kind)
        let opened = try #require(SignedFile.open(signed, host: Self.host, trust: trust))
        #expect(opened.signature.format == (kind == .pem ? .pem : .der))
        #expect(opened.signature.opened)
        #expect(opened.signature.verified, "\(opened.signature.problem ?? "")")
        #expect(opened.signature.problem == nil)
        #expect(opened.content == Self.content)
        #expect(opened.signature.contentBytes == Self.content.count)
        #expect(
            opened.signature.signerSubject?.contains("CN = \(Self.host)") == true,
            "\(opened.signature.signerSubject ?? "")")
        #expect(opened.signature.certificates == 1)
    }

    @Test func oneChangedByteOfContentBreaksTheSignatureButTheContentIsStillRead() throws {
        var signed = try maker.sign(Self.content, with: identity)
        let at = try #require(signed.firstRange(of: Array("/buy/".utf8)))
        signed[at.lowerBound + 1] = UInt8(ascii: "g")  // "/guy/": same length, DER intact
        let opened = try #require(SignedFile.open(signed, host: Self.host, trust: trust))
        #expect(opened.signature.opened)
        #expect(!opened.signature.verified)
        #expect(
            opened.signature.problem?.hasPrefix("The signature does not match the content") == true,
            "\(opened.signature.problem ?? "")")
        #expect(opened.content.map { String(decoding: $0, as: UTF8.self).contains("/guy/") } == true)
    }

    @Test func aSignerFromAnUntrustedCAOrForAnotherNameDoesNotVerify() throws {
        let stranger = try TestPKI(name: "someone else").issueServerIdentity(for: [Self.host])
        let untrusted = try #require(
            SignedFile.open(try maker.sign(Self.content, with: stranger), host: Self.host, trust: trust))
        #expect(!untrusted.signature.verified)
        #expect(
            untrusted.signature.problem?.hasPrefix("The signer's certificate does not chain to a trusted CA") == true,
            "\(untrusted.signature.problem ?? "")")

        let otherName = try pki.issueServerIdentity(for: ["other.example"])
        let misnamed = try #require(
            SignedFile.open(try maker.sign(Self.content, with: otherName), host: Self.host, trust: trust))
        #expect(!misnamed.signature.verified)
        #expect(
            misnamed.signature.problem?.contains("is not valid for \(Self.host)") == true,
            "\(misnamed.signature.problem ?? "")")
        // Without a domain to name (a local file), only the signature and the chain count.
        #expect(
            SignedFile.open(try maker.sign(Self.content, with: otherName), host: nil, trust: trust)?.signature.verified
                == true)
    }

    @Test func filesThatCannotBeOpenedSayWhy() throws {
        let detached = try #require(
            SignedFile.open(try maker.sign(Self.content, with: identity, as: .detached), host: Self.host, trust: trust))
        #expect(!detached.signature.opened && detached.content == nil)
        #expect(detached.signature.problem?.contains("detached signature") == true)

        let enveloped = try #require(
            SignedFile.open(try maker.sign(Self.content, with: identity, as: .enveloped), host: Self.host, trust: trust)
        )
        #expect(!enveloped.signature.opened)
        #expect(
            enveloped.signature.problem?.contains("encrypted (enveloped)") == true,
            "\(enveloped.signature.problem ?? "")")

        let signed = try maker.sign(Self.content, with: identity)
        let truncated = try #require(
            SignedFile.open(Array(signed.prefix(signed.count / 2)), host: Self.host, trust: trust))
        #expect(!truncated.signature.opened)
        #expect(truncated.signature.problem?.hasPrefix("The file looks signed (CMS/PKCS#7) but cannot be read") == true)

        let nested = try #require(
            SignedFile.open(try maker.sign(signed, with: identity), host: Self.host, trust: trust))
        #expect(!nested.signature.opened)
        #expect(nested.signature.problem?.contains("nested") == true)

        // A megabyte that starts like a signed file and is not one.
        let garbage = Array(signed.prefix(40)) + [UInt8](repeating: 0x41, count: 1 << 20)
        #expect(SignedFile.open(garbage, host: Self.host, trust: trust)?.signature.opened == false)
    }

    @Test func plainFilesAreNotSigned() {
        #expect(SignedFile.open(Self.content, host: Self.host, trust: trust) == nil)
        #expect(SignedFile.open([], host: Self.host, trust: trust) == nil)
        #expect(SignedFile.open(Array("0".utf8), host: Self.host, trust: trust) == nil)
    }

    // Hostile and weak signed files (issue 25): refused for their real reason, at a cost linear
    // in their size, and never with a prompt.

    @Test func anEncryptedPEMBlockIsRefusedWithoutAskingForAPassPhrase() throws {
        let signed = try maker.sign(Self.content, with: identity, as: .pem)
        var lines = String(decoding: signed, as: UTF8.self).split(separator: "\n").map(String.init)
        lines.insert(
            contentsOf: ["Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF", ""], at: 1)
        let encrypted = Array(lines.joined(separator: "\n").utf8)
        let opened = try #require(SignedFile.open(encrypted, host: Self.host, trust: trust))
        #expect(!opened.signature.opened && opened.content == nil)
        #expect(opened.signature.problem?.contains("encrypted PEM block") == true, "\(opened.signature.problem ?? "")")
    }

    @Test func aPEMBlockOfAnotherKindSaysWhatItIs() throws {
        let certificate = Array("-----BEGIN PKCS7-----\n-----END PKCS7-----\n".utf8)
        #expect(SignedFile.open(certificate, host: Self.host, trust: trust)?.signature.opened == false)
        let other = Array(identity.certificatePEM.utf8)
        // Not recognised as signed at all: it does not start like one.
        #expect(SignedFile.open(other, host: Self.host, trust: trust) == nil)
        let relabelled = Array(
            identity.certificatePEM.replacingOccurrences(
                of: "-----BEGIN CERTIFICATE-----", with: "-----BEGIN PKCS7-----"
            ).utf8)
        let opened = try #require(SignedFile.open(relabelled, host: Self.host, trust: trust))
        #expect(opened.signature.problem?.contains("cannot be read") == true, "\(opened.signature.problem ?? "")")
    }

    @Test(arguments: [2, 8_000])
    func aRepeatedDigestAlgorithmIsRefusedBeforeOpenSSLReadsTheContent(times: Int) throws {
        // 8,000 repeats in a file under 128 KB: OpenSSL would chain 8,000 digest BIOs (seconds
        // of CPU, and a stack overflow at a megabyte).
        let signed = try maker.sign(Self.content, with: identity)
        let hostile = try SignedFileSurgery.repeatingDigestAlgorithm(in: signed, times: times)
        #expect(hostile.count > signed.count)
        let opened = try #require(SignedFile.open(hostile, host: Self.host, trust: trust))
        #expect(!opened.signature.opened && !opened.signature.verified)
        #expect(opened.signature.problem?.contains("more than once") == true, "\(opened.signature.problem ?? "")")
        // The surgery itself keeps the file sound: one algorithm, once, still verifies.
        let once = try SignedFileSurgery.repeatingDigestAlgorithm(in: signed, times: 1)
        #expect(SignedFile.open(once, host: Self.host, trust: trust)?.signature.verified == true)
    }

    @Test(arguments: [("md5", "MD5"), ("sha1", "SHA1")])
    func aWeakDigestIsNotVerifiedAndSaysSo(digest: String, name: String) throws {
        // RSA: OpenSSL pairs ECDSA with no MD5.
        let rsa = try maker.identity(keySpec: "rsa:2048", host: Self.host, issuedBy: pki)
        let signed = try maker.sign(Self.content, with: rsa, digest: digest)
        let opened = try #require(SignedFile.open(signed, host: Self.host, trust: trust))
        #expect(opened.signature.opened, "the content is still read")
        #expect(!opened.signature.verified)
        #expect(
            opened.signature.problem?.contains("The signature uses \(name)") == true,
            "\(opened.signature.problem ?? "")")
        // SHA-256 and stronger pass.
        #expect(
            SignedFile.open(
                try maker.sign(Self.content, with: identity, digest: "sha384"), host: Self.host, trust: trust)?
                .signature.verified == true)
    }

    @Test func aWeakKeyIsNotVerifiedAndSaysSo() throws {
        let weak = try maker.identity(keySpec: "rsa:512", host: Self.host, issuedBy: pki)
        let opened = try #require(
            SignedFile.open(try maker.sign(Self.content, with: weak), host: Self.host, trust: trust))
        #expect(opened.signature.opened && !opened.signature.verified)
        #expect(
            opened.signature.problem?.contains("The signer's key is RSA 512 bits") == true,
            "\(opened.signature.problem ?? "")")
        // The issue's case: RSA-512 with MD5.
        let both = try #require(
            SignedFile.open(try maker.sign(Self.content, with: weak, digest: "md5"), host: Self.host, trust: trust))
        #expect(!both.signature.verified)
        #expect(
            both.signature.problem?.contains("The signature uses MD5 (39 bits of security)") == true,
            "\(both.signature.problem ?? "")")
        // RSA 2048 is enough.
        let strong = try maker.identity(keySpec: "rsa:2048", host: Self.host, issuedBy: pki)
        let good = try #require(
            SignedFile.open(try maker.sign(Self.content, with: strong), host: Self.host, trust: trust))
        #expect(good.signature.verified, "\(good.signature.problem ?? "")")
    }

    @Test func anExpiredOrNotYetValidSignerIsNamedAsSuch() throws {
        let day: TimeInterval = 86_400
        let expired = try pki.issueServerIdentity(
            for: [Self.host], validFrom: Date().addingTimeInterval(-10 * day),
            validUntil: Date().addingTimeInterval(-2 * day))
        let old = try #require(
            SignedFile.open(try maker.sign(Self.content, with: expired), host: Self.host, trust: trust))
        #expect(!old.signature.verified)
        #expect(
            old.signature.problem?.hasPrefix("The signer's certificate expired on 20") == true,
            "\(old.signature.problem ?? "")")

        let future = try pki.issueServerIdentity(
            for: [Self.host], validFrom: Date().addingTimeInterval(2 * day),
            validUntil: Date().addingTimeInterval(10 * day))
        let early = try #require(
            SignedFile.open(try maker.sign(Self.content, with: future), host: Self.host, trust: trust))
        #expect(early.signature.problem?.contains("is not valid before") == true, "\(early.signature.problem ?? "")")
    }

    @Test func signedContentOfAnotherTypeIsNotReadAsTheFile() throws {
        let signed = try maker.sign(Self.content, with: identity, contentType: "1.2.840.113549.1.9.16.1.4")
        let opened = try #require(SignedFile.open(signed, host: Self.host, trust: trust))
        #expect(!opened.signature.opened && opened.content == nil)
        #expect(opened.signature.problem?.contains("not data") == true, "\(opened.signature.problem ?? "")")
    }

    /// The fuzzer's hostile seeds (Fuzz/Seeds/signed): each opens, or says why not, at once.
    @Test func theFuzzSeedsOpenOrSayWhy() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Seeds/signed")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count >= 5)
        for name in names {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            let opened = try #require(SignedFile.open(bytes, host: "example.com", trust: trust), "\(name)")
            #expect(opened.signature.opened == (opened.content != nil), "\(name)")
            // Self-signed seeds: none verifies against the test CA.
            #expect(!opened.signature.verified && opened.signature.problem != nil, "\(name)")
        }
    }
}
