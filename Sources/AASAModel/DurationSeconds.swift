/// A duration in seconds as a `Double`: the one conversion, for timings, rate limits and logs.
extension Duration {
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
