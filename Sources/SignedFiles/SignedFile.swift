import AASAModel
import CCMS

/// Signed association files (iOS 8: `openssl smime -sign -nodetach -outform DER` with the
/// site's TLS key and certificate, served as `application/pkcs7-mime`): recognised by their
/// bytes whatever the Content-Type, opened, and verified with OpenSSL's CMS implementation.
public enum SignedFile {
    /// What opening a body gave: its signature record, and the signed content when there is one.
    public struct Opened: Sendable {
        public var signature: SignatureRecord
        /// The content, to be checked as the file; nil when it could not be taken out.
        public var content: [UInt8]?
    }

    /// `Opened` for a CMS/PKCS#7 body (DER or PEM), nil for anything else.
    /// - Parameters:
    ///   - host: the domain the signer's certificate must name; nil: not checked (a local file).
    ///   - trust: the CAs the signer's certificate must chain to (the fetch's own trust); nil:
    ///     the chain and name are not checked (the caller says why).
    public static func open(_ bytes: [UInt8], host: String?, trust: TrustStore?) -> Opened? {
        guard let format = format(of: bytes) else { return nil }
        var record = SignatureRecord(format: format)
        var error = [CChar](repeating: 0, count: 256)
        var status = CCMS_PARSE_OK
        let parsed = bytes.withUnsafeBufferPointer {
            ccms_parse($0.baseAddress, $0.count, format == .pem ? 1 : 0, &status, &error, error.count)
        }
        guard let message = parsed else {
            record.problem = parseProblem(status, detail: text(error))
            return Opened(signature: record, content: nil)
        }
        defer { ccms_free(message) }
        record.certificates = Int(ccms_certificate_count(message))
        switch ccms_message_kind(message) {
        case CCMS_SIGNED_DATA:
            break
        case CCMS_ENVELOPED_DATA:
            record.problem =
                "The file is an encrypted (enveloped) CMS message, not a signed one: nothing can read its content."
            return Opened(signature: record, content: nil)
        default:
            record.problem = "The file is a CMS message of another type than signed data."
            return Opened(signature: record, content: nil)
        }
        var pointer: UnsafePointer<UInt8>?
        var length = 0
        guard ccms_content(message, &pointer, &length) == 1, let pointer else {
            record.problem = "The file is a detached signature: it holds no content."
            return Opened(signature: record, content: nil)
        }
        guard ccms_content_is_data(message, &error, error.count) == 1 else {
            record.problem =
                "The signed content is of type \(text(error)), not data (1.2.840.113549.1.7.1): it is not a file to read."
            return Opened(signature: record, content: nil)
        }
        let content = Array(UnsafeBufferPointer(start: pointer, count: length))
        record.contentBytes = content.count
        if self.format(of: content) != nil {
            record.problem = "The signed content is itself signed (nested signatures); only one level is opened."
            return Opened(signature: record, content: nil)
        }
        record.opened = true
        record.problem = verify(message, host: host, trust: trust, subject: &record.signerSubject)
        // Without a trust store the chain and the name were not checked: not verified.
        record.verified = record.problem == nil && trust != nil
        return Opened(signature: record, content: content)
    }

    /// Why a body that looks signed could not be parsed.
    static func parseProblem(_ status: ccms_parse_status, detail: String) -> String {
        switch status {
        case CCMS_PARSE_PEM_ENCRYPTED:
            return "The file is an encrypted PEM block (Proc-Type: 4,ENCRYPTED): it needs a pass phrase, which "
                + "no device has, and is not read. Serve the signed file unencrypted (DER), or the plain JSON."
        case CCMS_PARSE_PEM_LABEL:
            return "The file is a PEM block of another kind (\(detail)), not a signed (PKCS7/CMS) message."
        case CCMS_PARSE_DUPLICATE_DIGEST:
            return "The signature lists one digest algorithm more than once: malformed, and refused unread "
                + "(each listed digest costs a pass over the content)."
        case CCMS_PARSE_TOO_MANY_PARTS:
            return "The signature has more digest algorithms (over \(CCMS_MAX_DIGEST_ALGORITHMS)), signers (over "
                + "\(CCMS_MAX_SIGNERS)) or certificates (over \(CCMS_MAX_CERTIFICATES)) than a signed file needs: "
                + "refused unread."
        default:
            return "The file looks signed (CMS/PKCS#7) but cannot be read: \(detail)."
        }
    }

    /// Nil when the signature, the algorithms, the chain and the name all verify; else which
    /// failed and why.
    static func verify(_ message: OpaquePointer, host: String?, trust: TrustStore?, subject: inout String?) -> String? {
        var error = [CChar](repeating: 0, count: 256)
        guard ccms_signer_count(message) > 0 else { return "The file has no signer." }
        let signatureOK = ccms_verify_signature(message, &error, error.count) == 1
        var buffer = [CChar](repeating: 0, count: 512)
        if ccms_signer_subject(message, &buffer, buffer.count) == 1 { subject = text(buffer) }
        guard signatureOK else {
            return "The signature does not match the content (\(text(error))): the file was changed after it was "
                + "signed, or signed wrongly."
        }
        if let weak = SignaturePolicy.weakness(of: message) { return weak }
        guard let trust else { return nil }
        var chain = ccms_chain_result()
        guard ccms_verify_chain(message, trust.pointer, SignaturePolicy.securityLevel, &chain) == 1 else {
            return SignaturePolicy.chainProblem(chain)
        }
        if let host {
            switch ccms_signer_matches_host(message, host) {
            case 1: break
            case 0:
                return "The signer's certificate is not valid for \(host)\(subject.map { " (it is \($0))" } ?? ""): "
                    + "iOS wanted the site's own certificate."
            default: return "The signer's certificate is not in the file."
            }
        }
        return nil
    }

    /// DER (a SEQUENCE holding the PKCS#7 signed- or enveloped-data OID near its start) or PEM.
    public static func format(of bytes: [UInt8]) -> SignatureRecord.Format? {
        let start = bytes.prefix(64)
        if start.first == 0x30, start.firstRange(of: pkcs7DataOIDPrefix) != nil { return .der }
        let text = String(decoding: start.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }, as: UTF8.self)
        if text.hasPrefix("-----BEGIN PKCS7-----") || text.hasPrefix("-----BEGIN CMS-----") { return .pem }
        return nil
    }

    /// OBJECT IDENTIFIER 1.2.840.113549.1.7 (pkcs7), without its last arc.
    static let pkcs7DataOIDPrefix: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07]

    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The CAs a signed file's signer must chain to: the same bundle the fetches trust. Loaded once
/// and shared. `@unchecked`: the OpenSSL store behind `pointer` is only read after `init` (a
/// verification takes its own store context), and freed once, in `deinit`.
public final class TrustStore: @unchecked Sendable {
    let pointer: OpaquePointer

    public init(caFile: String) throws(TrustStoreError) {
        var error = [CChar](repeating: 0, count: 256)
        guard let pointer = ccms_trust_load(caFile, &error, error.count) else {
            throw TrustStoreError(
                description: "cannot load the CA certificates of \(caFile): \(SignedFile.text(error))")
        }
        self.pointer = pointer
    }

    deinit { ccms_trust_free(pointer) }
}

public struct TrustStoreError: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}
