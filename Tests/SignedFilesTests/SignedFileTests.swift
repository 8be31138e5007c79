import AASAModel
import Foundation
import SignedFiles
import Testing
import TestSupport

/// Signed files made with the openssl command, opened and verified with OpenSSL's CMS.
@Suite struct SignedFileTests {
    static let host = "signed.aasa.test"
    static let content = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.app"],"components":[{"/":"/buy/*"}]}]}}"#.utf8)

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
        #expect(opened.signature.signerSubject?.contains("CN = \(Self.host)") == true, "\(opened.signature.signerSubject ?? "")")
        #expect(opened.signature.certificates == 1)
    }

    @Test func oneChangedByteOfContentBreaksTheSignatureButTheContentIsStillRead() throws {
        var signed = try maker.sign(Self.content, with: identity)
        let at = try #require(signed.firstRange(of: Array("/buy/".utf8)))
        signed[at.lowerBound + 1] = UInt8(ascii: "g")  // "/guy/": same length, DER intact
        let opened = try #require(SignedFile.open(signed, host: Self.host, trust: trust))
        #expect(opened.signature.opened)
        #expect(!opened.signature.verified)
        #expect(opened.signature.problem?.hasPrefix("The signature does not match the content") == true, "\(opened.signature.problem ?? "")")
        #expect(opened.content.map { String(decoding: $0, as: UTF8.self).contains("/guy/") } == true)
    }

    @Test func aSignerFromAnUntrustedCAOrForAnotherNameDoesNotVerify() throws {
        let stranger = try TestPKI(name: "someone else").issueServerIdentity(for: [Self.host])
        let untrusted = try #require(SignedFile.open(try maker.sign(Self.content, with: stranger), host: Self.host, trust: trust))
        #expect(!untrusted.signature.verified)
        #expect(untrusted.signature.problem?.hasPrefix("The signer's certificate does not chain to a trusted CA") == true, "\(untrusted.signature.problem ?? "")")

        let otherName = try pki.issueServerIdentity(for: ["other.example"])
        let misnamed = try #require(SignedFile.open(try maker.sign(Self.content, with: otherName), host: Self.host, trust: trust))
        #expect(!misnamed.signature.verified)
        #expect(misnamed.signature.problem?.contains("is not valid for \(Self.host)") == true, "\(misnamed.signature.problem ?? "")")
        // Without a domain to name (a local file), only the signature and the chain count.
        #expect(SignedFile.open(try maker.sign(Self.content, with: otherName), host: nil, trust: trust)?.signature.verified == true)
    }

    @Test func filesThatCannotBeOpenedSayWhy() throws {
        let detached = try #require(SignedFile.open(try maker.sign(Self.content, with: identity, as: .detached), host: Self.host, trust: trust))
        #expect(!detached.signature.opened && detached.content == nil)
        #expect(detached.signature.problem?.contains("detached signature") == true)

        let enveloped = try #require(SignedFile.open(try maker.sign(Self.content, with: identity, as: .enveloped), host: Self.host, trust: trust))
        #expect(!enveloped.signature.opened)
        #expect(enveloped.signature.problem?.contains("encrypted (enveloped)") == true, "\(enveloped.signature.problem ?? "")")

        let signed = try maker.sign(Self.content, with: identity)
        let truncated = try #require(SignedFile.open(Array(signed.prefix(signed.count / 2)), host: Self.host, trust: trust))
        #expect(!truncated.signature.opened)
        #expect(truncated.signature.problem?.hasPrefix("The file looks signed (CMS/PKCS#7) but cannot be read") == true)

        let nested = try #require(SignedFile.open(try maker.sign(signed, with: identity), host: Self.host, trust: trust))
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
}
