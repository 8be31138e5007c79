import Foundation

/// Reads the `domains` of a `history.json` line straight into `HistoryDomain`s: a line of a
/// million domains through JSONSerialization held half a kilobyte of objects per domain at
/// once. The list must be an array of arrays of strings (the line's format); the line's other
/// fields are few and small, and are read by JSONSerialization with the list cut out.
public enum HistoryLine {
    struct Parts {
        var domains: [HistoryDomain]
        /// The line with `[]` for the list.
        var rest: Data
    }

    /// Nil when the line has no such list (then it is read the slow way, or is damage).
    /// Read in place: a line of a million domains is tens of megabytes, not copied.
    static func split(_ line: Data) -> Parts? {
        var domains: [HistoryDomain] = []
        guard let rest = rest(of: line, each: { domains.append($0) }) else { return nil }
        return Parts(domains: domains, rest: rest)
    }

    /// The line with `[]` for its list, each domain of the list handed to `each` as it is read
    /// (nil when the line has no such list, and then some domains may have been handed on).
    static func rest(of line: Data, each: (HistoryDomain) -> Void) -> Data? {
        line.withUnsafeBytes { bytes -> Data? in
            let key = Array(#""domains":"#.utf8)
            guard let keyStart = bytes.firstRange(of: key)?.lowerBound, isListHead(bytes[..<(keyStart + key.count)])
            else { return nil }
            var reader = Reader(bytes: bytes, index: keyStart + key.count)
            guard reader.domainList(each) else { return nil }
            var rest = Data(bytes[..<(keyStart + key.count)])
            rest.append(contentsOf: Array("[]".utf8))
            rest.append(contentsOf: bytes[reader.index...])
            return rest
        }
    }

    /// Whether `head` (a line's bytes up to and including `"domains":`) is the start of a line
    /// whose list is at the top level: `{`, then only spaces or a field before the key.
    public static func isListHead(_ head: some Collection<UInt8>) -> Bool {
        let bytes = Array(head)
        let key = Array(#""domains":"#.utf8)
        guard bytes.count >= key.count + 1, bytes.first == UInt8(ascii: "{"), bytes.suffix(key.count).elementsEqual(key)
        else { return false }
        let before = bytes[1..<(bytes.count - key.count)]
        return before.allSatisfy { $0 == UInt8(ascii: " ") } || before.last == UInt8(ascii: ",")
    }

    /// A line's domain list read in pieces, so that the line need not be in memory whole:
    /// `feed` reads the complete elements of the bytes it is given and says how many bytes it
    /// used; the rest (an element cut by the piece's end) comes again with the next piece.
    public struct ListScanner {
        public enum State: Sendable { case open, first, element, separator, done, failed }
        public private(set) var state = State.open
        private var shared = SharedValues<[String]>()

        public init() {}

        /// - Parameter atEnd: no more bytes will come (an element cut here is damage).
        public mutating func feed(_ bytes: UnsafeRawBufferPointer, atEnd: Bool, each: (HistoryDomain) -> Void) -> Int {
            var index = 0
            func skipSpace() {
                while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            }
            while true {
                skipSpace()
                guard index < bytes.count else {
                    if atEnd, state != .done { state = .failed }
                    return index
                }
                switch state {
                case .open:
                    guard bytes[index] == UInt8(ascii: "[") else {
                        state = .failed
                        return index
                    }
                    index += 1
                    state = .first
                case .first:
                    if bytes[index] == UInt8(ascii: "]") {
                        index += 1
                        state = .done
                    } else {
                        state = .element
                    }
                case .element:
                    guard let end = Self.elementEnd(bytes, from: index) else {
                        if atEnd { state = .failed }
                        return index
                    }
                    var reader = Reader(bytes: UnsafeRawBufferPointer(rebasing: bytes[index...end]), index: 0)
                    guard let domain = reader.domain(&shared), reader.index == end - index + 1 else {
                        state = .failed
                        return index
                    }
                    each(domain)
                    index = end + 1
                    state = .separator
                case .separator:
                    if bytes[index] == UInt8(ascii: ",") {
                        state = .element
                    } else if bytes[index] == UInt8(ascii: "]") {
                        state = .done
                    } else {
                        state = .failed
                        return index
                    }
                    index += 1
                case .done, .failed:
                    return index
                }
            }
        }

        /// The index of the `]` that ends the element starting at `start` (outside strings),
        /// or nil when it is not within `bytes`.
        static func elementEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
            var (index, inString, escaped) = (start + 1, false, false)
            while index < bytes.count {
                let byte = bytes[index]
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "]") {
                    return index
                }
                index += 1
            }
            return nil
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index: Int

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// `[["name","verdict","code",…],…]`, each domain handed to `each`; false when the list
        /// is not such a list.
        mutating func domainList(_ each: (HistoryDomain) -> Void) -> Bool {
            guard take(UInt8(ascii: "[")) else { return false }
            // Most domains of a run say the same few things: equal code lists are stored once.
            var shared = SharedValues<[String]>()
            if take(UInt8(ascii: "]")) { return true }
            repeat {
                guard let domain = domain(&shared) else { return false }
                each(domain)
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]"))
        }

        /// `["name","verdict","code",…]`
        mutating func domain(_ shared: inout SharedValues<[String]>) -> HistoryDomain? {
            guard take(UInt8(ascii: "[")), let name = string(), take(UInt8(ascii: ",")), let verdictText = string(),
                let verdict = Verdict(rawValue: verdictText)
            else { return nil }
            var codes: [String] = []
            while take(UInt8(ascii: ",")) {
                guard let code = string() else { return nil }
                codes.append(code)
            }
            guard take(UInt8(ascii: "]")) else { return nil }
            return HistoryDomain(domain: name, verdict: verdict, codes: shared.share(codes))
        }

        /// A JSON string, escapes decoded; nil for anything else.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            // The common case: no escape.
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"),
                bytes[index] >= 0x20
            { index += 1 }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(validating: bytes[start..<index], as: UTF8.self)
            }
            // Escapes: the string read again as a JSON document of its own.
            index = start
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] < 0x20 { return nil }
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard index < bytes.count else { return nil }
            index += 1
            let literal = Data(bytes[(start - 1)..<index])
            return (try? JSONSerialization.jsonObject(with: literal, options: .fragmentsAllowed)) as? String
        }
    }
}
