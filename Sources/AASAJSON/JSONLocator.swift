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
        for step in path {
            switch step {
            case .index(let wanted):
                guard scanner.peek == UInt8(ascii: "[") else { return nil }
                scanner.offset += 1
                var index = 0
                while true {
                    scanner.skipSpace()
                    if scanner.peek == UInt8(ascii: "]") || scanner.peek == nil { return nil }
                    if index == wanted { break }
                    scanner.skipValue()
                    scanner.skipSpace()
                    if scanner.peek == UInt8(ascii: ",") { scanner.offset += 1 } else { return nil }
                    index += 1
                }
            case .key(let wanted):
                guard scanner.peek == UInt8(ascii: "{") else { return nil }
                scanner.offset += 1
                var found: Int?
                while true {
                    scanner.skipSpace()
                    guard scanner.peek == UInt8(ascii: "\"") else { break }
                    let key = scanner.readString()
                    scanner.skipSpace()
                    guard scanner.peek == UInt8(ascii: ":") else { return nil }
                    scanner.offset += 1
                    scanner.skipSpace()
                    // The last of duplicate keys is the one parsers keep.
                    if key == wanted { found = scanner.offset }
                    scanner.skipValue()
                    scanner.skipSpace()
                    if scanner.peek == UInt8(ascii: ",") { scanner.offset += 1 } else { break }
                }
                guard let found else { return nil }
                scanner.offset = found
            }
        }
        return scanner.position
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
