import Foundation

/// How hard the fetcher may press on one server and on the resolver (`--per-address`,
/// `--per-address-rate`, `--dns-rate`; docs/robustness.md, "Politeness").
///
/// Most domains of a large list sit behind a few CDN or hosting addresses: without a bound per
/// address, `--concurrency 500` can be 500 connections to one edge at once, which rate-limits or
/// resets them, and the audit would then report the *sites* as failing.
public struct PolitenessLimits: Sendable, Equatable {
    /// Sockets open to one IP address at most, the connections curl keeps for a domain's next
    /// fetch included.
    public var connectionsPerAddress: Int
    /// New connections a second to one IP address at most (a burst of one second's worth); nil
    /// for no limit.
    public var newConnectionsPerSecond: Double?
    /// DNS lookups a second at most (names curl's cache holds are not looked up); nil for no
    /// limit.
    public var lookupsPerSecond: Double?

    public init(
        connectionsPerAddress: Int = PolitenessLimits.defaultConnectionsPerAddress,
        newConnectionsPerSecond: Double? = nil,
        lookupsPerSecond: Double? = PolitenessLimits.defaultLookupsPerSecond
    ) {
        self.connectionsPerAddress = max(1, connectionsPerAddress)
        self.newConnectionsPerSecond = newConnectionsPerSecond
        self.lookupsPerSecond = lookupsPerSecond
    }

    /// What an ordinary single server takes from one client without refusing (nginx's default
    /// worker takes 512 connections, Apache's 150 workers), low enough that a shared host is not
    /// swamped by one audit, and as many as the default `--concurrency` keeps in flight to the
    /// benchmark's one address: docs/performance.md measures it.
    public static let defaultConnectionsPerAddress = 32
    /// Below what public resolvers take from one client (Google Public DNS: 1,500 queries a
    /// second) and above what the default concurrency asks at internet latency.
    public static let defaultLookupsPerSecond: Double = 1000
}

/// A token bucket: `rate` tokens a second, at most `burst` saved. Pure: the caller says what time
/// it is (seconds on any monotonic clock).
struct TokenBucket: Sendable, Equatable {
    let rate: Double
    let burst: Double
    private(set) var tokens: Double
    private(set) var updated: Double

    /// Full at `now`: a burst of one second's worth (at least one token).
    init(rate: Double, now: Double) {
        self.rate = rate
        burst = max(1, rate)
        tokens = burst
        updated = now
    }

    private mutating func refill(_ now: Double) {
        guard now > updated else { return }
        tokens = min(burst, tokens + (now - updated) * rate)
        updated = now
    }

    /// Whole tokens at hand at `now`.
    mutating func available(_ now: Double) -> Int {
        refill(now)
        return Int(tokens.rounded(.down))
    }

    /// Takes a token if one is at hand.
    mutating func take(_ now: Double) -> Bool {
        refill(now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Seconds from `now` until a token is at hand (0 when one is).
    mutating func secondsUntilNext(_ now: Double) -> Double {
        refill(now)
        return tokens >= 1 ? 0 : (1 - tokens) / rate
    }

    /// Whether nothing has been taken that has not come back by `now`.
    mutating func isFull(_ now: Double) -> Bool {
        refill(now)
        return tokens >= burst
    }
}

/// The fetcher's bookkeeping of sockets per address and lookups, shared by its loop threads:
/// the open-socket hook asks `admit` for every address curl is about to connect to, the
/// close-socket hook reports every socket closed, and the resolver hook asks `admitLookup`. A
/// transfer refused here waits (CurlMultiLoop) until `room` says it may go, within its deadline.
final class ConnectionGate: @unchecked Sendable {
    let limits: PolitenessLimits
    private let lock = NSLock()
    private let start = ContinuousClock.now

    private struct AddressState {
        var open = 0
        var bucket: TokenBucket?
    }
    // Under `lock`.
    private var addresses: [IPAddress: AddressState] = [:]
    private var sockets: [Int32: IPAddress] = [:]
    private var lookups: TokenBucket?
    private var closesSincePrune = 0

    init(limits: PolitenessLimits) {
        self.limits = limits
        lookups = limits.lookupsPerSecond.map { TokenBucket(rate: $0, now: 0) }
    }

    /// Seconds since the gate was made: the buckets' clock.
    private var now: Double { (ContinuousClock.now - start).seconds }

    /// Why a connection to `address` must wait, or nil after counting it in (the socket is then
    /// `opened` or `released`).
    func admit(_ address: IPAddress) -> GateRefusal? {
        let now = now
        return lock.withLock {
            var state = addresses[address] ?? AddressState()
            if state.open >= limits.connectionsPerAddress { return .full(open: state.open) }
            if let rate = limits.newConnectionsPerSecond {
                var bucket = state.bucket ?? TokenBucket(rate: rate, now: now)
                let taken = bucket.take(now)
                state.bucket = bucket
                if !taken {
                    addresses[address] = state
                    return .rate
                }
            }
            state.open += 1
            addresses[address] = state
            return nil
        }
    }

    /// The socket made for an admitted address.
    func opened(_ socket: Int32, to address: IPAddress) {
        lock.withLock { sockets[socket] = address }
    }

    /// An admitted address got no socket after all.
    func released(_ address: IPAddress) {
        lock.withLock { decrement(address) }
    }

    /// Closes one of curl's sockets with `closing` (any socket of the fetcher's: ones it did not
    /// count are closed and otherwise ignored). The socket counts until it is closed: the loops
    /// share the gate, and one counting it out first could let another connect while the server
    /// still holds it. Its number is forgotten first, since once closed it may be reused at once.
    func close(_ socket: Int32, by closing: (Int32) -> Int32) -> Int32 {
        let address = lock.withLock { sockets.removeValue(forKey: socket) }
        let result = closing(socket)
        if let address { lock.withLock { decrement(address) } }
        return result
    }

    /// Under `lock`. An address with nothing open and no rate to remember is forgotten at once;
    /// one with a rate when its bucket is full again (swept every 1,024 closes), so that the
    /// table holds only addresses in use or used within the last second.
    private func decrement(_ address: IPAddress) {
        guard var state = addresses[address] else { return }
        state.open -= 1
        addresses[address] = state.open <= 0 && state.bucket == nil ? nil : state
        closesSincePrune += 1
        if closesSincePrune >= 1024 { prune() }
    }

    private func prune() {
        closesSincePrune = 0
        let now = now
        addresses = addresses.filter { _, state in
            guard state.open <= 0, var bucket = state.bucket else { return true }
            return !bucket.isFull(now)
        }
    }

    /// How many waiting connections to `address` may be tried now.
    func room(for address: IPAddress) -> Int {
        let now = now
        return lock.withLock {
            var state = addresses[address] ?? AddressState()
            var room = limits.connectionsPerAddress - state.open
            if var bucket = state.bucket {
                room = min(room, bucket.available(now))
                state.bucket = bucket
                addresses[address] = state
            }
            return max(0, room)
        }
    }

    /// Seconds until a new connection to `address` is within its rate (0: now, or not rate-bound).
    func secondsUntilRate(for address: IPAddress) -> Double {
        let now = now
        return lock.withLock {
            guard var bucket = addresses[address]?.bucket else { return 0 }
            defer { addresses[address]?.bucket = bucket }
            return bucket.secondsUntilNext(now)
        }
    }

    /// Whether a DNS lookup may start now (taking a token when lookups are rate-bound).
    func admitLookup() -> Bool {
        guard limits.lookupsPerSecond != nil else { return true }
        let now = now
        return lock.withLock { lookups?.take(now) ?? true }
    }

    /// How many waiting lookups may be tried now.
    func lookupRoom() -> Int {
        guard limits.lookupsPerSecond != nil else { return Int.max }
        let now = now
        return lock.withLock { lookups?.available(now) ?? Int.max }
    }

    /// Seconds until a lookup is within the rate.
    func secondsUntilLookup() -> Double {
        let now = now
        return lock.withLock { lookups?.secondsUntilNext(now) ?? 0 }
    }

    /// Sockets open to `address` now.
    func openConnections(to address: IPAddress) -> Int {
        lock.withLock { addresses[address]?.open ?? 0 }
    }
}

/// Why the gate held a connection back.
enum GateRefusal: Equatable {
    /// `open` sockets to the address already, the limit.
    case full(open: Int)
    /// The address's new-connection rate is spent for now.
    case rate
}
