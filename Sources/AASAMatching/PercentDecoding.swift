/// Percent-decoding for `percentEncoded: false` (aasa-matching.md §11): `%XX` escapes become
/// bytes, read as UTF-8; an invalid escape stays literal text; bytes that are not UTF-8 become
/// U+FFFD.
enum PercentDecoding {
    /// The text with each byte outside ASCII written as `%XX` (upper case), as a browser sends
    /// a path typed with `é`.
    static func encodeNonASCII(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        let digits = Array("0123456789ABCDEF")
        var result = ""
        for byte in text.utf8 {
            if byte < 0x80 {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
            }
        }
        return result
    }

    static func decode(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let source = Array(text.utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "%"), index + 2 < source.count,
                let high = hex(source[index + 1]), let low = hex(source[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
