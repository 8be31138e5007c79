/// Limits that come from Apple, not from us.
public enum AppleLimits {
    /// iOS 9.3.1 and later ignore a file larger than this, counted after decompression.
    public static let maximumFileBytes = 131_072
}
