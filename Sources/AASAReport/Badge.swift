import AASAModel
import Foundation

/// A domain's verdict as a badge for a status page or a README: an SVG in the flat style of
/// shields.io, and the JSON of shields.io's endpoint badge (`https://img.shields.io/endpoint?url=…`).
/// Pure; every text escaped.
public struct Badge: Sendable {
    /// Nil: the domain was never audited soundly.
    public var verdict: Verdict?
    /// The platforms the verdict speaks for: the label names their links.
    public var platforms: [LinkPlatform]

    public init(verdict: Verdict?, platforms: [LinkPlatform] = [.ios]) {
        self.verdict = verdict
        self.platforms = platforms
    }

    /// One platform's links (`universal links`), or several platforms' short names.
    public var label: String { LinkPlatform.label(platforms) }

    /// The message and colour of a verdict; nil: the domain was never audited soundly.
    public static func look(_ verdict: Verdict?) -> (message: String, color: String, hex: String) {
        switch verdict {
        case .pass?: ("pass", "brightgreen", "#4c1")
        case .warn?: ("warn", "yellow", "#dfb317")
        case .fail?: ("fail", "red", "#e05d44")
        case nil: ("not audited", "lightgrey", "#9f9f9f")
        }
    }

    /// An SVG of two boxes, the label's and the message's, about as wide as Verdana 11 px sets them.
    public var svg: String {
        let (message, _, hex) = Self.look(verdict)
        let left = Self.width(of: label)
        let right = Self.width(of: message)
        let total = left + right
        let text = "\(HTMLEscaping.escape(label)): \(HTMLEscaping.escape(message))"
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(total)" height="20" role="img" aria-label="\(text)">\
            <title>\(text)</title>\
            <rect width="\(left)" height="20" fill="#555"/>\
            <rect x="\(left)" width="\(right)" height="20" fill="\(hex)"/>\
            <g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">\
            <text x="\(left / 2)" y="14">\(HTMLEscaping.escape(label))</text>\
            <text x="\(left + right / 2)" y="14">\(HTMLEscaping.escape(message))</text>\
            </g></svg>

            """
    }

    /// shields.io's endpoint schema: `{"schemaVersion": 1, "label", "message", "color"}`.
    public var shields: [UInt8] {
        struct Endpoint: Encodable {
            var schemaVersion = 1
            var label: String
            var message: String
            var color: String
        }
        let (message, color, _) = Self.look(verdict)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = (try? encoder.encode(Endpoint(label: label, message: message, color: color))) ?? Data()
        return Array(bytes) + [0x0A]
    }

    /// About 7 px a character and 10 px of margin: wide enough for Verdana's 11 px.
    static func width(of text: String) -> Int { text.count * 7 + 10 }
}
