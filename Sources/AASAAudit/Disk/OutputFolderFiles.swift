import AASAModel
import AASAReport
import Foundation

/// A file in the output folder, or an output the user named, that aasa-audit refuses to touch.
public struct OutputFileError: UserFacingError, LocalizedError, Equatable {
    public var path: String
    public var reason: String

    public var message: String {
        TerminalReport.clean("refusing \(path): \(reason); aasa-audit reads and writes only regular files there")
    }

    public var exitStatus: ExitStatus { .usage }
    public var errorDescription: String? { message }
}

/// How files under `--out` are opened: a folder others may write into, read and written by a
/// job that may run as root. Nothing is followed out of it: a symbolic link or a special file
/// (FIFO, device, socket) where aasa-audit keeps a file is refused with `OutputFileError`;
/// files are opened without following links and without blocking.
enum OutputFolderFiles {
    /// The files aasa-audit keeps at the top of `--out`.
    static let kept = OutputFolderLayout.kept

    /// Refuses an output folder where any kept file is a link or not a regular file.
    static func checkKeptFiles(in output: URL) throws(OutputFileError) {
        for name in kept { try requireRegularOrMissing(output.appendingPathComponent(name)) }
    }

    /// Nothing there, or a regular file (not a link to one).
    static func requireRegularOrMissing(_ url: URL) throws(OutputFileError) {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return }
        try requireRegular(status, url)
    }

    private static func requireRegular(_ status: stat, _ url: URL) throws(OutputFileError) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK: throw OutputFileError(path: url.path, reason: "it is a symbolic link")
        default: throw OutputFileError(path: url.path, reason: "it is \(BoundedFileReader.kind(of: status.st_mode))")
        }
    }

    /// A regular file opened for reading: nil when there is none, refused when it is a link or
    /// special. Reads go through `LineReader` or bounded pieces, never the whole file at once.
    static func openForReading(_ url: URL) throws(OutputFileError) -> FileHandle? {
        try openRegular(url, O_RDONLY)
    }

    /// Like `openForReading`, but nil for anything that is not a regular file: for files
    /// inside run folders, which are skipped rather than refused.
    static func openRegularIfAny(_ url: URL) -> FileHandle? {
        (try? openForReading(url)) ?? nil
    }

    /// A regular file opened to append to (it must exist).
    static func openForAppending(_ url: URL) throws(OutputFileError) -> FileHandle {
        guard let handle = try openRegular(url, O_WRONLY | O_APPEND) else {
            throw OutputFileError(path: url.path, reason: "it is gone")
        }
        return handle
    }

    /// Opens without following a link and without blocking (a FIFO would otherwise hang the
    /// open), then requires a regular file; nil when there is nothing.
    private static func openRegular(_ url: URL, _ flags: Int32) throws(OutputFileError) -> FileHandle? {
        let descriptor = open(url.path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw OutputFileError(path: url.path, reason: "it is a symbolic link")
            default: throw OutputFileError(path: url.path, reason: String(cString: strerror(errno)))
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw OutputFileError(path: url.path, reason: reason)
        }
        do throws(OutputFileError) {
            try requireRegular(status, url)
        } catch {
            close(descriptor)
            throw error
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// A real directory (not a link to one).
    static func isDirectory(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
