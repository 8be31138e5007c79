import AASAModel
import Foundation
import TestSupport
import Testing

@testable import AASAFetch

/// The politeness gate's arithmetic, without a socket, and the fetcher holding transfers back
/// against a real server on 127.0.0.1 (issue 38, item 2).
@Suite struct PolitenessTests {
    @Test func aBucketGivesABurstThenItsRate() {
        var bucket = TokenBucket(rate: 4, now: 10)
        let atFirst = bucket.available(10)
        let burst = (0..<5).map { _ in bucket.take(10) }
        let wait = bucket.secondsUntilNext(10)
        let tooSoon = bucket.take(10.2)
        let inTime = bucket.take(10.25)
        #expect(atFirst == 4 && burst == [true, true, true, true, false])
        #expect(wait == 0.25 && !tooSoon && inTime)
        // It never saves more than a second's worth, however long it waits.
        let afterAWhile = bucket.available(1000)
        let full = bucket.isFull(1000)
        #expect(afterAWhile == 4 && full)
        // Time that runs backwards adds nothing.
        let taken = bucket.take(999)
        let left = bucket.available(998)
        #expect(taken && left == 3)
        // A rate under one a second still holds one token.
        var slow = TokenBucket(rate: 0.5, now: 0)
        let slowTakes = [slow.take(0), slow.take(1.9), slow.take(2)]
        #expect(slowTakes == [true, false, true])
    }

    @Test func theGateCountsSocketsPerAddress() throws {
        let gate = ConnectionGate(limits: PolitenessLimits(connectionsPerAddress: 2, lookupsPerSecond: nil))
        let one = try #require(IPAddress("192.0.2.1"))
        let other = try #require(IPAddress("2001:db8::1"))
        #expect(gate.admit(one) == nil && gate.admit(one) == nil)
        #expect(gate.admit(one) == .full(open: 2, waiting: 0))
        #expect(gate.openConnections(to: one) == 2 && gate.openConnections(to: other) == 0)
        // Another address has its own count.
        #expect(gate.admit(other) == nil)
        gate.opened(7, to: one)
        gate.released(one)  // the second socket() failed
        #expect(gate.openConnections(to: one) == 1)
        // While the socket is being closed it still counts (another loop must not connect in
        // its place before it is shut); its number is free for reuse already.
        var duringClose: (open: Int, reopened: Int)?
        let result = gate.close(7) { socket in
            let open = gate.openConnections(to: one)
            gate.opened(socket, to: other)  // the number reused by another loop at once
            duringClose = (open, gate.openConnections(to: other))
            return 0
        }
        #expect(result == 0 && duringClose?.open == 1 && duringClose?.reopened == 1)
        #expect(gate.openConnections(to: one) == 0)
        // A socket the gate does not know (closed before) is closed and changes nothing.
        var closedUnknown: [Int32] = []
        let failed = gate.close(99) { socket in
            closedUnknown.append(socket)
            return -1
        }
        #expect(failed == -1 && closedUnknown == [99] && gate.openConnections(to: other) == 1)
        _ = gate.close(7) { _ in 0 }  // the reused number: the other address's socket
        #expect(gate.openConnections(to: other) == 0)
        #expect(gate.admit(other) == nil)
        #expect(gate.openConnections(to: other) == 1)
        #expect(gate.admitLookup() && gate.lookupRoom() == Int.max)
    }

    /// Transfers held back take the room that frees up oldest first, whichever loop holds
    /// them, and before any newcomer; one that leaves (its deadline, a cancellation) gives its
    /// place up, and a turn not used is given back.
    @Test func waitingTransfersGoOldestFirstAndBeforeNewcomers() throws {
        let gate = ConnectionGate(limits: PolitenessLimits(connectionsPerAddress: 2, lookupsPerSecond: nil))
        let address = try #require(IPAddress("192.0.2.1"))
        #expect(gate.admit(address) == nil && gate.admit(address) == nil)
        gate.opened(5, to: address)
        gate.opened(6, to: address)
        let (first, second, third) = (gate.newTicket(), gate.newTicket(), gate.newTicket())
        // Queued out of order (two loops): the queue keeps the tickets' order.
        gate.enqueue(third, for: address)
        gate.enqueue(first, for: address)
        gate.enqueue(second, for: address)
        #expect(gate.waiting(for: address) == 3)
        #expect(!gate.takeTurn(first, for: address))  // nothing free yet
        _ = gate.close(5) { _ in 0 }
        // One place free: a newcomer waits behind the queue, and only the oldest gets it.
        #expect(gate.admit(address) == .full(open: 1, waiting: 3))
        #expect(!gate.takeTurn(second, for: address) && !gate.takeTurn(third, for: address))
        #expect(gate.takeTurn(first, for: address))
        #expect(gate.openConnections(to: address) == 2 && gate.waiting(for: address) == 2)
        #expect(!gate.takeTurn(first, for: address))  // a turn is taken once
        // The second leaves (its deadline passed); the first's turn opened no socket after all.
        gate.leave(second, for: address)
        gate.released(address)
        #expect(gate.takeTurn(third, for: address))
        #expect(gate.waiting(for: address) == 0 && gate.openConnections(to: address) == 2)
        // Queue empty: a newcomer is let in as soon as a place is free.
        #expect(gate.admit(address) == .full(open: 2, waiting: 0))
        _ = gate.close(6) { _ in 0 }
        #expect(gate.admit(address) == nil)
    }

    @Test func theGateHoldsNewConnectionsToTheirRate() throws {
        let gate = ConnectionGate(
            limits: PolitenessLimits(connectionsPerAddress: 100, newConnectionsPerSecond: 2, lookupsPerSecond: 3))
        let address = try #require(IPAddress("192.0.2.1"))
        #expect(gate.admit(address) == nil && gate.admit(address) == nil)
        #expect(gate.admit(address) == .rate)
        #expect(gate.secondsUntilRate(for: address) > 0.3)
        // A waiting transfer's turn needs a token too, and a newcomer does not take the next
        // one from it: it waits behind, though places are free.
        let ticket = gate.newTicket()
        gate.enqueue(ticket, for: address)
        #expect(!gate.takeTurn(ticket, for: address) && gate.waiting(for: address) == 1)
        #expect(gate.admit(address) == .full(open: 2, waiting: 1))
        #expect(gate.admitLookup() && gate.admitLookup() && gate.admitLookup())
        #expect(!gate.admitLookup() && gate.lookupRoom() == 0 && gate.secondsUntilLookup() > 0.2)
    }

    func fetcher(_ server: LoopbackServer, caFile: String, timeout: Double, politeness: PolitenessLimits) throws
        -> Fetcher
    {
        try Fetcher(
            configuration: FetcherConfiguration(
                timeoutSeconds: timeout, userAgent: "aasa-audit-tests/1", connectTo: [server.connectTo],
                caCertFile: caFile, addressPolicy: .testServers, politeness: politeness))
    }

    /// With one connection allowed to the address and that one held by a server that never
    /// answers, the next fetch waits for its turn, and at its deadline ends as this machine's
    /// own limit (kind `local`, which says nothing about the site), never having connected.
    @Test func aFetchThatNeverGetsATurnEndsAsTheAuditsOwnLimit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pki = try TestPKI()
        let caFile = try pki.writeCACertificate(in: directory.url)
        let server = try LoopbackServer(
            identity: try pki.issueServerIdentity(for: ["*.aasa.test"], validUntil: Date().addingTimeInterval(86400)),
            script: { host, _ in host.hasPrefix("hang") ? .hang : .json("{}") })
        defer { server.shutdown() }
        let fetcher = try fetcher(
            server, caFile: caFile, timeout: 2, politeness: PolitenessLimits(connectionsPerAddress: 1))
        defer { fetcher.shutdown() }
        async let held = fetcher.fetch(FetchRequest(url: "https://hang.aasa.test/", location: .wellKnown))
        try await Task.sleep(for: .milliseconds(300))
        let waiting = await fetcher.fetch(
            FetchRequest(url: "https://good.aasa.test/", location: .wellKnown, timeoutSeconds: 0.6))
        #expect(waiting.record.error?.kind == .local, "\(String(describing: waiting.record.error))")
        #expect(waiting.record.error?.message.contains("--per-address 1") == true)
        #expect(waiting.record.error?.message.contains("127.0.0.1") == true)
        #expect(waiting.record.remoteIP == nil)
        #expect(await held.record.error?.kind == .timeout)
        #expect(server.requests.map(\.host) == ["hang.aasa.test"])
        // Once the held connection is gone, the next fetch goes through.
        let later = await fetcher.fetch(FetchRequest(url: "https://good.aasa.test/", location: .wellKnown))
        #expect(later.record.status == 200)
    }

    /// Lookups are rate-bound on their own: numeric hosts are looked up too (each a name curl's
    /// cache does not hold yet), none is connected to (loopback is not allowed here), and six of
    /// them at two a second (a burst of two) take at least two seconds.
    @Test func lookupsWaitForTheirRate() async throws {
        let fetcher = try Fetcher(
            configuration: FetcherConfiguration(
                userAgent: "aasa-audit-tests/1",
                politeness: PolitenessLimits(connectionsPerAddress: 4, lookupsPerSecond: 2)))
        defer { fetcher.shutdown() }
        let started = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for index in 1...6 {
                group.addTask { _ = await fetcher.resolves("127.0.0.\(index)") }
            }
        }
        #expect((ContinuousClock.now - started) >= .milliseconds(1900))
    }
}
