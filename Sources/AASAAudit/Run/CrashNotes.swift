import CCrashNote
import Synchronization

/// What the process writes to its standard error if it crashes (`CCrashNote`): a header, then
/// a note for each piece of work in hand (`serve`: each request it is answering), so that the
/// journal names the request that crashed it. Notes live in `CCRASHNOTE_SLOTS` fixed slots;
/// work beyond them goes unnoted.
public enum CrashNotes {
    private static let free = Mutex<UInt64>(.max)

    /// Arms the handlers; the header is copied (and cut at 512 bytes).
    public static func install(header: String) {
        header.withCString { crashnote_install(2, $0, -1, nil) }
    }

    /// Runs `body` with `note` (cut at 512 bytes; control characters shown as `?`, so that a
    /// request's bytes cannot forge lines in the log) written if the process crashes meanwhile.
    public static func noting<T, E: Error>(_ note: String, _ body: () async throws(E) -> T) async throws(E) -> T {
        let slot = free.withLock { free -> Int? in
            guard free != 0 else { return nil }
            let slot = free.trailingZeroBitCount
            free &= ~(1 << UInt64(slot))
            return slot
        }
        guard let slot, slot < Int(CCRASHNOTE_SLOTS) else { return try await body() }
        var bytes = Array(note.utf8.prefix(Int(CCRASHNOTE_NOTE_BYTES)))
        for index in bytes.indices where bytes[index] < 0x20 || bytes[index] == 0x7F {
            bytes[index] = UInt8(ascii: "?")
        }
        // Copied into the slot during the call: the array's buffer need not outlive it.
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { crashnote_set(Int32(slot), $0.baseAddress, $0.count) }
        }
        defer {
            crashnote_set(Int32(slot), nil, 0)
            free.withLock { $0 |= 1 << UInt64(slot) }
        }
        return try await body()
    }
}
