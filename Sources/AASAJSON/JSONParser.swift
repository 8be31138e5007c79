/// Why a document is not strict JSON, and where: a byte offset and a 1-based line and column
/// (the column counts characters, as an editor does).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var kind: JSONParseErrorKind
    /// The problem in words, for people.
    public var reason: String
    public var offset: Int
    public var line: Int
    public var column: Int

    public var description: String { "\(reason) at line \(line), column \(column)" }
}

/// What kind of mistake stopped the parser, for callers that explain it (a trailing comma is
/// the classic hand-edited mistake).
public enum JSONParseErrorKind: String, Sendable, Equatable {
    /// Nothing but white space.
    case empty
    /// The input ends inside a value.
    case unexpectedEnd
    /// A byte that cannot stand where it does.
    case unexpectedByte
    /// A comma right before `}` or `]`.
    case trailingComma
    /// More after the top-level value.
    case trailingContent
    /// Nesting deeper than the parser's bound.
    case tooDeep
    case invalidNumber
    /// An unterminated string, a raw control character, invalid UTF-8, a bad escape.
    case invalidString
}

/// A strict RFC 8259 parser over bytes. Strict on purpose: the devices that read an
/// association file accept only strict JSON, so a comment or a trailing comma must fail here
/// too, with its position. Nesting is bounded so that hostile input cannot exhaust the stack.
public struct JSONParser {
    /// Deeper nesting than this is rejected. Real association files nest five or six levels.
    public static let defaultMaxDepth = 256

    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var parser = Cursor(bytes: buffer, maxDepth: maxDepth)
            return try parser.parseDocument()
        }
    }

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}

private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else {
            throw error(.empty, bytes.isEmpty ? "the document is empty" : "the document holds only white space")
        }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw error(.trailingContent, "unexpected \(describeCurrent()) after the end of the top-level value")
        }
        return value
    }

    // MARK: Values

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error(.unexpectedEnd, "unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error(.unexpectedByte, "unexpected \(describeCurrent()), expected a value")
        }
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth { throw error(.tooDeep, "nesting deeper than \(maxDepth) levels") }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd, "unexpected end of input inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}"), !members.isEmpty {
                    throw error(.trailingComma, "trailing comma before '}'")
                }
                throw error(.unexpectedByte, "unexpected \(describeCurrent()), expected a member name in double quotes")
            }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw error(.unexpectedByte, "unexpected \(describeCurrent()), expected ':' after the member name")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append((key, value))
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd, "unexpected end of input inside an object") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(JSONObject(members))
            default: throw error(.unexpectedByte, "unexpected \(describeCurrent()), expected ',' or '}'")
            }
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if peek(UInt8(ascii: "]")), !elements.isEmpty { throw error(.trailingComma, "trailing comma before ']'") }
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd, "unexpected end of input inside an array") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default: throw error(.unexpectedByte, "unexpected \(describeCurrent()), expected ',' or ']'")
            }
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            bytes.count - start >= count && (0..<count).allSatisfy { bytes[start + $0] == expected[$0] }
        }
        guard matches else { throw error(.unexpectedByte, "unexpected \(describeCurrent()), expected a value") }
        index += count
    }

    mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error(.invalidNumber, "invalid number: a digit must follow '-'")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error(.invalidNumber, "invalid number: leading zero")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber, "invalid number: a digit must follow '.'")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber, "invalid number: a digit must follow the exponent")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    // MARK: Strings

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        while true {
            guard index < bytes.count else { throw error(.invalidString, "unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try appendRun(from: runStart, to: index, into: &scalars)
                index += 1
                return String(scalars)
            }
            if byte == UInt8(ascii: "\\") {
                try appendRun(from: runStart, to: index, into: &scalars)
                scalars.append(try parseEscape())
                runStart = index
                continue
            }
            if byte < 0x20 {
                throw error(
                    .invalidString, "control character U+\(hex4(UInt32(byte))) inside a string (must be escaped)")
            }
            index += 1
        }
    }

    /// Validates the raw UTF-8 run [from, to) and appends it.
    mutating func appendRun(from start: Int, to end: Int, into scalars: inout String.UnicodeScalarView)
        throws(JSONParseError)
    {
        guard start < end else { return }
        var iterator = UnsafeBufferPointer(rebasing: bytes[start..<end]).makeIterator()
        var decoder = UTF8()
        var consumed = start
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                scalars.append(scalar)
                consumed += UTF8.width(scalar)
            case .emptyInput:
                return
            case .error:
                index = consumed
                throw error(
                    .invalidString,
                    "invalid UTF-8 byte 0x\(String(bytes[consumed], radix: 16, uppercase: true)) inside a string")
            }
        }
    }

    mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        index += 1  // backslash
        guard index < bytes.count else { throw error(.invalidString, "unterminated string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try parseHex4()
            if (0xD800...0xDBFF).contains(first) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw error(.invalidString, "unpaired surrogate \\u\(hex4(first))")
                }
                index += 2
                let second = try parseHex4()
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw error(.invalidString, "unpaired surrogate \\u\(hex4(first))")
                }
                let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                return Unicode.Scalar(combined)!
            }
            guard let scalar = Unicode.Scalar(first) else {
                throw error(.invalidString, "unpaired surrogate \\u\(hex4(first))")
            }
            return scalar
        default:
            index -= 2
            throw error(.invalidString, "invalid escape sequence in a string")
        }
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else {
            throw error(.invalidString, "invalid \\u escape: four hex digits expected")
        }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = hexValue(bytes[index + offset]) else {
                index += offset
                throw error(.invalidString, "invalid \\u escape: four hex digits expected")
            }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    // MARK: Helpers

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Names the character at the cursor for a message: `'x'`, `U+201C '“'`, or the raw byte.
    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return "U+\(hex4(UInt32(byte)))" }
        var iterator = UnsafeBufferPointer(rebasing: bytes[index...]).makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) {
            return "U+\(hex4(scalar.value)) '\(Character(scalar))'"
        }
        return "byte 0x\(String(byte, radix: 16, uppercase: true)) (not UTF-8)"
    }

    func error(_ kind: JSONParseErrorKind, _ reason: String) -> JSONParseError {
        let position = TextPosition(of: index, in: bytes)
        return JSONParseError(kind: kind, reason: reason, offset: index, line: position.line, column: position.column)
    }
}

/// The 1-based line and column of a byte offset, the column counting characters as an editor
/// does. Computed only when a position is reported (parse errors, `JSONLocator`, `XMLScanner`).
public struct TextPosition: Sendable, Equatable {
    public var line = 1
    public var column = 1

    public init(of offset: Int, in bytes: [UInt8]) {
        self = bytes.withUnsafeBufferPointer { TextPosition(of: offset, in: $0) }
    }

    init(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Count a character at each byte that is not a UTF-8 continuation byte.
                column += 1
            }
            index += 1
        }
    }
}
