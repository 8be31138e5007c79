import Foundation

/// One audit at a time per output folder: an exclusive `flock` on `<out>/.lock`, held for the
/// run and released by the system if the process dies.
final class OutputLock {
    private let descriptor: Int32

    init(directory: URL) throws(AuditRunError) {
        let path = directory.appendingPathComponent(".lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw AuditRunError.outputFolder("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var holder = ""
            if let text = try? String(contentsOfFile: path, encoding: .utf8), !text.isEmpty {
                holder = " (\(text.trimmingCharacters(in: .whitespacesAndNewlines)))"
            }
            close(descriptor)
            throw AuditRunError.outputBusy("another audit is writing to \(directory.path)\(holder); wait for it to finish")
        }
        let note = "pid \(getpid()), started \(ISO8601DateFormatter().string(from: Date()))\n"
        _ = ftruncate(descriptor, 0)
        _ = note.withCString { write(descriptor, $0, strlen($0)) }
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
