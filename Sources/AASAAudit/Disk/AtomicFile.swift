import Foundation

/// A file written under a temporary name beside its destination and renamed into place on
/// `commit()`, so that a reader sees the old file or the whole new one, never a part.
///
/// The temporary file is created exclusively and never through a symbolic link. A destination
/// that exists and is not a regular file is never replaced: a character device or a FIFO with
/// a reader (`--junit /dev/null`, `--metrics /dev/stdout`) is written in place, anything else
/// (a directory, a socket, a FIFO nobody reads) is refused.
final class AtomicFileWriter {
    let destination: URL
    /// Nil when the destination is written in place.
    private let temporary: URL?
    private let handle: FileHandle
    private var buffer = Data()

    init(destination: URL) throws {
        self.destination = destination
        if let special = try Self.openSpecialDestination(destination) {
            temporary = nil
            handle = special
            return
        }
        let created = try Self.createTemporary(
            in: destination.deletingLastPathComponent(), for: destination.lastPathComponent)
        (temporary, handle) = (created.url, created.handle)
    }

    /// A spool: written, copied out with `copyWritten(to:)`, then abandoned, never committed.
    /// It lives in the temporary folder, beside no destination (which may be a device), and is
    /// created there exclusively like every temporary file, so nothing planted in a shared
    /// folder can stand in for it.
    static func spool(named name: String) throws -> AtomicFileWriter {
        try AtomicFileWriter(spoolIn: FileManager.default.temporaryDirectory, name: name)
    }

    private init(spoolIn directory: URL, name: String) throws {
        let created = try Self.createTemporary(in: directory, for: name)
        (destination, temporary, handle) = (created.url, created.url, created.handle)
    }

    /// `.NAME.PID.RANDOM.tmp` in `directory`, created exclusively and never through a link.
    private static func createTemporary(in directory: URL, for name: String) throws -> (url: URL, handle: FileHandle) {
        let url = directory.appendingPathComponent(".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO, path: url.path) }
        return (url, FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
    }

    /// An existing destination that is not a regular file, opened for writing in place; nil
    /// for a regular file or none.
    private static func openSpecialDestination(_ destination: URL) throws -> FileHandle? {
        var status = stat()
        guard stat(destination.path, &status) == 0 else { return nil }
        let type = status.st_mode & S_IFMT
        guard type != S_IFREG else { return nil }
        guard type == S_IFCHR || type == S_IFIFO else {
            throw OutputFileError(
                path: destination.path,
                reason: "it is \(BoundedFileReader.kind(of: status.st_mode)), not a regular file")
        }
        // Without blocking: a FIFO that nobody reads fails at once (ENXIO) instead of waiting.
        let descriptor = open(destination.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENXIO ? "it is a FIFO that nobody reads" : String(cString: strerror(errno))
            throw OutputFileError(path: destination.path, reason: reason)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    func write(_ data: Data) throws {
        buffer.append(data)
        if buffer.count >= 1 << 16 { try flush() }
    }

    func write(_ text: String) throws {
        try write(Data(text.utf8))
    }

    func commit() throws {
        try flush()
        guard let temporary else { return }
        try handle.synchronize()
        try handle.close()
        guard rename(temporary.path, destination.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO, path: destination.path)
        }
    }

    /// Appends what was written so far (not yet committed) to `other`, in pieces.
    func copyWritten(to other: AtomicFileWriter) throws {
        try flush()
        guard let temporary else { return }
        let reader = try FileHandle(forReadingFrom: temporary)
        defer { try? reader.close() }
        while let piece = try reader.read(upToCount: 1 << 20), !piece.isEmpty {
            try other.write(piece)
        }
    }

    func abandon() {
        guard let temporary else { return }
        try? handle.close()
        try? FileManager.default.removeItem(at: temporary)
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes the file with `body`, then commits it; abandons it when either fails. Returns
    /// the destination.
    @discardableResult
    func complete(_ body: (AtomicFileWriter) throws -> Void) throws -> URL {
        do {
            try body(self)
            try commit()
            return destination
        } catch {
            abandon()
            throw error
        }
    }

    /// Writes `data` to `destination` atomically.
    static func write(_ data: Data, to destination: URL) throws {
        try AtomicFileWriter(destination: destination).complete { try $0.write(data) }
    }

    /// Makes `destination` a copy of `source` atomically: a hard link where the file system
    /// allows one (no bytes copied), else a streamed copy.
    static func replace(_ destination: URL, withCopyOf source: URL) throws {
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(
                ".\(destination.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).link")
        if link(source.path, temporary.path) != 0 {
            try FileManager.default.copyItem(at: source, to: temporary)
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO, path: destination.path)
        }
    }
}

extension POSIXError {
    init(_ code: POSIXErrorCode, path: String) {
        self.init(code, userInfo: [NSFilePathErrorKey: path])
    }
}
