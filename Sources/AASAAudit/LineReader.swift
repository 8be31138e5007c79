import Foundation

/// Lines of a file, read in chunks of 64 KiB.
struct LineReader: Sequence, IteratorProtocol {
    let handle: FileHandle
    private var buffer = Data()
    private var finished = false

    init(handle: FileHandle) { self.handle = handle }

    mutating func next() -> Data? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = buffer[(newline + 1)...]
                return Data(line)
            }
            if finished {
                guard !buffer.isEmpty else { return nil }
                defer { buffer = Data() }
                return Data(buffer)
            }
            let chunk = (try? handle.read(upToCount: 1 << 16)) ?? nil
            if let chunk, !chunk.isEmpty { buffer.append(chunk) } else { finished = true }
        }
    }
}
