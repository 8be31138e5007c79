/// The bodies of a Swift source's functions, initialisers, subscripts, deinitialisers and
/// computed properties, measured in lines: what the function-length guard reads. Strings
/// (multi-line, raw, with interpolations) and comments (nested block comments too) are blanked
/// first, so no brace in them counts; a body starts at the first `{` after its signature outside
/// any parentheses, so a default closure in a parameter list is part of the signature, not the body.
public enum SwiftBodies {
    public struct Body: Equatable, Sendable {
        /// 1-based line of the declaration's keyword.
        public var line: Int
        /// Lines from the keyword's line to the closing brace's, both counted.
        public var lines: Int
        /// The declaration's line, trimmed.
        public var declaration: String
    }

    public static func measure(_ source: String) -> [Body] {
        let code = blanked(Array(source.utf8))
        let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
        var lineStarts = [0]
        for (index, byte) in code.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(index + 1) }
        func lineOf(_ offset: Int) -> Int {
            var (low, high) = (0, lineStarts.count - 1)
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            return low
        }
        var bodies: [Body] = []
        for (keyword, offset) in keywords(in: code) {
            guard let open = bodyStart(code, after: offset + keyword.count, property: keyword == "var"),
                let close = matchingBrace(code, from: open)
            else { continue }
            let first = lineOf(offset)
            bodies.append(
                Body(
                    line: first + 1, lines: lineOf(close) - first + 1,
                    declaration: String(sourceLines[first]).trimmingCharacters(in: .whitespaces)))
        }
        return bodies
    }

    static let declarationKeywords: Set<String> = ["func", "init", "subscript", "deinit", "var"]
    static let stopWords: Set<String> = [
        "func", "init", "subscript", "deinit", "var", "let", "case", "typealias", "associatedtype", "struct", "class",
        "enum", "protocol", "extension", "import",
    ]

    /// Each whole-word declaration keyword of the code, with its offset.
    static func keywords(in code: [UInt8]) -> [(String, Int)] {
        var found: [(String, Int)] = []
        var index = 0
        while index < code.count {
            guard isIdentifierStart(code[index]), index == 0 || !isIdentifier(code[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            while end < code.count, isIdentifier(code[end]) { end += 1 }
            let word = String(decoding: code[index..<end], as: UTF8.self)
            // `init` as a declaration, not `.init(` or `Self.init`.
            if declarationKeywords.contains(word), index == 0 || code[index - 1] != UInt8(ascii: ".") {
                found.append((word, index))
            }
            index = end
        }
        return found
    }

    /// The offset of the body's `{`: the first outside parentheses and brackets after the
    /// signature; nil for a declaration without one (a requirement, a stored property).
    static func bodyStart(_ code: [UInt8], after start: Int, property: Bool) -> Int? {
        var depth = 0
        var index = start
        while index < code.count {
            let byte = code[index]
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"):
                depth -= 1
                if depth < 0 { return nil }
            case UInt8(ascii: "{") where depth == 0: return index
            case UInt8(ascii: "}") where depth == 0, UInt8(ascii: ";") where depth == 0: return nil
            case UInt8(ascii: "=") where depth == 0 && property: return nil
            case UInt8(ascii: "\n") where depth == 0 && property: return nil
            default:
                if depth == 0, isIdentifierStart(byte), !isIdentifier(code[index - 1]) {
                    var end = index
                    while end < code.count, isIdentifier(code[end]) { end += 1 }
                    if stopWords.contains(String(decoding: code[index..<end], as: UTF8.self)) { return nil }
                    index = end
                    continue
                }
            }
            index += 1
        }
        return nil
    }

    static func matchingBrace(_ code: [UInt8], from open: Int) -> Int? {
        var depth = 0
        for index in open..<code.count {
            if code[index] == UInt8(ascii: "{") { depth += 1 }
            if code[index] == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_")
    }

    static func isIdentifier(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The source with comments and string literals (their interpolations included) turned into
    /// spaces, line breaks kept.
    public static func blanked(_ source: [UInt8]) -> [UInt8] {
        var out = source
        var index = 0
        func blank(_ range: Range<Int>) {
            for position in range where out[position] != UInt8(ascii: "\n") { out[position] = UInt8(ascii: " ") }
        }
        func starts(_ text: String, at position: Int) -> Bool {
            let bytes = Array(text.utf8)
            return position + bytes.count <= source.count && Array(source[position..<position + bytes.count]) == bytes
        }
        while index < source.count {
            if starts("//", at: index) {
                let end = source[index...].firstIndex(of: UInt8(ascii: "\n")) ?? source.count
                blank(index..<end)
                index = end
            } else if starts("/*", at: index) {
                var (depth, end) = (0, index)
                while end < source.count {
                    if starts("/*", at: end) {
                        depth += 1
                        end += 2
                    } else if starts("*/", at: end) {
                        depth -= 1
                        end += 2
                        if depth == 0 { break }
                    } else {
                        end += 1
                    }
                }
                blank(index..<end)
                index = end
            } else if let end = stringEnd(source, from: index) {
                blank(index..<end)
                index = end
            } else {
                index += 1
            }
        }
        return out
    }

    /// When a string literal starts at `start` (`"`, `"""`, `#"`…), the offset just past it.
    static func stringEnd(_ source: [UInt8], from start: Int) -> Int? {
        var hashes = 0
        while start + hashes < source.count, source[start + hashes] == UInt8(ascii: "#") { hashes += 1 }
        let quote = start + hashes
        guard quote < source.count, source[quote] == UInt8(ascii: "\"") else { return nil }
        let multiline =
            quote + 2 < source.count && source[quote + 1] == UInt8(ascii: "\"")
            && source[quote + 2] == UInt8(ascii: "\"")
        var index = quote + (multiline ? 3 : 1)
        let closing =
            Array(repeating: UInt8(ascii: "\""), count: multiline ? 3 : 1)
            + Array(repeating: UInt8(ascii: "#"), count: hashes)
        while index < source.count {
            if source[index] == UInt8(ascii: "\\") {
                var marks = 0
                while index + 1 + marks < source.count, source[index + 1 + marks] == UInt8(ascii: "#") { marks += 1 }
                if marks == hashes, index + 1 + marks < source.count {
                    let next = index + 1 + marks
                    if source[next] == UInt8(ascii: "(") {
                        index = interpolationEnd(source, from: next)
                        continue
                    }
                    index = next + 1
                    continue
                }
            }
            if index + closing.count <= source.count, Array(source[index..<index + closing.count]) == closing {
                return index + closing.count
            }
            if !multiline, source[index] == UInt8(ascii: "\n") { return index }
            index += 1
        }
        return source.count
    }

    /// Past the `)` that closes an interpolation opened at `open`, strings inside it skipped.
    static func interpolationEnd(_ source: [UInt8], from open: Int) -> Int {
        var depth = 0
        var index = open
        while index < source.count {
            if let end = stringEnd(source, from: index) {
                index = end
                continue
            }
            if source[index] == UInt8(ascii: "(") { depth += 1 }
            if source[index] == UInt8(ascii: ")") {
                depth -= 1
                if depth == 0 { return index + 1 }
            }
            index += 1
        }
        return source.count
    }
}
