import Foundation

/// Signed association files made with the `openssl` command, as Apple's iOS 8 documentation
/// told sites to make them (`openssl smime -sign -nodetach -outform DER` with the site's TLS
/// certificate and key), and the broken variants an auditor must survive.
public struct SignedFileMaker: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public enum Kind: Sendable {
        /// Apple's command: content inside, DER.
        case der
        /// The same, PEM (`-----BEGIN PKCS7-----`).
        case pem
        /// A detached signature: no content inside.
        case detached
        /// An encrypted (enveloped) message for the certificate, not a signed one.
        case enveloped
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The bytes of `content` signed by `identity` (its certificate alone in the file).
    /// - Parameters:
    ///   - digest: the signer's digest (`-md`), e.g. "md5"; nil: openssl's default (SHA-256).
    ///   - contentType: an encapsulated content type other than id-data (dotted OID).
    public func sign(
        _ content: [UInt8], with identity: ServerIdentity, as kind: Kind = .der, digest: String? = nil,
        contentType: String? = nil
    ) throws -> [UInt8] {
        let name = UUID().uuidString
        let input = directory.appendingPathComponent("\(name).json")
        let certificate = directory.appendingPathComponent("\(name).crt")
        let key = directory.appendingPathComponent("\(name).key")
        let output = directory.appendingPathComponent("\(name).p7")
        try Data(content).write(to: input)
        try identity.certificatePEM.write(to: certificate, atomically: true, encoding: .utf8)
        try identity.privateKeyPEM.write(to: key, atomically: true, encoding: .utf8)
        defer { [input, certificate, key, output].forEach { try? FileManager.default.removeItem(at: $0) } }
        let files = ["-in", input.path, "-out", output.path]
        let signer = ["-signer", certificate.path, "-inkey", key.path] + (digest.map { ["-md", $0] } ?? [])
        var arguments: [String] =
            switch kind {
            case .der: ["smime", "-sign", "-nodetach", "-outform", "DER"] + signer + files
            case .pem: ["smime", "-sign", "-nodetach", "-outform", "PEM"] + signer + files
            case .detached: ["smime", "-sign", "-outform", "DER"] + signer + files
            // cms, not smime: PKCS#7 encrypts only to RSA keys, CMS also to EC ones (ECDH).
            case .enveloped: ["cms", "-encrypt", "-aes256", "-outform", "DER", "-recip", certificate.path] + files
            }
        if let contentType {
            arguments =
                ["cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-econtent_type", contentType] + signer
                + files
        }
        return try run(arguments, output: output)
    }

    /// A server identity issued by `ca` with the `openssl` command, for keys swift-crypto will
    /// not make: `keySpec` as `openssl req -newkey` takes it ("rsa:512", "rsa:2048").
    public func identity(keySpec: String, host: String, issuedBy ca: TestPKI) throws -> ServerIdentity {
        let name = UUID().uuidString
        let file = { (suffix: String) in directory.appendingPathComponent("\(name).\(suffix)") }
        try ca.caCertificatePEM.write(to: file("ca.crt"), atomically: true, encoding: .utf8)
        try ca.caPrivateKeyPEM.write(to: file("ca.key"), atomically: true, encoding: .utf8)
        defer {
            ["ca.crt", "ca.key", "csr", "key", "crt"].forEach { try? FileManager.default.removeItem(at: file($0)) }
        }
        _ = try run(
            [
                "req", "-new", "-newkey", keySpec, "-nodes", "-keyout", file("key").path, "-subj", "/CN=\(host)",
                "-addext", "subjectAltName=DNS:\(host)", "-out", file("csr").path,
            ], output: file("csr"))
        let certificate = try run(
            [
                "x509", "-req", "-in", file("csr").path, "-CA", file("ca.crt").path, "-CAkey", file("ca.key").path,
                "-set_serial", "\(UInt32.random(in: 1...UInt32.max))", "-days", "1", "-copy_extensions", "copy", "-out",
                file("crt").path,
            ],
            output: file("crt"))
        return ServerIdentity(
            certificatePEM: String(decoding: certificate, as: UTF8.self),
            privateKeyPEM: try String(contentsOf: file("key"), encoding: .utf8))
    }

    private func run(_ arguments: [String], output: URL) throws -> [UInt8] {
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/openssl"), arguments)
        guard result.status == 0 else {
            throw Failure(description: "openssl \(arguments.first ?? ""): \(result.stderr)")
        }
        return Array(try Data(contentsOf: output))
    }
}
