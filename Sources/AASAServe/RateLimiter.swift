/// A per-client limit on checks: a token bucket per client address, refilled at `perMinute`
/// tokens a minute up to `burst`. Pure: the time is given. The table is bounded: past
/// `maximumClients`, the clients whose buckets are full again (idle long enough) are forgotten,
/// and when none is, the new client is refused rather than the table grown.
public struct RateLimiter: Sendable {
    public var perMinute: Double
    public var burst: Double
    public var maximumClients: Int

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private var buckets: [String: Bucket] = [:]

    public init(perMinute: Double, burst: Double, maximumClients: Int = 10_000) {
        self.perMinute = perMinute
        self.burst = max(1, burst)
        self.maximumClients = maximumClients
    }

    /// Takes a token for `client` at `now` (seconds): nil when granted, else the seconds until
    /// one is available (for `Retry-After`).
    public mutating func take(_ client: String, now: Double) -> Double? {
        guard perMinute > 0 else { return nil }
        let rate = perMinute / 60
        var bucket = buckets[client] ?? Bucket(tokens: burst, updated: now)
        bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.updated) * rate)
        bucket.updated = now
        guard bucket.tokens >= 1 else {
            buckets[client] = bucket
            return (1 - bucket.tokens) / rate
        }
        if buckets[client] == nil, buckets.count >= maximumClients {
            forgetIdle(now: now)
            if buckets.count >= maximumClients { return 60 / perMinute }
        }
        bucket.tokens -= 1
        buckets[client] = bucket
        return nil
    }

    /// Clients whose buckets have refilled: forgetting them changes nothing.
    private mutating func forgetIdle(now: Double) {
        let rate = perMinute / 60
        buckets = buckets.filter { $0.value.tokens + (now - $0.value.updated) * rate < burst }
    }

    public var clientCount: Int { buckets.count }
}
