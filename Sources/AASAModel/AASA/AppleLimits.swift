/// What Apple's side defines, not us: the limits iOS applies to the file, and how Apple's CDN
/// fetches it. Every other part of the tool takes these from here.
public enum AppleLimits {
    /// iOS 9.3.1 and later ignore a file larger than this, counted after decompression.
    public static let maximumFileBytes = 131_072
    /// The user agent of Apple's CDN crawler, which fetches `.well-known` for devices.
    public static let botUserAgent = "AASA-Bot/1.0.0"
    /// Apple's CDN: devices on iOS 14 and later read `<base><host>` instead of the origin.
    public static let cdnBase = "https://app-site-association.cdn-apple.com/a/v1/"
}
