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
    public func sign(_ content: [UInt8], with identity: ServerIdentity, as kind: Kind = .der) throws -> [UInt8] {
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
        let arguments: [String] = switch kind {
        case .der: ["smime", "-sign", "-nodetach", "-outform", "DER", "-signer", certificate.path, "-inkey", key.path] + files
        case .pem: ["smime", "-sign", "-nodetach", "-outform", "PEM", "-signer", certificate.path, "-inkey", key.path] + files
        case .detached: ["smime", "-sign", "-outform", "DER", "-signer", certificate.path, "-inkey", key.path] + files
        // cms, not smime: PKCS#7 encrypts only to RSA keys, CMS also to EC ones (ECDH).
        case .enveloped: ["cms", "-encrypt", "-aes256", "-outform", "DER", "-recip", certificate.path] + files
        }
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/openssl"), arguments)
        guard result.status == 0 else { throw Failure(description: "openssl \(arguments.first ?? ""): \(result.stderr)") }
        return Array(try Data(contentsOf: output))
    }
}
