/// The shape of an app ID: `<Application Identifier Prefix>.<bundle ID>`, where the prefix is
/// normally the 10-character Team ID (upper-case letters and digits).
public enum AppIDFormat {
    /// Prefixes from Apple's samples and documentation, copied into real files unchanged.
    static let samplePrefixes: Set<String> = [
        "ABCDE12345", "12345ABCDE", "9JA89QQLNQ", "A1B2C3D4E5", "0123456789", "1234567890", "XXXXXXXXXX",
        "AAAAAAAAAA",
    ]

    /// The app ID every example uses: one the tool itself accepts (its prefix is no sample's).
    public static let example = "QX7TM4K2RB.com.example.app"

    /// Template syntax, a placeholder wherever it stands.
    static let templateSyntax = ["<", ">", "{", "}", "$("]
    /// Words only a template's placeholder holds: anywhere in the prefix, and as a whole
    /// component of the bundle ID (`com.todoist.ios` and `com.dpdgroup.your-dpd` are real apps).
    static let placeholderWords = [
        "TEAM_ID", "TEAMID", "TEAM-ID", "YOUR_", "YOUR-", "YOURTEAM", "TODO", "REPLACE", "BUNDLE_ID", "BUNDLEID",
        "APP_ID", "XXXXX",
    ]
    static let bundlePlaceholderComponents: Set<String> = [
        "TODO", "REPLACE", "REPLACEME", "REPLACE-ME", "BUNDLEID", "BUNDLE-ID", "APPID", "APP-ID", "XXXXX", "TEAMID",
    ]
    private static let templateSyntaxBytes = templateSyntax.map { (marker: $0, bytes: Array($0.utf8)) }
    private static let placeholderWordBytes = placeholderWords.map { (marker: $0, bytes: Array($0.utf8)) }

    /// The placeholder marker `appID` holds: template syntax anywhere, a template word in its
    /// prefix, or a bundle ID component that is one.
    static func placeholder(in appID: String) -> String? {
        // A byte search: with Foundation's String.contains this function was half the checks' CPU.
        let upper = Array(appID.uppercased().utf8)
        if let marker = templateSyntaxBytes.first(where: { contains(upper, $0.bytes) })?.marker { return marker }
        let prefixEnd = upper.firstIndex(of: UInt8(ascii: ".")) ?? upper.count
        let prefix = Array(upper[..<prefixEnd])
        if let marker = placeholderWordBytes.first(where: { contains(prefix, $0.bytes) })?.marker { return marker }
        guard prefixEnd < upper.count else { return nil }
        for component in upper[(prefixEnd + 1)...].split(separator: UInt8(ascii: ".")) {
            let word = String(decoding: component, as: UTF8.self)
            if bundlePlaceholderComponents.contains(word) { return word }
        }
        return nil
    }

    /// Why `appID` is not a usable app ID, or nil when it is well formed.
    public static func problem(with appID: String) -> String? {
        if let marker = placeholder(in: appID) {
            return "\"\(appID)\" is a placeholder (it contains \"\(marker)\"), not a real app ID"
        }
        guard let dot = appID.firstIndex(of: ".") else {
            return "\"\(appID)\" has no prefix: an app ID is PREFIX.bundle.id, e.g. \(example)"
        }
        let prefix = String(appID[..<dot])
        let bundleID = String(appID[appID.index(after: dot)...])
        if samplePrefixes.contains(prefix) {
            return "\"\(appID)\" uses the sample prefix \(prefix) from documentation, not a real Team ID"
        }
        if prefix.count != 10 || !prefix.unicodeScalars.allSatisfy(isUpperAlphanumeric) {
            if prefix.count == 10, prefix.uppercased().unicodeScalars.allSatisfy(isUpperAlphanumeric) {
                return
                    "\"\(appID)\": the prefix \(prefix) must be upper case (Team IDs are upper-case letters and digits)"
            }
            return
                "\"\(appID)\": the prefix \"\(prefix)\" is not a 10-character Team ID of upper-case letters and digits"
        }
        if bundleID.isEmpty {
            return "\"\(appID)\" has no bundle ID after the prefix"
        }
        if !bundleID.unicodeScalars.allSatisfy(isBundleIDCharacter) {
            return "\"\(appID)\": the bundle ID \"\(bundleID)\" may hold only letters, digits, '-' and '.'"
        }
        if bundleID.hasPrefix(".") || bundleID.hasSuffix(".") || bundleID.contains("..") {
            return "\"\(appID)\": the bundle ID \"\(bundleID)\" has an empty component"
        }
        return nil
    }

    static func contains(_ bytes: [UInt8], _ run: [UInt8]) -> Bool {
        guard !run.isEmpty, run.count <= bytes.count else { return run.isEmpty }
        // Plain loops over buffers: a generic elementsEqual per position cost ~250 µs a line of
        // domains.txt in a debug build (the 100,000-line test took 25 s of a core).
        return bytes.withUnsafeBufferPointer { haystack in
            run.withUnsafeBufferPointer { needle in
                var start = 0
                while start <= haystack.count - needle.count {
                    var offset = 0
                    while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
                    if offset == needle.count { return true }
                    start += 1
                }
                return false
            }
        }
    }

    static func isUpperAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    static func isBundleIDCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
            || scalar == "."
    }
}
