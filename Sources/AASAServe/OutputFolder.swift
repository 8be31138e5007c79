import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of `--out`, opened read-only: only the names `Route` lets through (a kept run's
/// folder, a report's plain name), each opened without following a link (a link in `--out`
/// to elsewhere is refused, not read), and only regular files. Nothing is listed.
public struct OutputFolder: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// An open regular file, closed when the last reference goes.
    public final class OpenFile: Sendable {
        public let descriptor: Int32
        public let size: Int

        init(descriptor: Int32, size: Int) {
            self.descriptor = descriptor
            self.size = size
        }

        deinit { close(descriptor) }

        /// Up to `count` bytes at `offset`.
        public func read(at offset: Int, count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            guard got >= 0 else { return nil }
            bytes.removeLast(count - got)
            return bytes
        }
    }

    /// Opens `file` of the folder (`run` nil) or of a run folder; nil when there is no such
    /// regular file reachable without a link.
    public func open(run: String?, file: String) -> OpenFile? {
        // The C library's open (this type's own `open` shadows the name).
        #if canImport(Glibc)
            let folder = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #else
            let folder = Darwin.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #endif
        guard folder >= 0 else { return nil }
        defer { close(folder) }
        var directory = folder
        if let run {
            directory = openat(folder, run, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard directory >= 0 else { return nil }
        }
        defer { if directory != folder { close(directory) } }
        let descriptor = openat(directory, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        return OpenFile(descriptor: descriptor, size: Int(status.st_size))
    }
}
