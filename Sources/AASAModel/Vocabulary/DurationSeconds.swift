/// A duration in seconds as a `Double`, and in whole nanoseconds: the one conversion, for
/// timings, rate limits, logs and timers.
extension Duration {
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whole nanoseconds (SwiftNIO's timers count in them).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
