import CLibcrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `--cacert` file, checked before a run: curl would only find out at the first connection,
/// and then every domain of the run would fail the same way.
public enum CACertificateFile {
    /// Larger files are not read (Debian's whole bundle is about 200 KB).
    public static let maximumBytes = 16 << 20

    /// The number of certificates the file holds; throws when it is not a regular, readable
    /// file of PEM certificates.
    @discardableResult
    public static func check(_ path: String) throws(FetcherError) -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw FetcherError("cannot be read (\(String(cString: strerror(errno))))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw FetcherError("is not a regular file") }
        guard status.st_size <= maximumBytes else { throw FetcherError("is larger than \(maximumBytes >> 20) MiB") }
        guard let bio = BIO_new_file(path, "r") else { throw FetcherError("cannot be opened") }
        defer { BIO_free(bio) }
        var count = 0
        while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
            X509_free(certificate)
            count += 1
        }
        ERR_clear_error()
        guard count > 0 else { throw FetcherError("holds no PEM certificate (-----BEGIN CERTIFICATE-----)") }
        return count
    }
}
