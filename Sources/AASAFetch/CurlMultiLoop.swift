import AASAModel
import CCurlShim
import CLibcurl
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// libcurl's multi interface driven from one dedicated thread: perform, collect finished
/// transfers, poll. Other threads only append to the lock-protected inbox and call
/// `curl_multi_wakeup`; every curl handle is touched by the loop thread alone.
final class CurlMultiLoop: @unchecked Sendable {
    private let configuration: FetcherConfiguration
    private let gate: ConnectionGate
    /// The loop's connections by host (loop thread only): the close-socket hook's context.
    /// Lives as long as the loop, after the multi handle (and the connections it caches) is
    /// cleaned up.
    private let connections: LoopConnections
    private let closeHook: UnsafeMutablePointer<ccurl_socket_close_hook>

    // Loop thread only (after init).
    nonisolated(unsafe) private let multi: UnsafeMutableRawPointer
    private var active: [UInt64: Transfer] = [:]
    /// Polls that slept their whole wait while transfers were in flight and no socket woke them:
    /// time a transfer waits on data curl already holds costs this (issue 54: a smaller receive
    /// buffer left HTTP/2 frames in curl's stream buffer, a second a file). Read by `Fetcher`.
    let fullWaits = Atomic<Int>(0)
    /// Transfers the politeness gate held back, in arrival order: by the address they wait for,
    /// and those waiting to look a name up.
    private var waitingForAddress: [IPAddress: [Transfer]] = [:]
    private var waitingForLookup: [Transfer] = []
    /// Shared by every easy handle: curl does not copy lists, so they live as long as the loop.
    private let resolveList: UnsafeMutablePointer<curl_slist>?
    private let connectToList: UnsafeMutablePointer<curl_slist>?

    // Shared, under `lock`.
    private let lock = NSLock()
    private var inbox: [Transfer] = []
    private var cancellations: [Transfer] = []
    /// Hosts domain audits hold (true) or release (false), in the order asked.
    private var holds: [(host: String, hold: Bool)] = []
    private var stopRequested = false
    /// Set before the multi handle is cleaned up: nothing wakes it after.
    private var cleanedUp = false
    private var nextID: UInt64 = 0

    private let stopped = DispatchSemaphore(value: 0)

    init(configuration: FetcherConfiguration, gate: ConnectionGate) throws(FetcherError) {
        try CurlGlobal.initialize()
        guard let multi = curl_multi_init() else { throw FetcherError("curl_multi_init failed") }
        self.configuration = configuration
        self.gate = gate
        connections = LoopConnections(gate: gate)
        closeHook = .allocate(capacity: 1)
        closeHook.initialize(
            to: ccurl_socket_close_hook(
                close: { connections, socket in
                    Unmanaged<LoopConnections>.fromOpaque(connections!).takeUnretainedValue().close(socket)
                }, userdata: Unmanaged.passUnretained(connections).toOpaque()))
        self.multi = multi
        resolveList = Self.makeList(configuration.resolve)
        connectToList = Self.makeList(configuration.connectTo)
        // Keep every in-flight domain's connection cached until its last fetch.
        _ = ccurl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, max(16, configuration.expectedConcurrency + 16))
        _ = ccurl_multi_set_long(multi, CURLMOPT_PIPELINING, ccurl_pipe_multiplex)

        gate.register { [weak self] in self?.wake() }
        let thread = Thread { [self] in run() }
        thread.name = "aasa-audit curl loop"
        thread.start()
    }

    deinit {
        curl_slist_free_all(resolveList)
        curl_slist_free_all(connectToList)
        closeHook.deallocate()
    }

    // MARK: Called from any thread

    func makeTransfer(_ request: FetchRequest) -> Transfer {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        return Transfer(
            id: id, request: request, maximumBodyBytes: configuration.maximumBodyBytes,
            maximumStoredBodyBytes: request.maximumStoredBodyBytes ?? configuration.maximumStoredBodyBytes,
            maximumHeaderBytes: configuration.maximumHeaderBytes,
            addressPolicy: configuration.addressPolicy, connections: connections)
    }

    /// A domain audit keeps `host`'s idle connections for its next fetch (`hold`), or is done
    /// with them (they close once its last transfer ends).
    func hold(_ host: String, _ hold: Bool) {
        let accepted = lock.withLock {
            guard !stopRequested else { return false }
            holds.append((host, hold))
            return true
        }
        if accepted { curl_multi_wakeup(multi) }
    }

    /// Wakes the loop's poll (another loop's transfer started waiting for an address).
    private func wake() {
        lock.withLock {
            if !cleanedUp { curl_multi_wakeup(multi) }
        }
    }

    func submit(_ transfer: Transfer) {
        let accepted = lock.withLock {
            guard !stopRequested else { return false }
            inbox.append(transfer)
            return true
        }
        if accepted {
            curl_multi_wakeup(multi)
        } else {
            transfer.continuation?.resume(returning: transfer.cancelledResult())
            transfer.continuation = nil
        }
    }

    func cancel(_ transfer: Transfer) {
        lock.withLock {
            transfer.cancelRequested = true
            cancellations.append(transfer)
        }
        curl_multi_wakeup(multi)
    }

    /// Stops the loop: transfers still in flight end as cancelled. Waits for the thread.
    func shutdown() {
        lock.withLock { stopRequested = true }
        curl_multi_wakeup(multi)
        stopped.wait()
    }

    // MARK: The loop thread

    private func run() {
        while true {
            let (incoming, cancelled, holding, stopping) = lock.withLock {
                defer {
                    inbox.removeAll(keepingCapacity: true)
                    cancellations.removeAll(keepingCapacity: true)
                    holds.removeAll(keepingCapacity: true)
                }
                let incoming = inbox.map { ($0, $0.cancelRequested) }
                return (incoming, cancellations, holds, stopRequested)
            }
            // Holds first: a domain's hold was asked before its first transfer.
            for (host, hold) in holding {
                if hold { connections.hold(host: host) } else { connections.release(host: host) }
            }
            for (transfer, alreadyCancelled) in incoming {
                if alreadyCancelled || stopping {
                    resume(transfer, with: transfer.cancelledResult())
                } else {
                    start(transfer)
                }
            }
            for transfer in cancelled {
                if active[transfer.id] != nil { abort(transfer) }
            }
            if stopping {
                for transfer in Array(active.values) { abort(transfer) }
                break
            }

            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            collectFinished()
            connections.reclaimForWaiters()
            let waitMs = retryWaiting()
            let slept = ContinuousClock.now
            var woken: Int32 = 0
            _ = curl_multi_poll(multi, nil, 0, waitMs, &woken)
            if woken == 0, !active.isEmpty, ContinuousClock.now - slept >= .milliseconds(waitMs) {
                fullWaits.add(1, ordering: .relaxed)
            }
        }
        lock.withLock { cleanedUp = true }
        curl_multi_cleanup(multi)
        stopped.signal()
    }

    private func start(_ transfer: Transfer) {
        guard let easy = curl_easy_init() else {
            var failed = transfer.cancelledResult()
            failed.record.error = TransferError(kind: .other, curlCode: 0, message: "curl_easy_init failed")
            resume(transfer, with: failed)
            return
        }
        transfer.easy = easy
        transfer.firstStarted = configuration.now()
        if let problem = configure(easy, for: transfer) {
            var failed = transfer.cancelledResult()
            failed.record.error = TransferError(kind: .other, curlCode: 0, message: problem)
            curl_easy_cleanup(easy)
            resume(transfer, with: failed)
            return
        }
        active[transfer.id] = transfer
        add(transfer, easy)
    }

    /// Into the multi handle, counted in flight for its host.
    private func add(_ transfer: Transfer, _ easy: UnsafeMutableRawPointer) {
        transfer.inMulti = curl_multi_add_handle(multi, easy) == CURLM_OK
        if transfer.inMulti { connections.transferAdded(host: transfer.host) }
    }

    /// Out of the multi handle.
    private func remove(_ transfer: Transfer, _ easy: UnsafeMutableRawPointer) {
        _ = curl_multi_remove_handle(multi, easy)
        connections.transferEnded(opened: transfer.openedSockets)
        transfer.openedSockets = []
        if transfer.inMulti { connections.transferRemoved(host: transfer.host) }
        transfer.inMulti = false
    }

    /// Sets every option of a transfer. Returns a message when curl refuses one.
    ///
    /// CURLOPT_BUFFERSIZE stays libcurl's default (16 KB, one HTTP/2 DATA frame at most). A
    /// smaller buffer saved 12 KB a transfer, but libcurl 7.88 then leaves the rest of a frame in
    /// the stream's buffer without waking the loop: a later fetch on an HTTP/2 connection waited
    /// for the next 1 s poll, whole seconds a file (issue 54).
    private func configure(_ easy: UnsafeMutableRawPointer, for transfer: Transfer) -> String? {
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        let totalSeconds = transfer.request.timeoutSeconds ?? configuration.timeoutSeconds
        let timeout = Self.milliseconds(totalSeconds)
        let connectTimeout = Self.milliseconds(min(configuration.connectTimeoutSeconds, totalSeconds))
        var options = CurlOptions(easy)
        options.set(CURLOPT_URL, transfer.request.url)
        options.set(CURLOPT_PROTOCOLS_STR, "https")
        options.set(CURLOPT_REDIR_PROTOCOLS_STR, "https")
        options.set(CURLOPT_FOLLOWLOCATION, 0)
        // No proxy, whatever the environment says (https_proxy, all_proxy): through a proxy the
        // address policy would see only the proxy's address, and the proxy would connect to
        // whatever the name resolves to there (docs/robustness.md, "Proxies"). An empty string
        // is libcurl's word for "none" and turns its reading of the environment off.
        options.set(CURLOPT_PROXY, "")
        options.set(CURLOPT_NOSIGNAL, 1)
        options.set(CURLOPT_SSL_VERIFYPEER, 1)
        options.set(CURLOPT_SSL_VERIFYHOST, 2)
        options.set(CURLOPT_HTTP_VERSION, ccurl_http_version_2tls)
        options.set(CURLOPT_PIPEWAIT, 1)
        options.set(CURLOPT_ACCEPT_ENCODING, "")
        options.set(CURLOPT_USERAGENT, transfer.request.userAgent ?? configuration.userAgent)
        options.set(CURLOPT_TIMEOUT_MS, timeout)
        options.set(CURLOPT_CONNECTTIMEOUT_MS, connectTimeout)
        options.set(CURLOPT_MAXFILESIZE_LARGE, offset: curl_off_t(configuration.maximumBodyBytes))
        options.set(CURLOPT_FORBID_REUSE, transfer.request.closeConnection ? 1 : 0)
        if let offered = transfer.request.offeredTLS { options.offer(offered) }
        if let caCertFile = configuration.caCertFile { options.set(CURLOPT_CAINFO, caCertFile) }
        // Trust comes from the CA bundle file alone (libcurl's built-in one unless --cacert).
        // Debian's libcurl also has a default CA directory, and with one set libcurl never caches
        // the parsed store: every connection would read and parse the whole bundle again.
        options.unset(CURLOPT_CAPATH)
        if let resolveList { options.set(CURLOPT_RESOLVE, list: resolveList) }
        if let connectToList { options.set(CURLOPT_CONNECT_TO, list: connectToList) }
        options.set(hooks: transfer.hooks)
        options.set(closeHook: closeHook)
        options.set(CURLOPT_ERRORBUFFER, pointer: transfer.errorBuffer)
        options.set(CURLOPT_PRIVATE, pointer: context)
        options.set(CURLOPT_WRITEDATA, pointer: context)
        options.set(CURLOPT_HEADERDATA, pointer: context)
        options.set(
            CURLOPT_WRITEFUNCTION,
            callback: { data, size, count, context in
                let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
                return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
            })
        options.set(
            CURLOPT_HEADERFUNCTION,
            callback: { data, size, count, context in
                let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
                return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
            })
        options.set(CURLOPT_PREREQDATA, pointer: context)
        options.set(prerequest: { context, _, _, _, _ in
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().connectionReady()
            return 0  // CURL_PREREQFUNC_OK
        })
        return options.failure
    }

    private func collectFinished() {
        var easy: UnsafeMutableRawPointer?
        var result = CURLE_OK
        while ccurl_multi_next_done(multi, &easy, &result) == 1, let easy {
            var context: UnsafeMutableRawPointer?
            _ = ccurl_easy_get_pointer(easy, CURLINFO_PRIVATE, &context)
            guard let context else { continue }
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
            if transfer.endedHeld(result: result) {
                hold(transfer, easy)
                continue
            }
            let fetched = transfer.finish(result: result)
            release(transfer)
            resume(transfer, with: fetched)
        }
    }

    /// A transfer the gate held back leaves the multi handle (keeping its easy handle and
    /// options) and waits for room.
    private func hold(_ transfer: Transfer, _ easy: UnsafeMutableRawPointer) {
        remove(transfer, easy)
        switch transfer.held {
        case .address(let address, _)?:
            transfer.enqueue(for: address, urgent: connections.isUnderway(host: transfer.host))
            if !transfer.waitsForPlace { connections.transferWaits(host: transfer.host) }
            transfer.waitsForPlace = true
            // In ticket order, as in the gate's queue.
            var waiting = waitingForAddress[address, default: []]
            let ticket = transfer.ticket ?? 0
            let after = waiting.lastIndex { ($0.ticket ?? 0) < ticket }.map { $0 + 1 } ?? 0
            waiting.insert(transfer, at: after)
            waitingForAddress[address] = waiting
        case .lookup?, nil:
            transfer.giveBack()
            waitingForLookup.append(transfer)
        }
    }

    /// Tries again the waiting transfers whose turn has come (lookups as the rate has room),
    /// oldest first, and ends those whose deadline passed. Returns how long the loop may sleep
    /// before looking again (at most 100 ms while any waits).
    private func retryWaiting() -> Int32 {
        guard !waitingForAddress.isEmpty || !waitingForLookup.isEmpty else { return 1000 }
        var waitMs = 100
        if !waitingForLookup.isEmpty {
            var room = gate.lookupRoom()
            waitingForLookup = retry(waitingForLookup) { _ in
                room -= 1
                return room >= 0
            }
            if !waitingForLookup.isEmpty { waitMs = min(waitMs, Self.milliseconds(gate.secondsUntilLookup())) }
        }
        for (address, waiting) in waitingForAddress {
            var mayTakeTurns = true
            let left = retry(waiting) { transfer in
                // Turns go oldest first: once one here is not given one, none after it is.
                mayTakeTurns = mayTakeTurns && transfer.takeTurn(for: address)
                return mayTakeTurns
            }
            waitingForAddress[address] = left.isEmpty ? nil : left
            // A slot freed by another loop thread is seen within 10 ms.
            if !left.isEmpty { waitMs = min(waitMs, max(10, Self.milliseconds(gate.secondsUntilRate(for: address)))) }
        }
        return Int32(waitMs)
    }

    /// Starts again those of `waiting` that `mayGo` lets go, in order, dropping those cancelled
    /// meanwhile and ending those whose deadline passed (at once: one left waiting would keep
    /// its place in the gate's queue); returns the rest, in order. `mayGo` is asked only of a
    /// transfer whose deadline has not passed.
    private func retry(_ waiting: [Transfer], mayGo: (Transfer) -> Bool) -> [Transfer] {
        var left: [Transfer] = []
        for transfer in waiting where active[transfer.id] != nil {
            guard let easy = transfer.easy else {
                left.append(transfer)
                continue
            }
            let total = transfer.request.timeoutSeconds ?? configuration.timeoutSeconds
            let waited = transfer.firstStarted.map { (configuration.now() - $0).seconds } ?? 0
            // A turn with too little time left to connect would only end as the site's
            // timeout: it ends here, as this audit's own limit.
            if total - waited < ConnectionGate.minimumTurnSeconds {
                let fetched = transfer.heldTooLongResult(waitedSeconds: waited, leftSeconds: total - waited)
                release(transfer)
                resume(transfer, with: fetched)
            } else if mayGo(transfer) {
                stopWaiting(transfer)
                transfer.resetAttempt()
                _ = ccurl_easy_set_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(total - waited))
                let connect = min(configuration.connectTimeoutSeconds, total - waited)
                _ = ccurl_easy_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(connect))
                add(transfer, easy)
            } else {
                left.append(transfer)
            }
        }
        return left
    }

    /// At least 1 ms (curl reads 0 as "no timeout at all").
    private static func milliseconds(_ seconds: Double) -> Int {
        Int(max(1, min(Double(Int32.max), (seconds * 1000).rounded(.up))))
    }

    private func abort(_ transfer: Transfer) {
        release(transfer)
        resume(transfer, with: transfer.cancelledResult())
    }

    /// A transfer that waited for a place has it, or ends.
    private func stopWaiting(_ transfer: Transfer) {
        guard transfer.waitsForPlace else { return }
        transfer.waitsForPlace = false
        connections.transferStopsWaiting(host: transfer.host)
    }

    private func release(_ transfer: Transfer) {
        stopWaiting(transfer)
        transfer.giveBack()
        if let easy = transfer.easy {
            remove(transfer, easy)
            curl_easy_cleanup(easy)
            transfer.easy = nil
        }
        active[transfer.id] = nil
    }

    private func resume(_ transfer: Transfer, with result: FetchedLocation) {
        transfer.finished = configuration.now()
        transfer.continuation?.resume(returning: result)
        transfer.continuation = nil
    }

    /// curl_slist_append copies each entry; the entries come from the command line and the
    /// test worlds (`--resolve`-style pins), and one with a NUL is left out rather than cut.
    private static func makeList(_ entries: [String]) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        for entry in entries where !entry.utf8.contains(0) { list = curl_slist_append(list, entry) }
        return list
    }
}

/// Sets options on one easy handle, remembering the first one curl refuses.
struct CurlOptions {
    let easy: UnsafeMutableRawPointer
    private(set) var failure: String?

    init(_ easy: UnsafeMutableRawPointer) { self.easy = easy }

    mutating func set(_ option: CURLoption, _ value: Int) { check(option, ccurl_easy_set_long(easy, option, value)) }
    mutating func set(_ option: CURLoption, offset value: curl_off_t) {
        check(option, ccurl_easy_set_offset(easy, option, value))
    }
    /// libcurl copies a string option during the call (since 7.17), so the C string Swift makes
    /// for it need live no longer. Text with a NUL is refused, never cut: a URL from a file
    /// (`…/enroll.html\u{0}/../x`) would be fetched as its prefix and judged as written.
    mutating func set(_ option: CURLoption, _ value: String) {
        guard !value.utf8.contains(0) else {
            if failure == nil {
                failure =
                    option == CURLOPT_URL
                    ? "The URL holds a NUL character (U+0000), which no client sends: not fetched."
                    : "A NUL character (U+0000) in curl option \(option.rawValue): not set."
            }
            return
        }
        check(option, ccurl_easy_set_string(easy, option, value))
    }
    /// Offers only these TLS versions and suites.
    mutating func offer(_ offered: OfferedTLS) {
        set(CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2))
        set(CURLOPT_SSL_CIPHER_LIST, offered.tls12Suites.joined(separator: ":"))
        set(CURLOPT_TLS13_CIPHERS, offered.tls13Suites.joined(separator: ":"))
    }
    /// Sets a string option back to none (NULL), dropping libcurl's built-in default.
    mutating func unset(_ option: CURLoption) { check(option, ccurl_easy_set_string(easy, option, nil)) }
    mutating func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer) {
        check(option, ccurl_easy_set_pointer(easy, option, value))
    }
    mutating func set(_ option: CURLoption, pointer value: UnsafeMutablePointer<CChar>) {
        check(option, ccurl_easy_set_pointer(easy, option, value))
    }
    mutating func set(_ option: CURLoption, list value: UnsafeMutablePointer<curl_slist>) {
        check(option, ccurl_easy_set_slist(easy, option, value))
    }
    mutating func set(_ option: CURLoption, callback: ccurl_data_callback) {
        check(option, ccurl_easy_set_data_callback(easy, option, callback))
    }
    mutating func set(hooks context: UnsafeMutablePointer<ccurl_connection_hooks>) {
        check(CURLOPT_OPENSOCKETFUNCTION, ccurl_easy_set_connection_hooks(easy, context))
    }
    mutating func set(closeHook context: UnsafeMutablePointer<ccurl_socket_close_hook>) {
        check(CURLOPT_CLOSESOCKETFUNCTION, ccurl_easy_set_socket_close_hook(easy, context))
    }
    mutating func set(prerequest callback: ccurl_prereq_callback) {
        check(CURLOPT_PREREQFUNCTION, ccurl_easy_set_prereq_callback(easy, callback))
    }

    private mutating func check(_ option: CURLoption, _ code: CURLcode) {
        if code != CURLE_OK, failure == nil {
            failure = "curl refused option \(option.rawValue): \(CurlErrorClassification.describe(code))"
        }
    }
}

/// libcurl's process-wide initialisation, done once before the first handle.
enum CurlGlobal {
    private static let result: CURLcode = ccurl_global_init_once()

    static func initialize() throws(FetcherError) {
        guard result == CURLE_OK else {
            throw FetcherError("curl_global_init failed: \(CurlErrorClassification.describe(result))")
        }
        signal(SIGPIPE, SIG_IGN)
    }
}

public struct FetcherError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
