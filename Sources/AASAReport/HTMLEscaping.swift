import Mustache

/// The HTML report's escaping, plugged into Mustache as a content type so that every `{{ }}`
/// tag still goes through it. It replaces the same five characters as Mustache's built-in
/// HTML type (`& < > " '`), but byte by byte on UTF-8, which differs in two ways:
/// - Correctness: the built-in type compares whole Characters, so a quote or `<` followed by a
///   combining mark (`"\u{301}`) is one Character and went through unescaped; a browser still
///   ends an attribute value at that quote.
/// - Cost: the built-in type breaks the text into grapheme clusters and looks each one up in a
///   dictionary, which was about 4% of an audit's CPU; text with nothing to escape is now
///   returned as it is.
struct HTMLEscaping: MustacheContentType {
    /// The name templates select it by: `{{% CONTENT_TYPE: HTMLEscaping }}`.
    static let name = "HTMLEscaping"

    /// Makes the content type known to Mustache's template parser (idempotent).
    static func register() {
        MustacheContentTypes.register(HTMLEscaping(), named: name)
    }

    func escapeText(_ text: String) -> String {
        Self.escape(text)
    }

    static func escape(_ text: String) -> String {
        // Controls from a server or a file (NUL, ESC, BEL, bidi overrides) made visible, as in
        // every output (`ControlCharacters`); line breaks and tabs are text here. Bytes that
        // start no such character skip the scalar pass.
        let text =
            text.utf8.contains(where: mayStartControl)
            ? ControlCharacters.replacing(
                text, keep: { $0 == "\t" || $0 == "\n" || $0 == "\r" }, with: ControlCharacters.visible)
            : text
        guard text.utf8.contains(where: { replacement(for: $0) != nil }) else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 32)
        for byte in text.utf8 {
            if let replacement = replacement(for: byte) {
                escaped.append(contentsOf: replacement.utf8)
            } else {
                escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// A byte that is, or starts the UTF-8 of, a character `ControlCharacters` cleans: C0 but
    /// tab and line breaks, DEL, and the lead bytes of C1 (C2), U+061C (D8) and the bidi and
    /// separator marks (E2).
    private static func mayStartControl(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<9, 11, 12, 14..<0x20, 0x7F, 0xC2, 0xD8, 0xE2: true
        default: false
        }
    }

    /// All five are ASCII, and UTF-8 never uses an ASCII byte inside a multi-byte sequence.
    private static func replacement(for byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#39;"
        default: nil
        }
    }
}
