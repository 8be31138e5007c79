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
        let seven = SocketID(descriptor: 7, inode: 70)
        gate.opened(seven, to: one)
        gate.released(one)  // the second socket() failed
        #expect(gate.openConnections(to: one) == 1)
        // While the socket is being closed it still counts (another loop must not connect in
        // its place before it is shut); its number is free for reuse already.
        let reused = SocketID(descriptor: 7, inode: 71)
        var duringClose: (open: Int, reopened: Int)?
        let result = gate.close(seven) { socket in
            let open = gate.openConnections(to: one)
            gate.opened(SocketID(descriptor: socket, inode: 71), to: other)  // reused by another loop at once
            duringClose = (open, gate.openConnections(to: other))
            return 0
        }
        #expect(result == 0 && duringClose?.open == 1 && duringClose?.reopened == 1)
        #expect(gate.openConnections(to: one) == 0)
        // A socket the gate does not know (closed before) is closed and changes nothing.
        var closedUnknown: [Int32] = []
        let failed = gate.close(SocketID(descriptor: 99, inode: 990)) { socket in
            closedUnknown.append(socket)
            return -1
        }
        #expect(failed == -1 && closedUnknown == [99] && gate.openConnections(to: other) == 1)
        // The old socket of number 7 counted out again (found gone later) changes nothing: only
        // the socket with its inode is the one that reuses the number.
        gate.reclaimed(seven)
        #expect(gate.openConnections(to: other) == 1)
        gate.reclaimed(reused)
        #expect(gate.openConnections(to: other) == 0)
        _ = gate.close(reused) { _ in 0 }  // and closed by curl after: counted once
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
        gate.opened(SocketID(descriptor: 5, inode: 50), to: address)
        gate.opened(SocketID(descriptor: 6, inode: 60), to: address)
        let (first, second, third) = (gate.newTicket(), gate.newTicket(), gate.newTicket())
        // Queued out of order (two loops): the queue keeps the tickets' order.
        gate.enqueue(third, for: address)
        gate.enqueue(first, for: address)
        gate.enqueue(second, for: address)
        #expect(gate.waiting(for: address) == 3)
        #expect(!gate.takeTurn(first, for: address))  // nothing free yet
        _ = gate.close(SocketID(descriptor: 5, inode: 50)) { _ in 0 }
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
        // A transfer of a domain under way goes before every newcomer, whenever it came.
        let newcomer = gate.newTicket()
        let underway = gate.newTicket(urgent: true)
        #expect(underway < newcomer && underway < third)
        // Queue empty: a newcomer is let in as soon as a place is free.
        #expect(gate.admit(address) == .full(open: 2, waiting: 0))
        _ = gate.close(SocketID(descriptor: 6, inode: 60)) { _ in 0 }
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

    /// Limits that leave domains unchecked whatever the sites do are said at the start: a rate
    /// that cannot start the domains one address may hold within their deadline (issue 46,
    /// item 3); the defaults, and a rate that fits, say nothing.
    @Test func limitsThatStarveDomainsAreSaid() throws {
        #expect(PolitenessLimits().starvation(concurrency: 64, domains: 10_000, timeoutSeconds: 10) == nil)
        let polite = PolitenessLimits(newConnectionsPerSecond: 20)
        #expect(polite.starvation(concurrency: 64, domains: 10_000, timeoutSeconds: 10) == nil)
        let slow = PolitenessLimits(newConnectionsPerSecond: 2)
        let said = try #require(slow.starvation(concurrency: 64, domains: 10_000, timeoutSeconds: 10))
        #expect(said.contains("--per-address-rate 2 lets at most 20 new connections"), "\(said)")
        #expect(said.contains("lower --concurrency to 20") && said.contains("Raise --per-address-rate to 8"))
        // A list no longer than what fits is never starved.
        #expect(slow.starvation(concurrency: 64, domains: 20, timeoutSeconds: 10) == nil)
        let dns = try #require(
            PolitenessLimits(lookupsPerSecond: 5).starvation(concurrency: 200, domains: 500, timeoutSeconds: 10))
        #expect(dns.contains("--dns-rate 5 lets at most 50 lookups"), "\(dns)")
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
    @Test(.live, .tags(.live)) func aFetchThatNeverGetsATurnEndsAsTheAuditsOwnLimit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pki = try TestPKI()
        let caFile = try pki.writeCACertificate(in: directory.url)
        let server = try LoopbackServer(
            identity: try pki.issueServerIdentity(for: ["*.aasa.test"], validUntil: Date().addingTimeInterval(86400)),
            script: { host, _ in host.hasPrefix("hang") ? .hang : .json("{}") })
        defer { server.shutdown() }
        // The held connection outlasts the waiting fetch by far, however late a loaded machine
        // starts it; and it starts once the server holds the first request, not after a guess.
        // The timeout and the wait bound a failure only (on one core, beside the suite's
        // CPU-bound tests, the pool's one thread can be away for a minute): the held fetch is
        // cancelled once the waiting one has ended, so a passing run waits for neither.
        let fetcher = try fetcher(
            server, caFile: caFile, timeout: 600, politeness: PolitenessLimits(connectionsPerAddress: 1))
        defer { fetcher.shutdown() }
        let held = Task { await fetcher.fetch(FetchRequest(url: "https://hang.aasa.test/", location: .wellKnown)) }
        #expect(
            await eventually { server.requests.count == 1 }, "the first request never reached the server")
        let waiting = await fetcher.fetch(
            FetchRequest(url: "https://good.aasa.test/", location: .wellKnown, timeoutSeconds: 0.6))
        #expect(waiting.record.error?.kind == .local, "\(String(describing: waiting.record.error))")
        #expect(waiting.record.error?.message.contains("--per-address 1") == true)
        #expect(waiting.record.error?.message.contains("127.0.0.1") == true)
        #expect(waiting.record.remoteIP == nil)
        held.cancel()
        #expect(await held.value.record.error?.kind == .cancelled)
        #expect(server.requests.map(\.host) == ["hang.aasa.test"])
        // Once the held connection is gone, the next fetch goes through.
        let later = await fetcher.fetch(FetchRequest(url: "https://good.aasa.test/", location: .wellKnown))
        #expect(later.record.status == 200)
    }

    /// Waits until `condition` holds, up to `seconds`; whether it did.
    /// The bound only ends a failing wait: on one core, beside the suite's CPU-bound tests, the
    /// pool's one thread can be away for a minute, so it is long; a passing run waits as little
    /// as the condition takes.
    func eventually(within seconds: Double = 300, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    func loopbackWorld(_ script: @escaping @Sendable (String, String) -> ScriptedResponse) throws -> (
        LoopbackServer, String, TemporaryDirectory
    ) {
        let directory = try TemporaryDirectory()
        let pki = try TestPKI()
        let caFile = try pki.writeCACertificate(in: directory.url)
        let server = try LoopbackServer(
            identity: try pki.issueServerIdentity(for: ["*.aasa.test"], validUntil: Date().addingTimeInterval(86400)),
            script: script)
        return (server, caFile, directory)
    }

    /// A domain's fetches none of which asked to close the connection (each could have been
    /// followed by another): once the domain is done, its connection is closed and counts out of
    /// its address at once (issue 46, item 1), though the server would keep it.
    @Test(.live, .tags(.live)) func aFinishedDomainsConnectionIsClosed() async throws {
        let (server, caFile, directory) = try loopbackWorld { _, _ in .json("{}") }
        defer {
            server.shutdown()
            directory.remove()
        }
        let fetcher = try fetcher(server, caFile: caFile, timeout: 10, politeness: PolitenessLimits())
        defer { fetcher.shutdown() }
        let address = try #require(IPAddress("127.0.0.1"))
        let statuses = await fetcher.keepingConnections(to: "good.aasa.test") {
            var statuses: [Int?] = []
            for path in ["/.well-known/apple-app-site-association", "/apple-app-site-association"] {
                statuses.append(
                    await fetcher.fetch(FetchRequest(url: "https://good.aasa.test\(path)", location: .wellKnown))
                        .record.status)
            }
            // Kept between the domain's fetches: one connection.
            #expect(server.connectionCount == 1 && server.openConnectionCount == 1)
            return statuses
        }
        #expect(statuses == [200, 200])
        #expect(await eventually { fetcher.gate.openConnections(to: address) == 0 })
        #expect(await eventually { server.openConnectionCount == 0 }, "the server still holds the connection")
    }

    /// With one place at the address, taken by an idle connection to a host no domain holds
    /// (as Apple's CDN's between fetches), a fetch to another host gets the place at once; the
    /// idle connection is shut. A held domain's idle connection is kept for its next fetch, the
    /// waiting one gets the place when the domain is done.
    @Test(.live, .tags(.live)) func anIdleConnectionIsReclaimedForAWaiterUnlessItsDomainHoldsIt() async throws {
        let (server, caFile, directory) = try loopbackWorld { _, _ in .json("{}") }
        defer {
            server.shutdown()
            directory.remove()
        }
        // A held connection is kept from the waiter however long the test takes (a loaded machine
        // may take seconds to see the waiter waiting): the grace below is the next test's. The
        // timeout and the waits bound a failure only: on one core, beside the suite's CPU-bound
        // tests, the pool's one thread can be away for tens of seconds.
        let fetcher = try fetcher(
            server, caFile: caFile, timeout: 120,
            politeness: PolitenessLimits(connectionsPerAddress: 1, heldIdleSeconds: 3600))
        defer { fetcher.shutdown() }
        let address = try #require(IPAddress("127.0.0.1"))
        func fetch(_ host: String, timeout: Double? = nil) async -> FetchRecord {
            await fetcher.fetch(
                FetchRequest(url: "https://\(host)/", location: .wellKnown, timeoutSeconds: timeout)
            ).record
        }
        let first = await fetch("cdn.aasa.test")
        #expect(first.status == 200 && server.openConnectionCount == 1)
        // Without the idle connection given up, this one would wait out its timeout.
        let second = await fetch("other.aasa.test", timeout: 60)
        #expect(second.status == 200, "\(String(describing: second.error))")
        #expect(await eventually { server.openConnectionCount == 1 }, "the idle connection was not shut")

        // other.aasa.test's connection is idle now too; a domain holds a third host's.
        let (kept, waiter) = await fetcher.keepingConnections(to: "held.aasa.test") {
            #expect(await fetch("held.aasa.test").status == 200)
            let waiter = Task { await fetch("waiter.aasa.test") }
            #expect(await eventually { fetcher.gate.waiting(for: address) == 1 })
            let kept = await fetch("held.aasa.test")
            // Still waiting: the held domain's connection is not taken from it.
            #expect(fetcher.gate.waiting(for: address) == 1)
            return (kept, waiter)
        }
        let waited = await waiter.value
        #expect(kept.status == 200 && kept.newConnection == false, "the held connection was not kept")
        #expect(waited.status == 200, "\(String(describing: waited.error))")
    }

    /// A domain that holds its connection but asks nothing on it for `heldIdleSeconds` (its task
    /// not resumed: on a starved machine, a finished domain not yet released) gives its place up
    /// to a waiter: else every domain after it on the address waited out its deadline (issue 54:
    /// 32 domains of 140 unchecked on one core beside a CPU hog).
    @Test(.live, .tags(.live)) func aHeldConnectionIdleTooLongIsGivenUpToAWaiter() async throws {
        let (server, caFile, directory) = try loopbackWorld { _, _ in .json("{}") }
        defer {
            server.shutdown()
            directory.remove()
        }
        let fetcher = try fetcher(
            server, caFile: caFile, timeout: 30,
            politeness: PolitenessLimits(connectionsPerAddress: 1, heldIdleSeconds: 0.2))
        defer { fetcher.shutdown() }
        let waited = await fetcher.keepingConnections(to: "a-domain-that-never-resumes.aasa.test") {
            let first = await fetcher.fetch(
                FetchRequest(url: "https://a-domain-that-never-resumes.aasa.test/", location: .wellKnown))
            #expect(first.record.status == 200)
            // The domain asks nothing more and keeps holding; another domain needs the place.
            return await fetcher.fetch(
                FetchRequest(url: "https://another-domain-waiting.aasa.test/", location: .wellKnown)
            ).record
        }
        #expect(waited.status == 200, "\(String(describing: waited.error))")
    }

    /// A held transfer is never given a turn it cannot use: with less of its time left than a
    /// connection needs, it ends as this audit's own limit, not as the site's timeout (issue 46,
    /// item 1: the oldest waiters were given a freed place with milliseconds left).
    @Test(.live, .tags(.live)) func aTurnWithTooLittleTimeLeftIsNotGiven() async throws {
        let (server, caFile, directory) = try loopbackWorld { _, _ in .hang }
        defer {
            server.shutdown()
            directory.remove()
        }
        let fetcher = try fetcher(
            server, caFile: caFile, timeout: 60, politeness: PolitenessLimits(connectionsPerAddress: 1))
        defer { fetcher.shutdown() }
        let address = try #require(IPAddress("127.0.0.1"))
        let held = Task { await fetcher.fetch(FetchRequest(url: "https://hang.aasa.test/", location: .wellKnown)) }
        #expect(await eventually { fetcher.gate.openConnections(to: address) == 1 })
        // It ends once less than a connection's worth of its 1.5 s is left, not at its deadline.
        let waiting = await fetcher.fetch(
            FetchRequest(url: "https://hang2.aasa.test/", location: .wellKnown, timeoutSeconds: 1.5))
        #expect(waiting.record.error?.kind == .local, "\(String(describing: waiting.record.error))")
        #expect(
            waiting.record.error?.message.contains("too little to connect") == true,
            "\(waiting.record.error?.message ?? "")")
        held.cancel()
        #expect(await held.value.record.error?.kind == .cancelled)
        #expect(server.requests.map(\.host) == ["hang.aasa.test"])
    }

    /// A transfer first held back for a place, then for the rate once the place was free,
    /// names the rate: the limit that held it at the end (issue 46, item 3).
    @Test(.live, .tags(.live)) func theRefusalNamesTheLimitThatHeldItLast() async throws {
        let (server, caFile, directory) = try loopbackWorld { _, _ in .json("{}") }
        defer {
            server.shutdown()
            directory.remove()
        }
        let fetcher = try fetcher(
            server, caFile: caFile, timeout: 60,
            politeness: PolitenessLimits(connectionsPerAddress: 1, newConnectionsPerSecond: 0.0001))
        defer { fetcher.shutdown() }
        // Its connection stays idle, holding the one place, and it took the one token (the next
        // comes in hours: a starved machine, a minute late, refills nothing).
        #expect(
            await fetcher.fetch(FetchRequest(url: "https://idle.aasa.test/", location: .wellKnown)).record.status == 200
        )
        // Held back for the place first; the idle connection gives it up; then the rate holds.
        let waiting = await fetcher.fetch(
            FetchRequest(url: "https://other.aasa.test/", location: .wellKnown, timeoutSeconds: 3))
        let message = waiting.record.error?.message ?? ""
        #expect(waiting.record.error?.kind == .local)
        #expect(message.contains("--per-address-rate 0.0001") && !message.contains("--per-address 1"), "\(message)")
    }

    /// A connection refused holds no place afterwards, though libcurl 7.88 closes a socket whose
    /// connect never completed without calling the close hook: with two places at the address,
    /// ten refused connections one after another are each refused by the server, never held back
    /// by the gate (issue 46, item 1).
    @Test(.live, .tags(.live)) func refusedConnectionsGiveTheirPlaceBack() async throws {
        let port = try LoopbackServer.unusedPort()
        let fetcher = try Fetcher(
            configuration: FetcherConfiguration(
                timeoutSeconds: 30, userAgent: "aasa-audit-tests/1", connectTo: ["::127.0.0.1:\(port)"],
                addressPolicy: .testServers, politeness: PolitenessLimits(connectionsPerAddress: 2)))
        defer { fetcher.shutdown() }
        let address = try #require(IPAddress("127.0.0.1"))
        var kinds: [TransferErrorKind?] = []
        for index in 1...10 {
            kinds.append(
                await fetcher.fetch(FetchRequest(url: "https://refused\(index).aasa.test/", location: .wellKnown))
                    .record.error?.kind)
        }
        #expect(kinds == Array(repeating: .connect, count: 10), "\(kinds)")
        #expect(fetcher.gate.openConnections(to: address) == 0)
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
