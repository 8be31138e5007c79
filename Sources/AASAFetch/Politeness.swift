import AASAModel
import Foundation
import Synchronization

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
    /// How long a held domain's connection may sit idle while another transfer waits for a place
    /// at its address before it is given up (`LoopConnections.reclaimForWaiters`). A domain between
    /// its fetches asks again within milliseconds; one whose task this process has not resumed
    /// (a finished domain not yet released, a machine whose threads are all busy) must not keep
    /// its place from a waiter, or a slow machine would leave domains unchecked (issue 54).
    public var heldIdleSeconds: Double

    public init(
        connectionsPerAddress: Int = PolitenessLimits.defaultConnectionsPerAddress,
        newConnectionsPerSecond: Double? = nil,
        lookupsPerSecond: Double? = PolitenessLimits.defaultLookupsPerSecond,
        heldIdleSeconds: Double = PolitenessLimits.defaultHeldIdleSeconds
    ) {
        self.connectionsPerAddress = max(1, connectionsPerAddress)
        self.newConnectionsPerSecond = newConnectionsPerSecond
        self.lookupsPerSecond = lookupsPerSecond
        self.heldIdleSeconds = heldIdleSeconds
    }

    public static let defaultHeldIdleSeconds = 2.0

    /// What an ordinary single server takes from one client without refusing (nginx's default
    /// worker takes 512 connections, Apache's 150 workers), low enough that a shared host is not
    /// swamped by one audit, and as many as the default `--concurrency` keeps in flight to the
    /// benchmark's one address: docs/performance.md measures it.
    public static let defaultConnectionsPerAddress = 32
    /// Below what public resolvers take from one client (Google Public DNS: 1,500 queries a
    /// second) and above what the default concurrency asks at internet latency.
    public static let defaultLookupsPerSecond: Double = 1000
    /// What `--per-address` and the two rates may be.
    public static let connectionsPerAddressRange = 1...100_000
    public static let rateRange = 0.01...1_000_000.0

    /// Why these rates leave domains unchecked every night however the sites answer, or nil
    /// (issue 46, item 3). Up to `concurrency` domains (no more than the list's `domains`) can
    /// wait at once for one address, as they do when they share a CDN edge or host, and for
    /// the resolver; within one domain's `timeoutSeconds` a rate lets only its burst and what
    /// it earns start, less the time a turn needs, and the rest wait past their deadline.
    public func starvation(concurrency: Int, domains: Int, timeoutSeconds: Double) -> String? {
        let waiting = min(concurrency, domains)
        let usable = max(0, timeoutSeconds - ConnectionGate.minimumTurnSeconds)
        func fit(_ rate: Double) -> Int { Int(max(1, rate) + rate * usable) }
        let seconds = timeoutSeconds.formatted()
        if let rate = newConnectionsPerSecond, waiting > fit(rate) {
            let needed = (Double(waiting) / max(usable, 0.001)).rounded(.up)
            return
                "\(OptionName.perAddressRate) \(rate.formatted()) lets at most \(fit(rate)) new connections to one address start within \(OptionName.timeout) \(seconds) s, and \(OptionName.concurrency) \(concurrency) keeps up to \(waiting) domains in flight: when more than \(fit(rate)) of them share an address (a CDN edge, a hosting provider), the rest wait past their deadline and end audit.unchecked every night. Raise \(OptionName.perAddressRate) to \(needed.formatted()) or \(OptionName.timeout), or lower \(OptionName.concurrency) to \(fit(rate))."
        }
        if let rate = lookupsPerSecond, waiting > fit(rate) {
            return
                "\(OptionName.dnsRate) \(rate.formatted()) lets at most \(fit(rate)) lookups start within \(OptionName.timeout) \(seconds) s, and \(OptionName.concurrency) \(concurrency) keeps up to \(waiting) domains in flight: the rest wait past their deadline and end audit.unchecked every night. Raise \(OptionName.dnsRate) or \(OptionName.timeout), or lower \(OptionName.concurrency) to \(fit(rate))."
        }
        return nil
    }
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
/// close-socket hook closes every socket, and the resolver hook asks `admitLookup`. A transfer
/// refused a connection joins the address's queue and waits (CurlMultiLoop) until `takeTurn`
/// gives it one, oldest first across the loops, within its deadline. Its state is one value
/// behind a `Mutex`: each method is one critical section on it.
final class ConnectionGate: Sendable {
    let limits: PolitenessLimits
    private let start = ContinuousClock.now
    private let state: Mutex<State>

    private struct AddressState {
        var open = 0
        var bucket: TokenBucket?
        /// The tickets of transfers held back for this address, oldest first: whichever loop
        /// holds them, they take the room that frees up in this order, before any newcomer.
        var waiting: [UInt64] = []

        /// Nothing to remember once nothing is open or waiting and no rate is kept.
        var isIdle: Bool { open <= 0 && waiting.isEmpty && bucket == nil }

        /// Where `ticket` stands in the queue (or would).
        func position(of ticket: UInt64) -> Int {
            var low = 0
            var high = waiting.count
            while low < high {
                let middle = (low + high) / 2
                if waiting[middle] < ticket { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// Takes a new connection's token where connections are rate-bound (`rate` a second).
        mutating func takeToken(_ rate: Double?, _ now: Double) -> Bool {
            guard let rate else { return true }
            var taken = bucket ?? TokenBucket(rate: rate, now: now)
            defer { bucket = taken }
            return taken.take(now)
        }
    }

    private struct State {
        var addresses: [IPAddress: AddressState] = [:]
        var sockets: [SocketID: IPAddress] = [:]
        var lookups: TokenBucket?
        var closesSincePrune = 0
        var tickets: UInt64 = 0
        /// Transfers waiting for any address.
        var waitingTotal = 0
        /// Wake each loop thread, so that one holding an idle connection to an address a transfer
        /// now waits for gives the place back at once (`LoopConnections.reclaimForWaiters`).
        var wakers: [@Sendable () -> Void] = []

        /// An address with nothing open and no rate to remember is forgotten at once; one with a
        /// rate when its bucket is full again (swept every 1,024 closes), so that the table holds
        /// only addresses in use or used within the last second.
        mutating func decrement(_ address: IPAddress, _ now: Double) {
            guard var state = addresses[address] else { return }
            state.open -= 1
            addresses[address] = state.isIdle ? nil : state
            closesSincePrune += 1
            if closesSincePrune >= 1024 { prune(now) }
        }

        mutating func prune(_ now: Double) {
            closesSincePrune = 0
            addresses = addresses.filter { _, state in
                guard state.open <= 0, state.waiting.isEmpty, var bucket = state.bucket else { return true }
                return !bucket.isFull(now)
            }
        }
    }

    /// A held transfer with less of its timeout left than this is not given a turn: TCP and TLS
    /// take two round trips and the request a third, about 1 s at 300 ms a round trip, and a
    /// turn it could not use would end as the site's timeout. It ends as this audit's own limit
    /// instead (`audit.unchecked`).
    static let minimumTurnSeconds = 1.0

    init(limits: PolitenessLimits) {
        self.limits = limits
        state = Mutex(State(lookups: limits.lookupsPerSecond.map { TokenBucket(rate: $0, now: 0) }))
    }

    /// Seconds since the gate was made: the buckets' clock.
    private var now: Double { (ContinuousClock.now - start).seconds }

    /// Why a new connection to `address` must wait, or nil after counting it in (the socket is
    /// then `opened` or `released`). While transfers wait for the address, a new one waits
    /// behind them: neither a place nor a token of the rate is taken from them.
    func admit(_ address: IPAddress) -> GateRefusal? {
        let now = now
        let limits = limits
        return state.withLock { gate in
            var state = gate.addresses[address] ?? AddressState()
            if !state.waiting.isEmpty || state.open >= limits.connectionsPerAddress {
                return .full(open: state.open, waiting: state.waiting.count)
            }
            if !state.takeToken(limits.newConnectionsPerSecond, now) {
                gate.addresses[address] = state
                return .rate
            }
            state.open += 1
            gate.addresses[address] = state
            return nil
        }
    }

    /// A ticket for a transfer the gate held back: its place in every queue it joins.
    /// `urgent`: for a transfer of a domain already under way (it connected before), which goes
    /// before every other waiting transfer: finishing started domains frees their places, and a
    /// domain waiting behind newcomers for its own second connection could hold its first
    /// place to its deadline.
    func newTicket(urgent: Bool = false) -> UInt64 {
        state.withLock { gate in
            gate.tickets += 1
            return urgent ? gate.tickets : Self.newcomerTickets + gate.tickets
        }
    }

    /// Where newcomers' tickets start: after every urgent one.
    static let newcomerTickets: UInt64 = 1 << 62

    /// A loop's way to be woken when a transfer starts waiting for an address.
    func register(wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wakers.append(wake) }
    }

    /// A held transfer joins the queue for `address` (in its ticket's place). The first to wait
    /// for an address wakes every loop: an idle connection one of them holds there is reclaimed.
    func enqueue(_ ticket: UInt64, for address: IPAddress) {
        let wake = state.withLock { gate -> [@Sendable () -> Void] in
            var state = gate.addresses[address] ?? AddressState()
            let first = state.waiting.isEmpty
            state.waiting.insert(ticket, at: state.position(of: ticket))
            gate.addresses[address] = state
            gate.waitingTotal += 1
            return first ? gate.wakers : []
        }
        wake.forEach { $0() }
    }

    /// Whether any transfer waits for an address.
    var anyWaiting: Bool { state.withLock { $0.waitingTotal > 0 } }

    /// A waiting transfer goes without a connection (its deadline passed, or it was cancelled).
    func leave(_ ticket: UInt64, for address: IPAddress) {
        state.withLock { gate in
            guard var state = gate.addresses[address] else { return }
            let position = state.position(of: ticket)
            guard position < state.waiting.count, state.waiting[position] == ticket else { return }
            state.waiting.remove(at: position)
            gate.waitingTotal -= 1
            gate.addresses[address] = state.isIdle ? nil : state
        }
    }

    /// Whether it is the waiting transfer's turn: room is free for it and for every transfer
    /// ahead of it. It then leaves the queue counted in, holding a connection to `address`
    /// that its next attempt uses (`released` if that attempt opens none).
    func takeTurn(_ ticket: UInt64, for address: IPAddress) -> Bool {
        let now = now
        let limits = limits
        return state.withLock { gate in
            guard var state = gate.addresses[address] else { return false }
            let position = state.position(of: ticket)
            guard position < state.waiting.count, state.waiting[position] == ticket,
                state.open + position < limits.connectionsPerAddress
            else { return false }
            guard state.takeToken(limits.newConnectionsPerSecond, now) else {
                gate.addresses[address] = state
                return false
            }
            state.waiting.remove(at: position)
            gate.waitingTotal -= 1
            state.open += 1
            gate.addresses[address] = state
            return true
        }
    }

    /// What keeps a waiting transfer from its turn now: the places (those open, and the
    /// transfers ahead of it), or else the rate.
    func holdingBack(_ ticket: UInt64, for address: IPAddress) -> GateRefusal {
        let limits = limits
        return state.withLock { gate in
            guard let state = gate.addresses[address] else { return .full(open: 0, waiting: 0) }
            let position = state.position(of: ticket)
            return state.open + position >= limits.connectionsPerAddress || limits.newConnectionsPerSecond == nil
                ? .full(open: state.open, waiting: position) : .rate
        }
    }

    /// The socket made for an admitted address.
    func opened(_ socket: SocketID, to address: IPAddress) {
        state.withLock { $0.sockets[socket] = address }
    }

    /// An admitted address got no socket after all.
    func released(_ address: IPAddress) {
        let now = now
        state.withLock { $0.decrement(address, now) }
    }

    /// Closes one of curl's sockets with `closing` (any socket of the fetcher's: ones it did not
    /// count are closed and otherwise ignored). The socket counts until it is closed: the loops
    /// share the gate, and one counting it out first could let another connect while the server
    /// still holds it.
    func close(_ socket: SocketID, by closing: (Int32) -> Int32) -> Int32 {
        let address = state.withLock { $0.sockets.removeValue(forKey: socket) }
        let result = closing(socket.descriptor)
        if let address {
            let now = now
            state.withLock { $0.decrement(address, now) }
        }
        return result
    }

    /// A socket that no longer holds a place: its connection was shut while curl still holds
    /// it, or curl closed it without the close hook (`LoopConnections`). Nothing when it was
    /// counted out before.
    func reclaimed(_ socket: SocketID) {
        let now = now
        state.withLock { gate in
            guard let address = gate.sockets.removeValue(forKey: socket) else { return }
            gate.decrement(address, now)
        }
    }

    /// Seconds until a new connection to `address` is within its rate (0: now, or not rate-bound).
    func secondsUntilRate(for address: IPAddress) -> Double {
        let now = now
        return state.withLock { gate in
            guard var bucket = gate.addresses[address]?.bucket else { return 0 }
            defer { gate.addresses[address]?.bucket = bucket }
            return bucket.secondsUntilNext(now)
        }
    }

    /// Whether a DNS lookup may start now (taking a token when lookups are rate-bound).
    func admitLookup() -> Bool {
        guard limits.lookupsPerSecond != nil else { return true }
        let now = now
        return state.withLock { $0.lookups?.take(now) ?? true }
    }

    /// How many waiting lookups may be tried now.
    func lookupRoom() -> Int {
        guard limits.lookupsPerSecond != nil else { return Int.max }
        let now = now
        return state.withLock { $0.lookups?.available(now) ?? Int.max }
    }

    /// Seconds until a lookup is within the rate.
    func secondsUntilLookup() -> Double {
        let now = now
        return state.withLock { $0.lookups?.secondsUntilNext(now) ?? 0 }
    }

    /// Sockets open to `address` now (and connections counted in for a transfer's turn).
    func openConnections(to address: IPAddress) -> Int {
        state.withLock { $0.addresses[address]?.open ?? 0 }
    }

    /// Transfers waiting for a connection to `address`.
    func waiting(for address: IPAddress) -> Int {
        state.withLock { $0.addresses[address]?.waiting.count ?? 0 }
    }
}

/// One socket: its descriptor number, which the system gives to a new socket as soon as this
/// one is closed, and its inode, which tells the two apart.
struct SocketID: Hashable {
    let descriptor: Int32
    let inode: UInt64

    /// The socket open at `descriptor` now (inode 0 when none is).
    static func at(_ descriptor: Int32) -> SocketID {
        var status = stat()
        return SocketID(descriptor: descriptor, inode: fstat(descriptor, &status) == 0 ? UInt64(status.st_ino) : 0)
    }
}

/// Why the gate held a connection back.
enum GateRefusal: Equatable {
    /// `open` sockets to the address already (the limit), or `waiting` transfers held back
    /// before this one, which a new transfer waits behind however many places are free.
    case full(open: Int, waiting: Int)
    /// The address's new-connection rate is spent for now.
    case rate
}
