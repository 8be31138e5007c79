import Foundation

/// Why a local file (a domains file, entitlements, a file to lint or match) could not be read.
public struct FileReadError: UserFacingError, Equatable {
    public var path: String
    public var reason: String
    /// What the file is to the command ("the domains file"), when that helps.
    public var role: String?

    public var message: String { "cannot read \(role.map { $0 + " " } ?? "")\(path): \(reason)" }
    public var exitStatus: ExitStatus { .usage }
}

/// Reads local files with a bound on what is held in memory: the one reader of every command.
public enum BoundedFileReader {
    /// What was read: at most the limit's bytes, and the file's whole size.
    public struct Contents: Sendable {
        public var bytes: [UInt8]
        public var size: Int
        /// The file is larger than what was read.
        public var truncated: Bool { size > bytes.count }
    }

    /// A file larger than `limit` is refused.
    public static func readWhole(_ path: String, limit: Int) throws(FileReadError) -> [UInt8] {
        let contents = try read(path, prefix: limit)
        guard !contents.truncated else {
            throw FileReadError(path: path, reason: "it is larger than \(limit >> 20) MiB")
        }
        return contents.bytes
    }

    /// The first `prefix` bytes of a file, and its size. Regular files only: the file is opened
    /// without blocking (a FIFO with no writer would otherwise hang the open) and refused when
    /// it is a FIFO, a device (`/dev/zero` never ends) or a directory.
    /// `-` is standard input (read to its end, or one byte past the prefix).
    public static func read(_ path: String, prefix: Int) throws(FileReadError) -> Contents {
        if path == "-" { return try readStandardInput(prefix: prefix) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw FileReadError(
                path: path,
                reason: code == ENOENT
                    ? "no such file" : code == EACCES ? "permission denied" : String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw FileReadError(path: path, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw FileReadError(path: path, reason: "it is \(kind(of: status.st_mode)), not a regular file")
        }
        // Up to one byte past the prefix, in pieces (a size of 0 may mean "unknown", as in /proc).
        let wanted = prefix + 1
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(wanted, Int(status.st_size) + 1))
        var piece = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < wanted {
            let asked = min(piece.count, wanted - bytes.count)
            let got = piece.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, asked) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw FileReadError(path: path, reason: String(cString: strerror(errno))) }
            if got == 0 { break }
            bytes.append(contentsOf: piece[..<got])
        }
        let size = max(Int(status.st_size), bytes.count)
        if bytes.count > prefix { bytes.removeLast(bytes.count - prefix) }
        return Contents(bytes: bytes, size: size)
    }

    static func readStandardInput(prefix: Int) throws(FileReadError) -> Contents {
        var bytes: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= prefix {
            let got = piece.withUnsafeMutableBytes {
                systemRead(STDIN_FILENO, $0.baseAddress!, min($0.count, prefix + 1 - bytes.count))
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw FileReadError(path: "-", reason: String(cString: strerror(errno))) }
            if got == 0 { break }
            bytes.append(contentsOf: piece[..<got])
        }
        let size = bytes.count
        if bytes.count > prefix { bytes.removeLast(bytes.count - prefix) }
        return Contents(bytes: bytes, size: size)
    }

    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
