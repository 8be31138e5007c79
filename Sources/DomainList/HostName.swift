import AASAModel
import CIDN2

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Host names as the auditor accepts them: what an `applinks:` entitlement can name.
/// Normalised to lower case, without a trailing dot, internationalised labels in punycode.
public enum HostName {
    public static let maximumLength = 253

    /// The normalised host name, or why the text is not one. Its characters are looked at as
    /// UTF-8 bytes (every one it looks for is ASCII): a domains file may list a million hosts.
    public static func normalize(_ text: String) -> Result<String, HostNameError> {
        var (slash, colons, nonASCII, uppercase, at, star) = (false, 0, false, false, false, false)
        for byte in text.utf8 {
            switch byte {
            // A NUL would end the name at the C boundary (libidn2, inet_aton, libcurl): the
            // prefix would be audited under the whole text's name. Refused before any C call.
            case 0: return .failure(.init("contains a NUL character (U+0000), which a host name cannot hold"))
            case UInt8(ascii: "/"): slash = true
            case UInt8(ascii: ":"): colons += 1
            case UInt8(ascii: "@"): at = true
            case UInt8(ascii: "*"): star = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): uppercase = true
            case 0x80...: nonASCII = true
            default: break
            }
        }
        if slash, text.utf8.firstRange(of: "://".utf8) != nil {
            return .failure(.init("is a URL; list the host name only (e.g. example.com)"))
        }
        if slash { return .failure(.init("has a path; list the host name only")) }
        if at { return .failure(.init("has user information; list the host name only")) }
        if star { return .failure(.init("is a wildcard, which names no single host; list each host to audit")) }
        if text.utf8.first == UInt8(ascii: "[") || colons > 1 {
            return .failure(.init("is an IP address; universal links need a host name"))
        }
        if colons == 1 {
            return .failure(
                .init("names a port; associated domains cannot have one (the file is always fetched on 443)"))
        }

        var host = text
        if host.utf8.last == UInt8(ascii: ".") { host.removeLast() }
        if nonASCII {
            switch toASCII(host) {
            case .success(let ascii): host = ascii.lowercased()
            case .failure(let error): return .failure(error)
            }
        } else if uppercase {
            host = host.lowercased()
        }
        return validateASCII(host).map { host }
    }

    /// The bytes as a host name when they are one in normal form already: lower-case letters,
    /// digits, hyphens and dots, two labels or more of 1 to 63 bytes that neither start nor end
    /// with a hyphen, the last not a number, 253 bytes at most. The common line of a long
    /// domains file, read in one pass; nil for anything else, which `normalize` reads (and says
    /// what is wrong with). What it accepts, `normalize` accepts unchanged.
    public static func plainHost(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count >= 3, bytes.count <= maximumLength else { return nil }
        var (labelStart, labels, allDigits) = (0, 1, true)
        for index in 0..<bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "."):
                guard (1...63).contains(index - labelStart), bytes[index - 1] != UInt8(ascii: "-") else { return nil }
                (labelStart, labels, allDigits) = (index + 1, labels + 1, true)
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                allDigits = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            case UInt8(ascii: "-"):
                guard index != labelStart else { return nil }
                allDigits = false
            default:
                return nil
            }
        }
        let last = bytes.count - labelStart
        guard labels >= 2, (1...63).contains(last), bytes[bytes.count - 1] != UInt8(ascii: "-"), !allDigits,
            !(last >= 2 && bytes[labelStart] == UInt8(ascii: "0") && bytes[labelStart + 1] == UInt8(ascii: "x"))
        else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func validateASCII(_ host: String) -> Result<Void, HostNameError> {
        guard !host.isEmpty else { return .failure(.init("is empty")) }
        guard host.utf8.count <= maximumLength else {
            return .failure(.init("is longer than \(maximumLength) characters"))
        }
        // Every spelling inet_aton (and so curl and getaddrinfo) reads as IPv4: 127.1,
        // 0x7f.0x1, 2130706433, 0177.0.0.1.
        // `host` holds no NUL (normalize refused it); the C string lives for the call only.
        var numeric = in_addr()
        if host.withCString({ inet_aton($0, &numeric) }) != 0 {
            return .failure(.init("is an IP address; universal links need a host name"))
        }
        // One pass over the bytes, label by label.
        let bytes = host.utf8
        guard bytes.contains(UInt8(ascii: ".")) else { return singleLabel }
        var start = bytes.startIndex
        var lastLabel = bytes[...]
        while true {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ".")) ?? bytes.endIndex
            let label = bytes[start..<end]
            lastLabel = label
            if label.isEmpty { return .failure(.init("has an empty label (two dots in a row)")) }
            if label.count > 63 { return .failure(.init("has a label longer than 63 characters")) }
            if label.contains(where: { !isLetterDigitOrHyphen($0) }) {
                // Named as a character, not a byte (rare: the slow way).
                let bad = Substring(label).first { !($0.isASCIILetterOrDigit || $0 == "-") } ?? "?"
                return .failure(.init("contains \(bad == " " ? "a space" : "'\(bad)'"), which a host name cannot hold"))
            }
            if label.first == UInt8(ascii: "-") || label.last == UInt8(ascii: "-") {
                return .failure(.init("has a label that starts or ends with '-'"))
            }
            guard end != bytes.endIndex else { break }
            start = bytes.index(after: end)
        }
        if lastLabel.allSatisfy(isDigit) || isHexNumber(lastLabel) {
            return .failure(.init("ends in a numeric label, which no top-level domain is"))
        }
        return .success(())
    }

    private static let singleLabel = Result<Void, HostNameError>.failure(
        .init("is a single label; a domain needs at least two (e.g. example.com)"))

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    static func isLetterDigitOrHyphen(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "-")
    }

    /// `0x` and hex digits: a number to URL parsers (WHATWG's "ends in a number" rule).
    static func isHexNumber(_ label: Substring.UTF8View) -> Bool {
        guard label.count >= 2, label.first == UInt8(ascii: "0"), label.dropFirst().first! | 0x20 == UInt8(ascii: "x")
        else { return false }
        return label.dropFirst(2).allSatisfy {
            isDigit($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0 | 0x20)
        }
    }

    /// A host as people paste it, with a note saying how it was read: an entitlement entry
    /// (`applinks:example.com`, `webcredentials:example.com?mode=developer`) or a URL
    /// (`https://example.com/path`) names its host; anything else must be a host name.
    public static func normalizePasted(_ text: String) -> Result<PastedHost, HostNameError> {
        // Neither an entry nor a URL without a colon (the common case, found in one pass).
        guard text.utf8.contains(UInt8(ascii: ":")) else {
            return normalize(text).map { PastedHost(host: $0, note: reversedPackageNote($0)) }
        }
        if case .success(let entry) = EntitlementEntry.split(text) {
            return normalize(entry.host).map { host in
                PastedHost(
                    host: host, service: entry.service,
                    note:
                        "\"\(text)\" is an entitlement entry; audited as its host \(host) (\(entry.service.rawValue) reads https://\(host)/.well-known/apple-app-site-association)."
                )
            }
        }
        if let schemeEnd = text.range(of: "://") {
            let scheme = text[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "https" || scheme == "http" else {
                return .failure(.init("is a \(scheme) URL; list the host name only (e.g. example.com)"))
            }
            let afterScheme = text[schemeEnd.upperBound...]
            let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return normalize(String(authority)).map { host in
                PastedHost(host: host, note: "\"\(text)\" is a URL; audited as its host \(host).")
            }
        }
        return normalize(text).map { PastedHost(host: $0, note: nil) }
    }

    /// IDNA2008 (UTS #46, non-transitional) to ASCII through libidn2.
    /// `host` holds no NUL (`normalize` refuses it first): the C string Swift makes for the call
    /// is the whole name, and lives for the call. libidn2 allocates `output`, which is copied into
    /// a Swift String and then freed with `idn2_free`; `idn2_strerror` is a static string.
    static func toASCII(_ host: String) -> Result<String, HostNameError> {
        guard !host.utf8.contains(0) else { return .failure(.init("contains a NUL character (U+0000)")) }
        var output: UnsafeMutablePointer<CChar>?
        let flags = Int32(IDN2_NONTRANSITIONAL.rawValue) | Int32(IDN2_NFC_INPUT.rawValue)
        let code = idn2_to_ascii_8z(host, &output, flags)
        guard code == Int32(IDN2_OK.rawValue), let output else {
            let reason = idn2_strerror(code).map { String(cString: $0) } ?? "error \(code)"
            return .failure(.init("is not a valid internationalised domain name (\(reason))"))
        }
        defer { idn2_free(output) }
        return .success(String(cString: output))
    }
}

/// A host read from what someone pasted, and how it was read when that was not a plain name.
public struct PastedHost: Equatable, Sendable {
    public var host: String
    /// The service of an entitlement entry (`webcredentials:example.com`).
    public var service: AssociatedDomainService?
    /// Set when the text was an entitlement entry or a URL.
    public var note: String?

    public init(host: String, service: AssociatedDomainService? = nil, note: String? = nil) {
        self.host = host
        self.service = service
        self.note = note
    }

    /// The app IDs given with it, each judged in the entry's service: `--app-id ID` with
    /// `webcredentials:example.com` expects `webcredentials:ID` (an ID that names its own
    /// service keeps it).
    public func expectedApps(_ appIDs: [String]) -> [String] {
        guard let service, service != .applinks else { return appIDs }
        return appIDs.map { spelled in
            let app = ExpectedApp(spelled: spelled)
            return spelled.contains(":") ? app.spelled : ExpectedApp(service: service, appID: app.appID).spelled
        }
    }
}

public struct HostNameError: Error, Equatable, Sendable {
    /// Completes a sentence that starts with the quoted input: `"x" is a URL; ...`.
    public var reason: String

    init(_ reason: String) { self.reason = reason }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    var isASCIILetterOrDigit: Bool { isASCIIDigit || ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
