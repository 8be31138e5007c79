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

    /// Parses `PACKAGE` or `PACKAGE@FINGERPRINT`; the fingerprint as people paste it
    /// (`CertificateFingerprint.normalized`), kept in Google's form. Returns why the text is not one.
    public static func parse(_ text: String) -> Result<AndroidApp, AndroidAppError> {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard AndroidPackageName.isValid(parts[0]) else {
            return .failure(
                AndroidAppError(
                    reason:
                        "\"\(parts[0])\" is not an Android package name (dot-separated Java identifiers, at least two, e.g. com.example.app)"
                ))
        }
        guard parts.count == 2 else { return .success(AndroidApp(package: parts[0])) }
        guard let fingerprint = CertificateFingerprint.normalized(parts[1]) else {
            return .failure(
                AndroidAppError(
                    reason:
                        "\"\(parts[1])\" is not a SHA-256 certificate fingerprint (32 hex bytes: keytool's AB:CD:… or apksigner's abcd…)"
                ))
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
        return bytes.count == 32
            && bytes.allSatisfy {
                $0.count == 2 && $0.allSatisfy { ("0"..."9").contains($0) || ("A"..."F").contains($0) }
            }
    }

    /// A fingerprint as keytool prints it (`14:6D:…`), as apksigner does (`146de9…`, no
    /// colons), in either case, with or without a `SHA256:` (or `SHA-256:`) prefix, in Google's
    /// form: upper case with colons. Nil when it is not 32 hex bytes. For input only: the file
    /// itself must hold Google's form.
    public static func normalized(_ text: String) -> String? {
        var rest = Substring(text)
        for prefix in ["SHA256:", "SHA-256:"] where rest.uppercased().hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
        }
        let upper = rest.uppercased()
        if isValid(upper) { return upper }
        guard upper.count == 64, upper.allSatisfy({ ("0"..."9").contains($0) || ("A"..."F").contains($0) }) else {
            return nil
        }
        var pairs: [Substring] = []
        var index = upper.startIndex
        while index < upper.endIndex {
            let next = upper.index(index, offsetBy: 2)
            pairs.append(upper[index..<next])
            index = next
        }
        return pairs.joined(separator: ":")
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
        /// How many Android 15 dynamic rules (`dynamic_app_link_components`) its statements give;
        /// absent when none.
        public var dynamicRules: Int?

        public init(package: String, fingerprints: [String], relations: [String], dynamicRules: Int? = nil) {
            self.package = package
            self.fingerprints = fingerprints
            self.relations = relations
            self.dynamicRules = dynamicRules
        }
    }

    /// The apps of the `android_app` statements Google's parser keeps (the included files'
    /// too), merged by package, in order of appearance.
    public var apps: [App]
    /// The URLs of `include` directives, in order (followed by `audit` and `check`, with their
    /// fetches in the record's `fetches`).
    public var includes: [String]

    public init(apps: [App] = [], includes: [String] = []) {
        self.apps = apps
        self.includes = includes
    }
}

extension DomainReport {
    /// `assetlinks.json`'s section of the record: what it declares.
    public var android: AndroidDeclarations? {
        get { associations.android }
        set { associations.android = newValue }
    }

    /// `assetlinks.json`'s section of the record: the apps the input named.
    public var expectedAndroidApps: [String]? {
        get { associations.expectedAndroidApps }
        set { associations.expectedAndroidApps = newValue }
    }
}

extension DomainTarget {
    /// The apps its `assetlinks.json` must declare (`android:` tokens).
    public var androidApps: [AndroidApp] { wants.android ?? [] }
    /// Whether its `assetlinks.json` is audited: Android apps are named, or `--android`.
    public var auditsAndroid: Bool { wants.android != nil }
}
