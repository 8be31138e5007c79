import CLibcrypto

/// SHA-256 of a body, fed as it arrives.
///
/// The one SHA-256 of the tool, and deliberately OpenSSL's: libcurl already links libcrypto for
/// TLS, so hashing with it adds no second crypto library to the binary.
final class SHA256Stream {
    /// The algorithm, fetched from OpenSSL's provider once: `EVP_sha256()` would make every
    /// initialisation look it up again, under a lock the TLS work also takes. Immutable and
    /// thread-safe once fetched.
    nonisolated(unsafe) private static let algorithm: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    private let context: OpaquePointer

    init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, Self.algorithm ?? EVP_sha256(), nil) == 1
        else {
            fatalError("OpenSSL cannot set up SHA-256")
        }
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest as 64 lower-case hex digits. Call once.
    func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return Self.hex(digest.prefix(Int(length)))
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
