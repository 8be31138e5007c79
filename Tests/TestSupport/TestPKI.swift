import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A certificate authority made fresh for a test run, and server certificates it issues.
/// Nothing is read from or written to the system's trust store.
public struct TestPKI: Sendable {
    public let caCertificatePEM: String
    private let caCertificate: Certificate
    private let caKey: P256.Signing.PrivateKey

    public init(name: String = "aasa-audit test CA") throws {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let now = Date()
        caCertificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(86400 * 400),
            issuer: subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(key)
        )
        caKey = key
        caCertificatePEM = try caCertificate.serializeAsPEM().pemString
    }

    /// The CA's private key, for tests that issue certificates with the `openssl` command.
    public var caPrivateKeyPEM: String { caKey.pemRepresentation }

    /// Writes the CA certificate to a PEM file (for `--cacert`) and returns its path.
    public func writeCACertificate(in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("test-ca.pem")
        try caCertificatePEM.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A server identity for the given DNS names, valid now unless told otherwise; with
    /// `intermediateValidUntil`, issued by an intermediate CA (valid until then) that the server
    /// sends after its certificate.
    public func issueServerIdentity(
        for names: [String], validFrom: Date = Date().addingTimeInterval(-3600),
        validUntil: Date = Date().addingTimeInterval(86400 * 90), intermediateValidUntil: Date? = nil
    ) throws -> ServerIdentity {
        var issuerName = caCertificate.subject
        var issuerKey = caKey
        var chainPEM = ""
        if let intermediateValidUntil {
            let intermediateKey = P256.Signing.PrivateKey()
            let subject = try DistinguishedName { CommonName("aasa-audit test intermediate") }
            let intermediate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(intermediateKey.publicKey),
                notValidBefore: validFrom, notValidAfter: intermediateValidUntil, issuer: caCertificate.subject,
                subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                }, issuerPrivateKey: .init(caKey))
            (issuerName, issuerKey) = (subject, intermediateKey)
            chainPEM = try intermediate.serializeAsPEM().pemString + "\n"
        }
        let key = P256.Signing.PrivateKey()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(key.publicKey),
            notValidBefore: validFrom,
            notValidAfter: validUntil,
            issuer: issuerName,
            subject: try DistinguishedName { CommonName(names.first ?? "localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names.map { .dnsName($0) })
            },
            issuerPrivateKey: .init(issuerKey)
        )
        return ServerIdentity(
            certificatePEM: try certificate.serializeAsPEM().pemString + "\n" + chainPEM,
            privateKeyPEM: key.pemRepresentation,
            publicKeySHA256: Data(SHA256.hash(data: key.publicKey.derRepresentation)).base64EncodedString()
        )
    }
}

/// A server's certificate and private key, in PEM.
public struct ServerIdentity: Sendable {
    public let certificatePEM: String
    public let privateKeyPEM: String
    /// The SHA-256 of the certificate's SubjectPublicKeyInfo, in base64: what Chromium's
    /// `--ignore-certificate-errors-spki-list` trusts.
    public var publicKeySHA256: String = ""

    func tlsConfiguration() throws -> TLSConfiguration {
        // The server's certificate, then any intermediate it sends.
        let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))
        let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.applicationProtocols = ["http/1.1"]
        return configuration
    }
}

/// A test CA and a temporary directory holding its certificate (the file clients trust).
public struct TrustedTestCA: Sendable {
    public let pki: TestPKI
    public let directory: TemporaryDirectory
    /// The CA certificate's PEM file, in `directory`.
    public let caFile: String

    public init(name: String = "aasa-audit test CA") throws {
        pki = try TestPKI(name: name)
        directory = try TemporaryDirectory()
        caFile = try pki.writeCACertificate(in: directory.url)
    }
}
