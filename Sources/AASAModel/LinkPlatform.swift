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
