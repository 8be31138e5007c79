import Foundation

/// A file written under a temporary name beside its destination and renamed into place on
/// `commit()`, so that a reader sees the old file or the whole new one, never a part.
final class AtomicFileWriter {
    let destination: URL
    private let temporary: URL
    private let handle: FileHandle
    private var buffer = Data()

    init(destination: URL) throws {
        self.destination = destination
        temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        handle = try FileHandle(forWritingTo: temporary)
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
        try handle.synchronize()
        try handle.close()
        guard rename(temporary.path, destination.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    /// Appends what was written so far (not yet committed) to `other`, in pieces.
    func copyWritten(to other: AtomicFileWriter) throws {
        try flush()
        let reader = try FileHandle(forReadingFrom: temporary)
        defer { try? reader.close() }
        while let piece = try reader.read(upToCount: 1 << 20), !piece.isEmpty {
            try other.write(piece)
        }
    }

    func abandon() {
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
        let temporary = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).link")
        try? FileManager.default.removeItem(at: temporary)
        if link(source.path, temporary.path) != 0 {
            try FileManager.default.copyItem(at: source, to: temporary)
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }
}
