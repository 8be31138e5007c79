/// How much a finding matters. `error` breaks universal links; `warning` is risky or unusual;
/// `info` is worth knowing.
public enum Severity: String, Codable, Sendable, CaseIterable, Comparable {
    case info
    case warning
    case error

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// Where a file can be served. Devices (and Apple's CDN) read only `.well-known`;
/// the root location is the iOS 9 era fallback. Each association kind adds its own
/// (`AssociationKind.location`): the location carries its kind.
public struct AASALocation: KnownName, Sendable, Hashable {
    public let rawValue: String

    public static let wellKnown = AASALocation(fixed: "well-known")
    public static let root = AASALocation(fixed: "root")
    /// Apple's CDN copy (`https://app-site-association.cdn-apple.com/a/v1/<host>`), which
    /// devices on iOS 14 and later read instead of the origin.
    public static let cdn = AASALocation(fixed: "cdn")
    /// A path no site serves, asked once when a file came back 200 with the wrong type: does
    /// the server answer 200 for everything?
    public static let catchAllProbe = AASALocation(fixed: "catch-all-probe")

    private init(fixed rawValue: String) { self.rawValue = rawValue }

    init(kind: AssociationKind) { rawValue = kind.id }

    init(kind: AssociationKind, file: AlsoServedFile) { rawValue = file.name }

    /// A known location's name: the AASA's three and each kind's.
    public init?(rawValue: String) {
        guard
            [Self.wellKnown, .root, .cdn, .catchAllProbe].map(\.rawValue).contains(rawValue)
                || AssociationKinds.kind(location: rawValue) != nil
        else { return nil }
        self.rawValue = rawValue
    }

    /// The association kind fetched here; nil for the AASA's locations.
    public var kind: AssociationKind? { AssociationKinds.kind(location: rawValue) }

    /// Where it is fetched on `host`'s origin (https, the default port).
    public func url(on host: String) -> String { Self.url(on: host, path: path) }

    /// A path on `host`'s origin.
    public static func url(on host: String, path: String) -> String { "https://\(host)\(path)" }

    /// The path on the origin; the CDN's URL is built from its base instead.
    public var path: String {
        switch self {
        case .wellKnown: ServedFile.aasa.path
        case .root: ServedFile.aasaRootPath
        case .cdn: "/a/v1/"
        case .catchAllProbe: "/.well-known/resource-that-should-not-exist-whose-status-code-should-not-be-200"
        default: kind?.path(ofLocation: rawValue) ?? ""
        }
    }

    /// The name of the file fetched here: a kind's file's, or the other file's it checks; nil
    /// for the AASA's locations.
    public var fileName: String? {
        guard let kind else { return nil }
        return rawValue == kind.id ? kind.fileName : rawValue
    }
}

/// Who a `.well-known` fetch pretended to be, for the bot-blocking comparison.
public enum FetchAgent: String, Codable, Sendable {
    /// Apple's CDN crawler, `AASA-Bot/1.0.0`.
    case bot
    /// A desktop browser.
    case browser
}

/// What a finding concerns: one of the locations, the domain as a whole, or (for `lint`) a
/// local file. A location's finding is at the location of the same name.
public struct FindingLocation: KnownName, Sendable, Hashable {
    public let rawValue: String

    public static let wellKnown = FindingLocation(.wellKnown)
    public static let root = FindingLocation(.root)
    public static let cdn = FindingLocation(.cdn)
    public static let domain = FindingLocation(fixed: "domain")
    public static let file = FindingLocation(fixed: "file")

    private init(fixed rawValue: String) { self.rawValue = rawValue }

    public init(_ location: AASALocation) { rawValue = location.rawValue }

    /// A known name: a fetch's location's, the domain's or a file's.
    public init?(rawValue: String) {
        guard
            rawValue == Self.domain.rawValue || rawValue == Self.file.rawValue
                || AASALocation(rawValue: rawValue) != nil
        else { return nil }
        self.rawValue = rawValue
    }

}

/// One problem (or fact) found about a domain.
public struct Finding: Codable, Sendable, Hashable {
    public var code: FindingCode
    /// The catalog's, or one of its named cases' (`Finding(_:_:_:_:)`), capped for the root copy
    /// (`aboutTheRootCopy`) or changed by `--severity` (`SeverityPolicy`): set by the model only.
    public internal(set) var severity: Severity
    public var location: FindingLocation
    public var message: String
    /// The catalog's severity, when a `--severity` policy changed it (`SeverityPolicy`).
    public var overriddenFrom: Severity?
    /// The finding this one follows from (no file at `.well-known`, so no CDN copy), when it
    /// does: reports lead with causes and count by cause (`FindingCauses`).
    public var causedBy: FindingCause?
    /// Where in the file it is, when it is about a place in one.
    public var position: FilePosition?
    /// The fix on the platform the site runs on, beside the catalog's generic one.
    public var platformFix: PlatformFix?
    /// The team's acknowledgement that covers it (`Acknowledgements`): shown, but failing
    /// neither the exit status nor `--quiet`, and sending no alert.
    public var acknowledged: AcknowledgementMark?

    /// A finding at an explicit severity, inside the model only (decoding; tests reach it with
    /// `@testable`): everywhere else a severity comes from the catalog (`Finding(_:_:_:)`), so a
    /// severity outside it does not compile.
    init(code: FindingCode, severity: Severity, location: FindingLocation, message: String) {
        self.code = code
        self.severity = severity
        self.location = location
        self.message = message
    }

    private enum CodingKeys: String, CodingKey {
        case code, severity, location, message, fix, docs
        case overriddenFrom = "severityOverriddenFrom"
        case causedBy, pointer, line, column, platformFix, acknowledged
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(FindingCode.self, forKey: .code)
        severity = try container.decode(Severity.self, forKey: .severity)
        location = try container.decode(FindingLocation.self, forKey: .location)
        message = try container.decode(String.self, forKey: .message)
        overriddenFrom = try container.decodeIfPresent(Severity.self, forKey: .overriddenFrom)
        causedBy = try container.decodeIfPresent(FindingCause.self, forKey: .causedBy)
        platformFix = try container.decodeIfPresent(PlatformFix.self, forKey: .platformFix)
        acknowledged = try container.decodeIfPresent(AcknowledgementMark.self, forKey: .acknowledged)
        let pointer = try container.decodeIfPresent(String.self, forKey: .pointer)
        let line = try container.decodeIfPresent(Int.self, forKey: .line)
        if pointer != nil || line != nil {
            position = FilePosition(
                pointer: pointer, line: line, column: try container.decodeIfPresent(Int.self, forKey: .column))
        }
    }

    /// Written with the catalog's fix and the anchor of the code's documentation, so that a
    /// dashboard can show them without a copy of the catalog; read back without them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(severity, forKey: .severity)
        try container.encode(location, forKey: .location)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(overriddenFrom, forKey: .overriddenFrom)
        try container.encodeIfPresent(causedBy, forKey: .causedBy)
        try container.encodeIfPresent(platformFix, forKey: .platformFix)
        try container.encodeIfPresent(acknowledged, forKey: .acknowledged)
        if let position {
            try container.encodeIfPresent(position.pointer, forKey: .pointer)
            try container.encodeIfPresent(position.line, forKey: .line)
            try container.encodeIfPresent(position.column, forKey: .column)
        }
        try container.encode(code.definition.fix, forKey: .fix)
        try container.encode(code.documentationAnchor, forKey: .docs)
    }
}

/// The finding another follows from: the first of the domain's findings with this code at
/// this location.
public struct FindingCause: Codable, Sendable, Hashable {
    public var code: FindingCode
    public var location: FindingLocation

    /// The cause that is `finding`.
    public init(_ finding: Finding) {
        code = finding.code
        location = finding.location
    }
}

/// A fix in the terms of the hosting platform a site runs on (`HostingPlatform`).
public struct PlatformFix: Codable, Sendable, Hashable {
    public var platform: HostingPlatform
    public var fix: String
}

/// A place in a file: its JSON pointer (RFC 6901; `""` for the whole document; none for a
/// syntax error, which is at a place no value is) and, when the file's bytes are at hand, the
/// line and column (from 1, columns in characters) where the value starts.
public struct FilePosition: Codable, Sendable, Hashable {
    public var pointer: String?
    public var line: Int?
    public var column: Int?

    public init(pointer: String?, line: Int? = nil, column: Int? = nil) {
        self.pointer = pointer
        self.line = line
        self.column = column
    }
}

extension Finding {
    /// Whether a report leads with it: not a consequence of another finding, and not a note.
    public var isHeadline: Bool { causedBy == nil && severity != .info }
}

/// The overall result for a domain: `fail` with any error, `warn` with any warning, else `pass`.
public enum Verdict: String, Codable, Sendable, CaseIterable {
    case pass
    case warn
    case fail

    public init(findings: [Finding]) {
        let worst = findings.map(\.severity).max()
        switch worst {
        case .error: self = .fail
        case .warning: self = .warn
        case .info, nil: self = .pass
        }
    }

    /// Whether this verdict makes the run exit non-zero under the given threshold.
    public func fails(at threshold: Severity) -> Bool {
        switch self {
        case .fail: true
        case .warn: threshold <= .warning
        case .pass: false
        }
    }
}

/// A value known by a name from an open set (a location a kind adds): encoded as its name, and
/// a name nothing is called is refused when read.
public protocol KnownName: RawRepresentable<String>, Codable {}

extension KnownName {
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(rawValue: name) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "nothing is called \(name) here"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension Finding {
    /// This finding about the root copy (`/apple-app-site-association`): at most a warning when
    /// the root answered 200, only a note when it did not (docs/findings.md says so).
    public func aboutTheRootCopy(answered200: Bool) -> Finding {
        var capped = self
        capped.severity = answered200 ? min(severity, .warning) : .info
        return capped
    }
}
