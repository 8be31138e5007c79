import AASAJSON

/// The elements of an XML document, in order, with their attributes and positions: enough for
/// an app's project files, such as its manifest (a developer's own file, bounded by the input
/// reader's size cap). It reads start and end tags, attributes in either quote, the five named
/// entities and character references; it skips comments, processing instructions, CDATA, the
/// doctype and text. Malformed markup is an error with its line and column. (Foundation's
/// XMLParser would bring libxml2 into the static release binary for this one file.)
public enum XMLScanner {
    public struct Element: Sendable {
        public var name: String
        public var attributes: [(name: String, value: String)]
        public var line: Int
        public var column: Int
        /// How many elements enclose it.
        public var depth: Int
        /// `<x/>` or the matching end tag: for building a tree.
        public var closesAt: Int?

        public subscript(attribute: String) -> String? {
            attributes.last { $0.name == attribute }?.value
        }
    }

    public struct ScanError: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var reason: String
        public var description: String { "\(reason) at line \(line), column \(column)" }
    }

    /// Elements deeper than this are refused.
    public static let maximumDepth = 256

    /// Every element with the depth it is at, in document order; a parent's index precedes its
    /// children's and `closesAt` is the index after its last descendant.
    public static func elements(_ bytes: [UInt8]) throws(ScanError) -> [Element] {
        var scanner = Cursor(bytes: bytes)
        var tree = Tree()
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.offset = 3 }
        while let byte = scanner.peek {
            guard byte == UInt8(ascii: "<") else {
                scanner.offset += 1
                continue
            }
            if scanner.starts(with: "<!--") {
                try scanner.skip(past: "-->", what: "comment")
            } else if scanner.starts(with: "<![CDATA[") {
                try scanner.skip(past: "]]>", what: "CDATA section")
            } else if scanner.starts(with: "<?") {
                try scanner.skip(past: "?>", what: "processing instruction")
            } else if scanner.starts(with: "<!") {
                try scanner.skip(past: ">", what: "declaration")
            } else if scanner.starts(with: "</") {
                try tree.close(&scanner)
            } else {
                try tree.open(&scanner)
            }
        }
        if let unclosed = tree.open.last {
            let element = tree.elements[unclosed.index]
            throw ScanError(line: element.line, column: element.column, reason: "<\(unclosed.name)> is never closed")
        }
        return tree.elements
    }

    /// The elements read so far and those still open.
    struct Tree {
        var elements: [Element] = []
        var open: [(name: String, index: Int)] = []

        /// `</name>`: closes the innermost open element, which must be of that name.
        mutating func close(_ scanner: inout Cursor) throws(ScanError) {
            let position = scanner.position
            scanner.offset += 2
            let name = scanner.readName()
            scanner.skipSpace()
            guard scanner.peek == UInt8(ascii: ">") else { throw scanner.error("expected > after </\(name)") }
            scanner.offset += 1
            guard let last = open.last, last.name == name else {
                throw ScanError(
                    line: position.line, column: position.column,
                    reason: "</\(name)> closes \(open.last.map { "<\($0.name)>" } ?? "nothing")")
            }
            open.removeLast()
            elements[last.index].closesAt = elements.count
        }

        /// `<name attribute="value" …>` or `<… />`.
        mutating func open(_ scanner: inout Cursor) throws(ScanError) {
            let position = scanner.position
            scanner.offset += 1
            let name = scanner.readName()
            guard !name.isEmpty else { throw scanner.error("expected an element name after <") }
            var element = Element(
                name: name, attributes: [], line: position.line, column: position.column, depth: open.count)
            while true {
                scanner.skipSpace()
                guard let next = scanner.peek else { throw scanner.error("<\(name) is not closed") }
                if next == UInt8(ascii: ">") {
                    scanner.offset += 1
                    guard open.count < XMLScanner.maximumDepth else { throw scanner.error("elements nested too deep") }
                    open.append((name, elements.count))
                    elements.append(element)
                    return
                }
                if scanner.starts(with: "/>") {
                    scanner.offset += 2
                    element.closesAt = elements.count + 1
                    elements.append(element)
                    return
                }
                element.attributes.append(try scanner.readAttribute(in: name))
            }
        }
    }

    struct Cursor {
        let bytes: [UInt8]
        var offset = 0

        /// `attribute="value"` (or in single quotes), the value's entities replaced.
        mutating func readAttribute(in element: String) throws(ScanError) -> (String, String) {
            let attribute = readName()
            guard !attribute.isEmpty else { throw error("unexpected character in <\(element)>") }
            skipSpace()
            guard peek == UInt8(ascii: "=") else { throw error("expected = after \(attribute)") }
            offset += 1
            skipSpace()
            guard let quote = peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw error("expected a quoted value for \(attribute)")
            }
            offset += 1
            let start = offset
            while let byte = peek, byte != quote {
                if byte == UInt8(ascii: "<") { throw error("< inside the value of \(attribute)") }
                offset += 1
            }
            guard peek == quote else { throw error("the value of \(attribute) is not closed") }
            let raw = String(decoding: bytes[start..<offset], as: UTF8.self)
            offset += 1
            return (attribute, try unescape(raw))
        }

        var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        var position: TextPosition { TextPosition(of: offset, in: bytes) }

        func error(_ reason: String) -> ScanError {
            let position = self.position
            return ScanError(line: position.line, column: position.column, reason: reason)
        }

        func starts(with text: String) -> Bool {
            let utf8 = Array(text.utf8)
            return bytes.count - offset >= utf8.count && bytes[offset..<offset + utf8.count].elementsEqual(utf8)
        }

        mutating func skip(past end: String, what: String) throws(ScanError) {
            let start = self
            let utf8 = Array(end.utf8)
            while offset < bytes.count {
                if starts(with: end) {
                    offset += utf8.count
                    return
                }
                offset += 1
            }
            throw start.error("the \(what) is never closed")
        }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
        }

        mutating func readName() -> String {
            let start = offset
            while let byte = peek,
                byte >= 0x80 || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || [UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: ".")].contains(byte)
            {
                offset += 1
            }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }

        func unescape(_ raw: String) throws(ScanError) -> String {
            guard raw.contains("&") else { return raw }
            var result = ""
            var rest = Substring(raw)
            while let amp = rest.firstIndex(of: "&") {
                result += rest[..<amp]
                guard let semicolon = rest[amp...].firstIndex(of: ";") else { throw error("an & without ;") }
                let entity = rest[rest.index(after: amp)..<semicolon]
                switch entity {
                case "amp": result += "&"
                case "lt": result += "<"
                case "gt": result += ">"
                case "quot": result += "\""
                case "apos": result += "'"
                default:
                    let number: UInt32? =
                        entity.hasPrefix("#x")
                        ? UInt32(entity.dropFirst(2), radix: 16)
                        : entity.hasPrefix("#") ? UInt32(entity.dropFirst(), radix: 10) : nil
                    guard let number, let scalar = Unicode.Scalar(number) else {
                        throw error("unknown entity &\(entity.prefix(20));")
                    }
                    result.unicodeScalars.append(scalar)
                }
                rest = rest[rest.index(after: semicolon)...]
            }
            return result + rest
        }
    }
}
