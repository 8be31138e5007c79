import AASAJSON

/// Names the usual reasons a file is not strict JSON, so that `json.invalid` says what to fix:
/// a byte-order mark, front matter, a comment, a trailing comma, typographic quotes.
enum JSONDiagnosis {
    /// - Parameter reader: who rejects the file's bytes ("iOS", "Google's parser"): the one that
    ///   reads this kind of file.
    static func describe(_ error: JSONParseError, in bytes: [UInt8], reader: String = "iOS") -> String {
        guard let cause = cause(of: error, in: bytes, reader: reader) else { return error.description }
        return "\(cause) (\(error.description))"
    }

    static func cause(of error: JSONParseError, in bytes: [UInt8], reader: String = "iOS") -> String? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return
                "the file starts with a UTF-8 byte-order mark (EF BB BF), which \(reader) rejects; save it without one"
        }
        let start = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if start.starts(with: Array("---".utf8)) {
            return
                "front matter (a --- block from a static site generator) comes before the JSON; serve the file as-is, without processing"
        }
        let at = error.offset
        if at + 1 < bytes.count, bytes[at] == UInt8(ascii: "/"),
            bytes[at + 1] == UInt8(ascii: "/") || bytes[at + 1] == UInt8(ascii: "*")
        {
            return "a comment, which JSON does not allow"
        }
        if error.kind == .trailingComma {
            return "a trailing comma, which JSON does not allow"
        }
        let typographic: [[UInt8]] = ["\u{201C}", "\u{201D}", "\u{2018}", "\u{2019}"].map { Array($0.utf8) }
        if typographic.contains(where: { quote in bytes.indices.contains { bytes[$0...].starts(with: quote) } }) {
            return "typographic quotes (“ ” ‘ ’) where JSON needs straight ones (\")"
        }
        return nil
    }
}
