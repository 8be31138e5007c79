/// The services an association file can hold and an app's associated-domains entitlement can
/// name (`SERVICE:HOST`): the file's top-level keys.
public enum AssociatedDomainService: String, Codable, Sendable, CaseIterable, Hashable {
    /// Universal links.
    case applinks
    /// Shared web credentials (passwords, passkeys).
    case webcredentials
    /// App Clips.
    case appclips
    /// Handoff.
    case activitycontinuation

    /// The services whose section is `{"apps": [...]}`: all but applinks.
    public static let appListServices: [AssociatedDomainService] = [.webcredentials, .appclips, .activitycontinuation]
}
