/// Where a value stands in a JSON text: the line and column (both from 1, as `TextPosition`) of
/// the value a JSON pointer names, for messages that point into a file. The text must be one
/// that `JSONParser` accepted; the walk is iterative and reads each byte at most once.
public enum JSONLocator {
    public enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    /// The position of the value at `path`; nil when the path names nothing.
    public static func locate(_ path: [Step], in bytes: [UInt8]) -> TextPosition? {
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        guard walk(path[...], &scanner) else { return nil }
        return scanner.position
    }

    /// Moves the scanner to the value at `path` from the value it stands at; false when the
    /// path names nothing.
    static func walk(_ path: ArraySlice<Step>, _ scanner: inout Scanner) -> Bool {
        for step in path {
            switch step {
            case .index(let wanted):
                guard scanner.peek == UInt8(ascii: "[") else { return false }
                scanner.offset += 1
                var index = 0
                while true {
                    scanner.skipSpace()
                    if scanner.peek == UInt8(ascii: "]") || scanner.peek == nil { return false }
                    if index == wanted { break }
                    scanner.skipValue()
                    scanner.skipSpace()
                    if scanner.peek == UInt8(ascii: ",") { scanner.offset += 1 } else { return false }
                    index += 1
                }
            case .key(let wanted):
                guard scanner.peek == UInt8(ascii: "{") else { return false }
                scanner.offset += 1
                var found: Int?
                while true {
                    scanner.skipSpace()
                    guard scanner.peek == UInt8(ascii: "\"") else { break }
                    let key = scanner.readString()
                    scanner.skipSpace()
                    guard scanner.peek == UInt8(ascii: ":") else { return false }
                    scanner.offset += 1
                    scanner.skipSpace()
                    // The last of duplicate keys is the one parsers keep.
                    if key == wanted { found = scanner.offset }
                    scanner.skipValue()
                    scanner.skipSpace()
                    if scanner.peek == UInt8(ascii: ",") { scanner.offset += 1 } else { break }
                }
                guard let found else { return false }
                scanner.offset = found
            }
        }
        return true
    }

    /// A text read once for many lookups (a list of 10,000 statements, each with a finding,
    /// often on one line): where its top-level array's elements start, and their line and
    /// column, so that a position costs its element's bytes, not the whole file's each time.
    public struct Index: Sendable {
        let bytes: [UInt8]
        let elements: [Int]
        let elementPositions: [TextPosition]

        public init(_ bytes: [UInt8]) {
            self.bytes = bytes
            var scanner = Scanner(bytes: bytes)
            scanner.skipSpace()
            var elements: [Int] = []
            if scanner.peek == UInt8(ascii: "[") {
                scanner.offset += 1
                while true {
                    scanner.skipSpace()
                    guard let byte = scanner.peek, byte != UInt8(ascii: "]") else { break }
                    elements.append(scanner.offset)
                    scanner.skipValue()
                    scanner.skipSpace()
                    guard scanner.peek == UInt8(ascii: ",") else { break }
                    scanner.offset += 1
                }
            }
            self.elements = elements
            var positions: [TextPosition] = []
            var position = TextPosition(of: 0, in: [])
            var offset = 0
            for start in elements {
                Self.advance(&position, over: bytes[offset..<start])
                offset = start
                positions.append(position)
            }
            elementPositions = positions
        }

        /// As `JSONLocator.locate(path, in: bytes)`.
        public func locate(_ path: [Step]) -> TextPosition? {
            guard case .index(let index)? = path.first else { return JSONLocator.locate(path, in: bytes) }
            guard elements.indices.contains(index) else { return nil }
            var scanner = Scanner(bytes: bytes, offset: elements[index])
            guard walk(path.dropFirst(), &scanner) else { return nil }
            var position = elementPositions[index]
            Self.advance(&position, over: bytes[elements[index]..<min(scanner.offset, bytes.count)])
            return position
        }

        /// Counts as `TextPosition` does: a line at each newline, a column at each byte that is
        /// not a UTF-8 continuation byte.
        static func advance(_ position: inout TextPosition, over bytes: ArraySlice<UInt8>) {
            for byte in bytes {
                if byte == 0x0A {
                    position.line += 1
                    position.column = 1
                } else if byte & 0xC0 != 0x80 {
                    position.column += 1
                }
            }
        }
    }

    /// The steps of an RFC 6901 pointer; a token of digits only is read as an index (a pointer
    /// cannot tell; `locate` then needs an array there).
    public static func steps(_ pointer: String) -> [Step] {
        pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { token in
            var key = ""
            var escaped = false
            for character in token {
                if escaped {
                    key.append(character == "1" ? "/" : character == "0" ? "~" : character)
                    escaped = false
                } else if character == "~" {
                    escaped = true
                } else {
                    key.append(character)
                }
            }
            if !key.isEmpty, key.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(key) {
                return Step.index(index)
            }
            return Step.key(key)
        }
    }

    /// `/0/target/site`: RFC 6901, with `~` and `/` escaped.
    public static func pointer(_ path: [Step]) -> String {
        path.map { step in
            switch step {
            case .index(let index): "/\(index)"
            case .key(let key):
                "/"
                    + key.flatMap { character -> [Character] in
                        character == "~" ? ["~", "0"] : character == "/" ? ["~", "1"] : [character]
                    }.map(String.init).joined()
            }
        }.joined()
    }

    struct Scanner {
        let bytes: [UInt8]
        var offset = 0

        var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        var position: TextPosition { TextPosition(of: offset, in: bytes) }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
        }

        /// Reads a string at the offset, as written (escapes kept: keys are compared as written).
        mutating func readString() -> String {
            offset += 1
            var buffer: [UInt8] = []
            while let byte = peek, byte != UInt8(ascii: "\"") {
                if byte == UInt8(ascii: "\\"), offset + 1 < bytes.count {
                    buffer.append(byte)
                    buffer.append(bytes[offset + 1])
                    offset += 2
                } else {
                    buffer.append(byte)
                    offset += 1
                }
            }
            offset += 1
            return String(decoding: buffer, as: UTF8.self)
        }

        /// Skips one value (strings, nested arrays and objects, literals), without recursion.
        mutating func skipValue() {
            var depth = 0
            repeat {
                guard let byte = peek else { return }
                switch byte {
                case UInt8(ascii: "\""):
                    _ = readString()
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    offset += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    offset += 1
                default:
                    if depth == 0 {
                        // A literal: up to the next delimiter.
                        while let next = peek,
                            ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(next),
                            next != 0x20, next != 0x0A, next != 0x0D, next != 0x09
                        {
                            offset += 1
                        }
                        return
                    }
                    offset += 1
                }
            } while depth > 0
        }
    }
}
