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

    /// The first `prefix` bytes of a file, and its size.
    public static func read(_ path: String, prefix: Int) throws(FileReadError) -> Contents {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FileReadError(path: path, reason: reason(opening: path))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: prefix + 1) ?? Data()
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? data.count
            return Contents(bytes: Array(data.prefix(prefix)), size: max(size, data.count))
        } catch {
            throw FileReadError(path: path, reason: describe(error))
        }
    }

    static func reason(opening path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
        return isDirectory.boolValue ? "it is a directory" : "permission denied"
    }

    static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
