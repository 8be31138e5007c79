/// The seam's list in the model: the association files a domain is audited for besides the
/// AASA, one member per kind of file. A kind's own types live in a folder of their own
/// (`Android/` for `assetlinks.json`); adding a kind is a member here, a folder there, and a
/// member in the engine's and the renderers' lists (`docs/architecture.md`, "Association files").

/// What a domain's line asks of those files.
public struct AssociationWants: Sendable, Equatable {
    /// `assetlinks.json`: the apps it must declare (maybe none); nil when it is not audited.
    public var android: [AndroidApp]?
    /// `assetlinks.json`: the scope the app's manifest gives the host (`--android-manifest`).
    public var androidManifestScope: AndroidManifest.HostScope?

    public init(android: [AndroidApp]? = nil, androidManifestScope: AndroidManifest.HostScope? = nil) {
        self.android = android
        self.androidManifestScope = androidManifestScope
    }

    /// Also audits what `other` asks for (`--android` on a whole list, a host in two inputs).
    public mutating func merge(_ other: AssociationWants) {
        if let apps = other.android {
            android = (android ?? []) + apps.filter { !(android ?? []).contains($0) }
        }
        androidManifestScope = other.androidManifestScope ?? androidManifestScope
    }
}

/// A domain record's sections for those files. Their members stand at the top level of the
/// record (`DomainReport`, `LintRecord`): their keys are part of the versioned schema.
public struct AssociationRecords: Codable, Sendable, Equatable {
    /// `assetlinks.json`: the apps the input named (`PACKAGE` or `PACKAGE@FINGERPRINT`), when it
    /// was audited.
    public var expectedAndroidApps: [String]?
    /// `assetlinks.json`: what it declares, when it was audited and parsed.
    public var android: AndroidDeclarations?

    public init(expectedAndroidApps: [String]? = nil, android: AndroidDeclarations? = nil) {
        self.expectedAndroidApps = expectedAndroidApps
        self.android = android
    }

    /// Takes the sections `other` has.
    public mutating func merge(_ other: AssociationRecords) {
        expectedAndroidApps = other.expectedAndroidApps ?? expectedAndroidApps
        android = other.android ?? android
    }
}

/// The platforms whose app links a domain's verdict speaks for: iOS's universal links unless
/// the domain serves no AASA (`ios:none`), Android's App Links when its `assetlinks.json` was
/// audited. A badge names them; the history keeps them for it.
public enum LinkPlatform: String, Sendable, CaseIterable {
    case ios
    case android

    /// What teams call the platform's links.
    public var linkName: String {
        switch self {
        case .ios: "universal links"
        case .android: "app links"
        }
    }

    /// The platforms of a record: `ios` its `ios` field (`"none"` or absent), `androidAudited`
    /// whether it has an `assetlinks.json` section.
    public static func of(ios: String?, androidAudited: Bool) -> [LinkPlatform] {
        (ios == DomainTarget.iosNone ? [] : [.ios]) + (androidAudited ? [.android] : [])
    }

    /// The history's spelling of a set (`android`, `ios+android`); nil for iOS alone, what a
    /// domain is unless its line says otherwise (and what every run before this was kept is).
    public static func historyKey(_ platforms: [LinkPlatform]) -> String? {
        platforms == [.ios] ? nil : platforms.map(\.rawValue).joined(separator: "+")
    }

    /// A history key read back; iOS alone for nil, nil for a key that names no platform.
    public static func platforms(historyKey key: String?) -> [LinkPlatform]? {
        guard let key else { return [.ios] }
        let platforms = key.split(separator: "+").compactMap { LinkPlatform(rawValue: String($0)) }
        return platforms.isEmpty ? nil : platforms
    }

    /// A badge's label: the platforms' links, `universal links + app links`.
    public static func label(_ platforms: [LinkPlatform]) -> String {
        platforms.map(\.linkName).joined(separator: " + ")
    }
}

extension DomainReport {
    /// The platforms its verdict speaks for.
    public var linkPlatforms: [LinkPlatform] {
        LinkPlatform.of(ios: ios, androidAudited: associations.expectedAndroidApps != nil)
    }
}

extension LinkPlatform {
    private enum RecordKeys: String, CodingKey {
        case ios, expectedAndroidApps
    }

    /// The platforms of a domain's record as the report writes it (its `ios` and its other
    /// files' sections, at the top level), read by a decoder of that record.
    public static func of(record decoder: any Decoder) throws -> [LinkPlatform] {
        let container = try decoder.container(keyedBy: RecordKeys.self)
        return of(
            ios: try container.decodeIfPresent(String.self, forKey: .ios),
            androidAudited: container.contains(.expectedAndroidApps))
    }
}

extension AssociationWants {
    /// What a domain that serves no AASA (`ios:none`) is audited for when its line names no
    /// other file: its `assetlinks.json`, for any app (there is nothing else it could serve).
    public var withoutAASA: AssociationWants {
        self == AssociationWants() ? AssociationWants(android: []) : self
    }
}
