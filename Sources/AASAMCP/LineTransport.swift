import Foundation
import Logging
import MCP

#if canImport(Glibc)
    import Glibc
#endif

/// MCP's stdio transport, bounded: one JSON-RPC message a line on standard input, read by a
/// thread of its own (blocking reads, no polling); a line longer than `maximumLineBytes` is
/// answered with a JSON-RPC error and dropped, never held; standard output carries protocol
/// messages only (the log goes to standard error). The stream ends when standard input closes.
public actor LineTransport: Transport {
    public static let maximumLineBytes = 4 << 20

    public nonisolated let logger: Logger
    private let input: Int32
    private let output: Int32
    private let stream: AsyncThrowingStream<Data, any Swift.Error>
    private let continuation: AsyncThrowingStream<Data, any Swift.Error>.Continuation
    private var started = false

    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, logger: Logger) {
        self.input = input
        self.output = output
        self.logger = logger
        (stream, continuation) = AsyncThrowingStream.makeStream()
    }

    public func connect() async throws {
        guard !started else { return }
        started = true
        let reader = Thread { [input, continuation, self] in
            var lines = LineSplitter(maximumBytes: Self.maximumLineBytes)
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                for line in lines.push(buffer[0..<count]) {
                    switch line {
                    case .message(let bytes):
                        // Not JSON at all: a parse error for no request (id null), as JSON-RPC
                        // says; the SDK would answer it with an id of its own making.
                        guard (try? JSONSerialization.jsonObject(with: Data(bytes))) != nil else {
                            let refusal = Self.error(-32700, "Parse error: the line is not JSON.")
                            Task { try? await self.send(refusal) }
                            continue
                        }
                        continuation.yield(Data(bytes))
                    case .tooLong(let bytes):
                        // Through the actor, so that it never interleaves with another message.
                        let refusal = Self.error(
                            -32600,
                            "The message is over \(Self.maximumLineBytes) bytes (\(bytes) read): refused unread.")
                        Task { try? await self.send(refusal) }
                    }
                }
            }
            continuation.finish()
        }
        reader.name = "mcp stdin"
        reader.start()
    }

    public func disconnect() async {
        continuation.finish()
    }

    public func send(_ data: Data) async throws {
        Self.write(Array(data) + [0x0A], to: output)
    }

    public nonisolated func receive() -> AsyncThrowingStream<Data, any Swift.Error> { stream }

    /// A JSON-RPC error for a line that is no request (its id unknown: null).
    static func error(_ code: Int, _ message: String) -> Data {
        Data(#"{"jsonrpc":"2.0","id":null,"error":{"code":\#(code),"message":"\#(message)"}}"#.utf8)
    }

    /// Writes all of `bytes`; a reader that went away ends nothing but the write.
    static func write(_ bytes: [UInt8], to output: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(output, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

/// Cuts a byte stream into lines, holding at most `maximumBytes` of a line: a longer one is
/// skipped to its end and reported by its length.
struct LineSplitter {
    enum Line: Equatable {
        case message([UInt8])
        case tooLong(Int)
    }

    let maximumBytes: Int
    private var pending: [UInt8] = []
    /// Bytes of the current line skipped past the bound.
    private var skipped = 0

    init(maximumBytes: Int) { self.maximumBytes = maximumBytes }

    mutating func push(_ bytes: ArraySlice<UInt8>) -> [Line] {
        var lines: [Line] = []
        var rest = bytes[...]
        while let end = rest.firstIndex(of: 0x0A) {
            lines.append(contentsOf: finish(rest[..<end]))
            rest = rest[(end + 1)...]
        }
        take(rest)
        return lines
    }

    private mutating func take(_ bytes: ArraySlice<UInt8>) {
        if skipped > 0 || pending.count + bytes.count > maximumBytes {
            skipped += pending.count + bytes.count
            pending = []
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    private mutating func finish(_ bytes: ArraySlice<UInt8>) -> [Line] {
        take(bytes)
        defer { (pending, skipped) = ([], 0) }
        if skipped > 0 { return [.tooLong(skipped)] }
        // A blank line (or one of whitespace) is no message.
        let line = pending.last == 0x0D ? Array(pending.dropLast()) : pending
        return line.allSatisfy { $0 == 0x20 || $0 == 0x09 } ? [] : [.message(line)]
    }
}
