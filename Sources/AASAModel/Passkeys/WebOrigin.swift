/// A URL read as a browser reads it for its origin (WHATWG URL, as Chromium's GURL and Firefox's
/// URL do for `/.well-known/webauthn` entries): the scheme lowercased, slashes after a special
/// scheme's colon ignored, user info dropped, the host lowercased, the scheme's default port
/// dropped. nil for what does not parse as a URL with a host (`example.co.uk`, `https://`).
public struct WebOrigin: Sendable, Hashable {
    public let scheme: String
    public let host: String
    /// The port when it is not the scheme's default.
    public let port: Int?
    /// Whether the text was only the origin: no user info, path (beyond `/`), query or fragment.
    public let isBare: Bool

    static let defaultPorts = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21]
    /// Code points a host may not hold (WHATWG's forbidden host code points, and `%`).
    static let forbiddenInHost = Set(" \t\n\r#/:<>?@[\\]^|%\u{0}".unicodeScalars)

    /// `https://shop.example`, with `:PORT` when it is not the default.
    public var serialized: String { "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "") }

    /// Two URLs of the same origin are the same origin, however they were written.
    public static func == (lhs: WebOrigin, rhs: WebOrigin) -> Bool {
        lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.port == rhs.port
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(port)
    }

    public init?(_ text: String) {
        // Leading and trailing C0 controls and spaces go, tabs and newlines anywhere.
        let kept = text.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        let start = kept.firstIndex { $0.value > 0x20 } ?? kept.endIndex
        let end = kept.lastIndex { $0.value > 0x20 }.map { kept.index(after: $0) } ?? start
        let url = String(String.UnicodeScalarView(kept[start..<end]))
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon].lowercased()
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
            scheme.unicodeScalars.allSatisfy({
                $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0)
            })
        else { return nil }
        // Only a special scheme's URL has a host here (`android:apk-key-hash:…` has none).
        guard Self.defaultPorts[scheme] != nil else { return nil }
        var rest = url[url.index(after: colon)...].drop { $0 == "/" || $0 == "\\" }
        let authorityEnd = rest.firstIndex { "/\\?#".contains($0) } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]
        var bare = rest.isEmpty || rest == "/"
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
            bare = false
        }
        var hostPart = authority
        var digits: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[...close]
            let after = authority[authority.index(after: close)...]
            if let colon = after.first {
                guard colon == ":" else { return nil }
                digits = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            digits = authority[authority.index(after: colon)...]
        }
        var port: Int?
        if let digits, !digits.isEmpty {
            guard digits.unicodeScalars.allSatisfy(\.isASCIIDigit), let number = Int(digits.prefix(6)), number <= 65535
            else { return nil }
            port = number
        }
        let host = hostPart.lowercased()
        guard !host.isEmpty, host.hasPrefix("[") || !host.unicodeScalars.contains(where: Self.forbiddenInHost.contains)
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port == Self.defaultPorts[scheme] ? nil : port
        isBare = bare
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
