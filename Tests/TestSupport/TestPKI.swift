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

    /// A server identity for the given DNS names, valid now unless told otherwise.
    public func issueServerIdentity(
        for names: [String], validFrom: Date = Date().addingTimeInterval(-3600),
        validUntil: Date = Date().addingTimeInterval(86400 * 90)
    ) throws -> ServerIdentity {
        let key = P256.Signing.PrivateKey()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(key.publicKey),
            notValidBefore: validFrom,
            notValidAfter: validUntil,
            issuer: caCertificate.subject,
            subject: try DistinguishedName { CommonName(names.first ?? "localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names.map { .dnsName($0) })
            },
            issuerPrivateKey: .init(caKey)
        )
        return ServerIdentity(
            certificatePEM: try certificate.serializeAsPEM().pemString,
            privateKeyPEM: key.pemRepresentation
        )
    }
}

/// A server's certificate and private key, in PEM.
public struct ServerIdentity: Sendable {
    public let certificatePEM: String
    public let privateKeyPEM: String

    func tlsConfiguration() throws -> TLSConfiguration {
        let certificate = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
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
