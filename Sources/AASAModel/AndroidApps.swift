/// An Android app a domain's `assetlinks.json` must declare: its package and, when given, the
/// SHA-256 fingerprint of the certificate that signs it (`android:PACKAGE@FINGERPRINT` in
/// `domains.txt`).
public struct AndroidApp: Codable, Sendable, Equatable, Hashable, CustomStringConvertible {
    public var package: String
    /// 32 colon-separated upper-case hex bytes, as keytool and the Play Console print them.
    public var fingerprint: String?

    public init(package: String, fingerprint: String? = nil) {
        self.package = package
        self.fingerprint = fingerprint
    }

    public var description: String { fingerprint.map { "\(package)@\($0)" } ?? package }

    /// Parses `PACKAGE` or `PACKAGE@FINGERPRINT`; the fingerprint may be written in either case
    /// and is kept in upper case. Returns why the text is not one.
    public static func parse(_ text: String) -> Result<AndroidApp, AndroidAppError> {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard AndroidPackageName.isValid(parts[0]) else {
            return .failure(AndroidAppError(reason: "\"\(parts[0])\" is not an Android package name (dot-separated Java identifiers, at least two, e.g. com.example.app)"))
        }
        guard parts.count == 2 else { return .success(AndroidApp(package: parts[0])) }
        let fingerprint = parts[1].uppercased()
        guard CertificateFingerprint.isValid(fingerprint) else {
            return .failure(AndroidAppError(reason: "\"\(parts[1])\" is not a SHA-256 certificate fingerprint (32 colon-separated hex bytes, as keytool -list -v prints them)"))
        }
        return .success(AndroidApp(package: parts[0], fingerprint: fingerprint))
    }
}

public struct AndroidAppError: Error, Equatable, Sendable {
    public var reason: String
}

/// Java package names as Android accepts them: at least two dot-separated segments, each a
/// letter then letters, digits or underscores.
public enum AndroidPackageName {
    public static func isValid(_ text: String) -> Bool {
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count >= 2, text.utf8.count <= 255 else { return false }
        return segments.allSatisfy { segment in
            guard let first = segment.first, first.isASCII, first.isLetter else { return false }
            return segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
    }
}

/// SHA-256 certificate fingerprints as Digital Asset Links requires them: 32 bytes written as
/// upper-case hex pairs joined by colons (95 characters).
public enum CertificateFingerprint {
    public static func isValid(_ text: String) -> Bool {
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        return bytes.count == 32 && bytes.allSatisfy { $0.count == 2 && $0.allSatisfy { ("0"..."9").contains($0) || ("A"..."F").contains($0) } }
    }

    /// Why a fingerprint is malformed, in words (lower case, wrong length, no colons).
    public static func problem(with text: String) -> String? {
        guard !isValid(text) else { return nil }
        if isValid(text.uppercased()) { return "is in lower case; Android compares upper-case hex only" }
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        if bytes.count == 1, text.count == 64 { return "has no colons; write the 32 bytes as AB:CD:…" }
        if bytes.count != 32 { return "has \(bytes.count) bytes, not 32 (a SHA-1 fingerprint has 20)" }
        return "is not 32 colon-separated pairs of hex digits"
    }
}

/// What a domain's `assetlinks.json` declares for Android apps: per package, its fingerprints
/// and relations. Part of the JSON report.
public struct AndroidDeclarations: Codable, Sendable, Equatable {
    public struct App: Codable, Sendable, Equatable {
        public var package: String
        public var fingerprints: [String]
        public var relations: [String]

        public init(package: String, fingerprints: [String], relations: [String]) {
            self.package = package
            self.fingerprints = fingerprints
            self.relations = relations
        }
    }

    /// The apps of the `android_app` statements, merged by package, in order of appearance.
    public var apps: [App]
    /// `include` statements (not followed).
    public var includes: [String]

    public init(apps: [App] = [], includes: [String] = []) {
        self.apps = apps
        self.includes = includes
    }
}
