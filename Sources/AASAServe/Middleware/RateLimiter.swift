/// A per-client limit on checks: a token bucket per client (`ClientAddress.limitKey`), refilled
/// at `perMinute` tokens a minute up to `burst`. Pure: the time is given. The table is bounded:
/// past `maximumClients`, the least recently seen tenth is forgotten (so made-up identities can
/// neither grow it nor lock new clients out; checks in flight are capped apart).
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
        if buckets[client] == nil, buckets.count >= maximumClients { forgetLeastRecent() }
        bucket.tokens -= 1
        buckets[client] = bucket
        return nil
    }

    /// The least recently seen tenth of the clients (at least one): one sort per tenth of the
    /// table, so a flood of new identities costs O(log n) each.
    private mutating func forgetLeastRecent() {
        let count = max(1, buckets.count / 10)
        for (client, _) in buckets.sorted(by: { $0.value.updated < $1.value.updated }).prefix(count) {
            buckets[client] = nil
        }
    }

    public var clientCount: Int { buckets.count }
}
