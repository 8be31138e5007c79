import CCMS

/// Which signatures count as verified: OpenSSL's security level 2 (112 bits of security), the
/// level Debian's OpenSSL configuration sets by default and OpenSSL 3.2 made its own default.
///
/// - The signer's digest: SHA-224 or stronger (SHA-256 is what `openssl smime -sign` uses
///   today); MD5 (39 bits, as OpenSSL rates it) and SHA-1 (63) are refused.
/// - The signer's key: RSA and DSA of 2048 bits or more, EC of 224 bits or more (P-256 and up),
///   Ed25519 and Ed448.
/// - Every certificate of the chain: the same key sizes, and no MD5 or SHA-1 signature but a
///   trust anchor's own (OpenSSL's `auth_level` checks).
///
/// Apple's documentation of signed files (iOS 8: `openssl smime -sign` with the site's TLS
/// identity) names no algorithm; a site's TLS certificate today meets this level by the CA/B
/// Forum's rules, so a file signed with it does too.
public enum SignaturePolicy {
    public static let securityLevel: Int32 = 2
    public static let minimumSecurityBits: Int32 = 112

    /// Why a signer's digest or key is too weak, or nil when every signer's are strong enough.
    static func weakness(of message: OpaquePointer) -> String? {
        for index in 0..<ccms_signer_count(message) {
            var algorithms = ccms_signer_algorithms()
            guard ccms_signer_algorithms_at(message, index, &algorithms) == 1 else { continue }
            let digest = string(algorithms.digest)
            if algorithms.digest_security_bits < minimumSecurityBits {
                return "The signature uses \(digest) (\(algorithms.digest_security_bits) bits of security), below "
                    + "the \(minimumSecurityBits) bits aasa-audit requires (OpenSSL's security level \(securityLevel)): "
                    + "sign with SHA-256 (`openssl smime -sign -md sha256`)."
            }
            if algorithms.key_security_bits < minimumSecurityBits {
                let key = "\(string(algorithms.key_type)) \(algorithms.key_bits) bits"
                return "The signer's key is \(key) (\(algorithms.key_security_bits) bits of security), below the "
                    + "\(minimumSecurityBits) bits aasa-audit requires (OpenSSL's security level \(securityLevel)): "
                    + "sign with RSA 2048 or larger, or an EC key of P-256 or larger."
            }
        }
        return nil
    }

    /// The reason a signer's chain failed, in words that name it.
    static func chainProblem(_ chain: ccms_chain_result) -> String {
        let reason = string(chain.reason)
        let subject = string(chain.subject)
        let whose =
            chain.depth == 0 ? "The signer's certificate" : "A CA certificate of the signer's chain (\(subject))"
        switch chain.kind {
        case CCMS_CHAIN_EXPIRED:
            return "\(whose) expired on \(string(chain.not_after)): the signature no longer verifies."
        case CCMS_CHAIN_NOT_YET_VALID:
            return "\(whose) is not valid before \(string(chain.not_before)): the signature does not verify yet."
        case CCMS_CHAIN_UNTRUSTED:
            return "The signer's certificate does not chain to a trusted CA (\(reason))."
        case CCMS_CHAIN_WEAK:
            return "\(whose) is too weak (\(reason)): below OpenSSL's security level \(securityLevel) "
                + "(\(minimumSecurityBits) bits)."
        default:
            return "\(whose) does not verify (\(reason))."
        }
    }

    /// A NUL-terminated C array imported as a tuple.
    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
