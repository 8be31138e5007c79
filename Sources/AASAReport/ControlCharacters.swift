/// The one scalar-level cleaning of text that came from a server, a file or the input, for every
/// output: controls and the characters that reorder or hide text are found here, once, and each
/// format says how it shows them (the terminal, compact and GitHub annotations as `\u{1b}`, HTML
/// the same outside line breaks and tabs, Prometheus labels as U+FFFD, whose format has no
/// escape for them). Scalars, never Characters: CR LF is one Character, two controls.
public enum ControlCharacters {
    /// C0 and C1 controls, DEL, and the characters that reorder or hide text on a terminal:
    /// bidirectional embeddings, overrides, isolates and marks, and the line and paragraph
    /// separators.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every control for which `keep` is false replaced by `shown(scalar)`.
    public static func replacing(
        _ text: String, keep: (Unicode.Scalar) -> Bool = { _ in false }, with shown: (Unicode.Scalar) -> String
    ) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !keep($0) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar), !keep(scalar) {
                result += shown(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A control made visible: `\u{1b}`.
    public static func visible(_ scalar: Unicode.Scalar) -> String { "\\u{\(String(scalar.value, radix: 16))}" }

    /// Every control made visible.
    public static func visible(_ text: String) -> String { replacing(text, with: visible) }
}
