import CLibcrypto

/// SHA-256 of a body (or a run's domain list: `RunJournal`), fed as it arrives.
///
/// The one SHA-256 of the tool, and deliberately OpenSSL's: libcurl already links libcrypto for
/// TLS, so hashing with it adds no second crypto library to the binary.
public final class SHA256Stream {
    /// The algorithm, fetched from OpenSSL's provider once: `EVP_sha256()` would make every
    /// initialisation look it up again, under a lock the TLS work also takes. Immutable and
    /// thread-safe once fetched.
    nonisolated(unsafe) private static let algorithm: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    private let context: OpaquePointer

    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, Self.algorithm ?? EVP_sha256(), nil) == 1
        else {
            fatalError("OpenSSL cannot set up SHA-256")
        }
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest as 64 lower-case hex digits. Call once.
    public func finalizeHex() -> String {
        Self.hex(finalize())
    }

    /// The digest's 32 bytes. Call once.
    func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }

    /// SHA-256 of `bytes` (`serve`'s Content-Security-Policy hash).
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        let stream = SHA256Stream()
        bytes.withUnsafeBytes { stream.update($0) }
        return stream.finalize()
    }

    /// SHA-256 of `bytes` as 64 lower-case hex digits (a merchant file lint reads).
    public static func hex(of bytes: [UInt8]) -> String { hex(digest(bytes)) }

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
