import AASAModel
import Foundation

/// One audit at a time per output folder: an exclusive `flock` on `<out>/.lock`, held for the
/// run and released by the system if the process dies. The lock file is a regular file of
/// aasa-audit's own: opened without following a link and without blocking, refused when it is
/// anything else; a busy lock's note is read up to 256 bytes (`main` escapes its controls, as
/// in every error message).
final class OutputLock {
    private let descriptor: Int32
    static let noteLimit = 256

    init(directory: URL) throws(AuditRunError) {
        let path = directory.appendingPathComponent(OutputFolderLayout.lock).path
        descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link" : String(cString: strerror(errno))
            throw AuditRunError.outputFolder("cannot open \(path): \(reason)")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw AuditRunError.outputFolder(
                "refusing \(path): it is \(BoundedFileReader.kind(of: status.st_mode)), not a regular file")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let note = Self.note(descriptor)
            close(descriptor)
            let holder = note.isEmpty ? "" : " (\(note))"
            throw AuditRunError.outputBusy(
                "another audit is writing to \(directory.path)\(holder); wait for it to finish")
        }
        let note = "pid \(getpid()), started \(ISO8601DateFormatter().string(from: Date()))\n"
        _ = ftruncate(descriptor, 0)
        _ = note.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    /// The holder's note: its first line, at most `noteLimit` bytes.
    private static func note(_ descriptor: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: noteLimit)
        let count = pread(descriptor, &bytes, noteLimit, 0)
        guard count > 0 else { return "" }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        return String(text.prefix { $0 != "\n" }).trimmingCharacters(in: .whitespaces)
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
