import AASAModel

/// Fetches URLs concurrently over libcurl multi handles, each driven by a thread of its own
/// (`FetcherConfiguration.loopThreads`, one by default), never following redirects, every
/// transfer bounded in time and in bytes. Call `shutdown()` when done.
public final class Fetcher: Sendable {
    public let configuration: FetcherConfiguration
    private let loops: [CurlMultiLoop]
    /// Sockets and waiting transfers per address, shared by the loops.
    let gate: ConnectionGate
    /// Names resolved without the resolver, and what each host's lookup asks.
    public let pins: ResolverPins
    private let diagnosis: DNSDiagnosis

    public init(configuration: FetcherConfiguration) throws(FetcherError) {
        self.configuration = configuration
        FileDescriptorLimit.raise(
            toAtLeast: FileDescriptorLimit.needed(forConcurrency: configuration.expectedConcurrency))
        // Each loop's connection cache is sized for every domain in flight (the whole
        // `expectedConcurrency`): hashing hosts to loops need not split them evenly.
        // One gate for all loops: a host's fetches stay on one loop, but many hosts share an address.
        gate = ConnectionGate(limits: configuration.politeness)
        pins = ResolverPins(configuration: configuration)
        diagnosis = DNSDiagnosis(server: configuration.diagnosisNameServer)
        var loops: [CurlMultiLoop] = []
        for _ in 0..<configuration.loopThreads {
            loops.append(try CurlMultiLoop(configuration: configuration, gate: self.gate))
        }
        self.loops = loops
    }

    /// The loop that fetches from a URL's host: always the same one for a host, so that a
    /// domain's fetches share its connection.
    func loop(for url: String) -> CurlMultiLoop {
        loop(forHost: LoopConnections.host(of: url))
    }

    private func loop(forHost host: String) -> CurlMultiLoop {
        guard loops.count > 1 else { return loops[0] }
        var hasher = Hasher()
        hasher.combine(host)
        return loops[Int(UInt(bitPattern: hasher.finalize()) % UInt(loops.count))]
    }

    /// Runs a domain's fetches (`body`) keeping the connections to its `host` between them, and
    /// closes them once its last transfer ends: a finished domain holds no connection (nor a
    /// place at its address, `--per-address`), whichever of its transfers ended last and on
    /// whatever protocol. Idle connections to hosts no domain holds are given up as soon as a
    /// transfer waits for their address.
    public func keepingConnections<T: Sendable>(to host: String, _ body: () async -> T) async -> T {
        let key = LoopConnections.host(of: "https://\(host)")
        let loop = loop(forHost: key)
        loop.hold(key, true)
        defer { loop.hold(key, false) }
        return await body()
    }

    /// Polls of the loops that slept their whole wait with transfers in flight and nothing to
    /// wake them (`CurlMultiLoop.fullWaits`): against a server that answers at once, none.
    public var fullWaits: Int { loops.reduce(0) { $0 + $1.fullWaits.load(ordering: .relaxed) } }

    /// Fetches one URL. Never throws: a failed transfer is described in the record. A
    /// cancelled task gets a record whose error kind is `cancelled`.
    public func fetch(_ request: FetchRequest) async -> FetchedLocation {
        let loop = loop(for: request.url)
        let transfer = loop.makeTransfer(request)
        if Task.isCancelled { return transfer.cancelledResult() }
        var fetched = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.continuation = continuation
                transfer.submitted = configuration.now()
                loop.submit(transfer)
            }
        } onCancel: {
            loop.cancel(transfer)
        }
        let resumed = configuration.now()
        fetched.localDelay = transfer.localDelay(resumed: resumed)
        fetched.sinceHandOver = transfer.submitted.map { resumed - $0 }
        // A name that did not resolve: why, from the resolver itself.
        if fetched.record.error?.kind == .dns, !Task.isCancelled,
            let name = pins.nameLookedUp(for: Self.bareHost(transfer.host)), let answer = await diagnosis.ask(name)
        {
            fetched.record.error?.dnsAnswer = answer
            fetched.record.error?.message += ": \(answer.sentence)."
        }
        return fetched
    }

    /// A URL host without its port (`[::1]:8443` → `[::1]`, `a.example:8443` → `a.example`).
    static func bareHost(_ host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[...end]) }
        return String(host.prefix { $0 != ":" })
    }

    /// Whether `host` resolves to an address, looked up as the audit's fetches look names up
    /// (`--resolve` and `--connect-to` apply): a transfer that resolves the name and connects to
    /// none of its addresses. Only an address counts: a canary is a name that exists, so "no
    /// such name" for it means this machine's resolver cannot see the internet.
    public func resolves(_ host: String) async -> Bool {
        var request = FetchRequest(url: "https://\(host)/", location: .wellKnown, closeConnection: true)
        request.resolveOnly = true
        guard let error = await fetch(request).record.error else { return true }
        switch error.kind {
        // Where the name resolved, refused on purpose (resolving only): an address.
        case .blockedAddress: return true
        // The resolver asked again directly gave an address: a passing failure.
        case .dns: return error.dnsAnswer?.gaveAnAddress == true
        default: return false
        }
    }

    /// Stops the loop threads; fetches still in flight end as cancelled.
    public func shutdown() {
        for loop in loops { loop.shutdown() }
    }
}
