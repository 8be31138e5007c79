import Foundation

/// An exclusive `flock` on a lock file of aasa-audit's own, waited for: opened without following
/// a link, refused when it is anything but a regular file, released by the system if the
/// process dies. For short changes many processes may make at once (`ack`); the audit's own
/// lock on `--out` is `OutputLock`, which never waits.
struct FileLock {
    private let descriptor: Int32

    init(_ url: URL) throws(OutputFileError) {
        descriptor = open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw OutputFileError(
                path: url.path, reason: errno == ELOOP ? "it is a symbolic link" : String(cString: strerror(errno)))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw OutputFileError(
                path: url.path, reason: "it is \(BoundedFileReader.kind(of: status.st_mode)), not a regular file")
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw OutputFileError(path: url.path, reason: "cannot lock it: \(reason)")
            }
        }
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
