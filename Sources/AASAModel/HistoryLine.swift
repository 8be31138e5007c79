import Foundation

/// Reads the `domains` of a `history.json` line straight into `HistoryDomain`s: a line of a
/// million domains through JSONSerialization held half a kilobyte of objects per domain at
/// once. The list must be an array of arrays of strings (the line's format); the line's other
/// fields are few and small, and are read by JSONSerialization with the list cut out.
enum HistoryLine {
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
            guard let keyStart = bytes.firstRange(of: key)?.lowerBound, bytes.first == UInt8(ascii: "{"),
                bytes[1..<keyStart].allSatisfy({ $0 == UInt8(ascii: " ") }) || bytes[keyStart - 1] == UInt8(ascii: ",")
            else { return nil }
            var reader = Reader(bytes: bytes, index: keyStart + key.count)
            guard reader.domainList(each) else { return nil }
            var rest = Data(bytes[..<(keyStart + key.count)])
            rest.append(contentsOf: Array("[]".utf8))
            rest.append(contentsOf: bytes[reader.index...])
            return rest
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
                guard take(UInt8(ascii: "[")), let name = string(), take(UInt8(ascii: ",")), let verdictText = string(),
                    let verdict = Verdict(rawValue: verdictText)
                else { return false }
                var codes: [String] = []
                while take(UInt8(ascii: ",")) {
                    guard let code = string() else { return false }
                    codes.append(code)
                }
                guard take(UInt8(ascii: "]")) else { return false }
                each(HistoryDomain(domain: name, verdict: verdict, codes: shared.share(codes)))
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]"))
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
