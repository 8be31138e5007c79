import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The connections one curl loop made, by host, and which of them are idle in curl's cache
/// (issue 46, item 1). Loop thread only: curl opens and closes its sockets there, and the loop
/// adds and removes its transfers there.
///
/// curl keeps a connection in its cache after its last transfer unless that transfer asked to
/// close it, and over HTTP/2 libcurl 7.88 honours only the last stream's wish, so no request of
/// a domain can know it is the last: left to curl, a finished domain's connection stays open
/// (and counted in the per-address gate) until curl's cache overflows or the server closes it.
/// So the loop knows the rest itself:
/// - a host's connections serve that host's transfers alone, so with none of them in flight,
///   every socket to it is idle;
/// - a domain audit holds its host (`hold`) while it fetches, and once it `release`s it, its
///   sockets are shut as soon as no transfer of it is in flight, whatever order its transfers
///   ended in;
/// - an idle socket of a host no audit holds (Apple's CDN between fetches, an include's host),
///   of a held one whose own next transfer waits for a new connection, or of a held one that
///   has asked nothing for `PolitenessLimits.heldIdleSeconds` (its task not resumed yet), is shut
///   as soon as a
///   transfer waits for a place at its address (`reclaimForWaiters`); a domain under way goes
///   before newcomers in the queue (`ConnectionGate.newTicket(urgent:)`), so that no domain
///   holds a place waiting behind others for its own second one.
///
/// A socket is shut with `shutdown(2)`: the server sees the connection end at once, and the
/// gate counts it out then; curl still holds the descriptor, finds the connection dead, and
/// closes it through the close hook like any other.
///
/// libcurl 7.88 closes a socket whose connect never completed (refused, timed out, a transfer
/// removed while connecting) without calling the close hook (curl's PR 11439, fixed in 8.2).
/// Such a socket is counted out once found gone: when a new socket gets its number, or when
/// the transfer that opened it ends (`transferEnded`). A socket is known by its inode beside
/// its number, so that one closed behind the hook is never taken for the socket that reuses
/// its number, here or anywhere in the process: only a socket still ours is ever shut.
final class LoopConnections {
    let gate: ConnectionGate

    private struct Socket {
        let id: SocketID
        let host: String
        let address: IPAddress
    }

    private struct Host {
        var sockets: [Int32] = []
        /// Transfers of the host in the multi handle.
        var inFlight = 0
        /// Domain audits holding the host's connections for their next fetch.
        var holds = 0
        /// Released while transfers were in flight: shut its sockets when the last one ends.
        var closeWhenQuiet = false
        /// Its transfers waiting for a place at an address.
        var waiting = 0
        /// It opened a socket while held: a domain under way.
        var connected = false
        /// Since when no transfer of it is in flight.
        var quietSince: ContinuousClock.Instant?

        var isQuiet: Bool { inFlight == 0 }
        var isForgettable: Bool { sockets.isEmpty && inFlight == 0 && holds == 0 && waiting == 0 }
        /// Its idle sockets may be shut for a waiter: no domain holds it, or the domain itself
        /// waits for a new connection (its idle one evidently will not do), or the domain has
        /// asked nothing for `heldIdle` (its task not resumed: the place would be held for nobody).
        func isReclaimable(now: ContinuousClock.Instant, heldIdle: Duration) -> Bool {
            isQuiet && (holds == 0 || waiting > 0 || quietSince.map { now - $0 >= heldIdle } == true)
        }
    }

    private var sockets: [Int32: Socket] = [:]
    private var hosts: [String: Host] = [:]
    /// The loop's open sockets per address, for reclaiming.
    private var byAddress: [IPAddress: Set<Int32>] = [:]

    init(gate: ConnectionGate) {
        self.gate = gate
    }

    /// The host a URL's connections are kept for: what follows the scheme up to the path, in
    /// lower case (curl reuses a connection for the same host and port only).
    static func host(of url: String) -> String {
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
        return afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }.lowercased()
    }

    // MARK: curl's sockets

    /// curl made `socket` for a transfer of `host`, to `address` (which the gate counted in).
    /// Returns its identity, for the transfer to check when it ends.
    func opened(_ socket: Int32, host: String, address: IPAddress) -> SocketID {
        // A socket known by this number was closed behind the close hook.
        if let stale = sockets[socket] { countOut(stale) }
        let id = SocketID.at(socket)
        gate.opened(id, to: address)
        sockets[socket] = Socket(id: id, host: host, address: address)
        hosts[host, default: Host()].sockets.append(socket)
        hosts[host]?.connected = true
        byAddress[address, default: []].insert(socket)
        return id
    }

    /// curl closes `socket` (the close hook).
    func close(_ socket: Int32) -> Int32 {
        let id = SocketID.at(socket)
        if let known = sockets[socket], known.id != id { countOut(known) }
        forget(socket)
        return gate.close(id) { Glibc.close($0) }
    }

    /// A transfer ended: the sockets it opened that are gone now were closed behind the hook.
    func transferEnded(opened: [SocketID]) {
        for id in opened where sockets[id.descriptor]?.id == id && SocketID.at(id.descriptor) != id {
            if let gone = sockets[id.descriptor] { countOut(gone) }
        }
    }

    /// A socket gone without the close hook: forgotten, and out of the gate.
    private func countOut(_ socket: Socket) {
        forget(socket.id.descriptor)
        gate.reclaimed(socket.id)
    }

    private func forget(_ socket: Int32) {
        guard let entry = sockets.removeValue(forKey: socket) else { return }
        if var host = hosts[entry.host] {
            host.sockets.removeAll { $0 == socket }
            hosts[entry.host] = host.isForgettable ? nil : host
        }
        byAddress[entry.address]?.remove(socket)
        if byAddress[entry.address]?.isEmpty == true { byAddress[entry.address] = nil }
    }

    /// Ends the connection on `socket` (the server sees it closed) and counts it out of the
    /// gate; curl closes the descriptor when it next looks at the connection. Only a socket
    /// still ours is shut.
    private func shut(_ socket: Int32) {
        guard let entry = sockets[socket] else { return }
        if SocketID.at(socket) == entry.id { _ = Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
        countOut(entry)
    }

    private func shutAll(of host: String) {
        guard let sockets = hosts[host]?.sockets else { return }
        for socket in sockets { shut(socket) }
        hosts[host]?.closeWhenQuiet = false
        if hosts[host]?.isForgettable == true { hosts[host] = nil }
    }

    // MARK: Transfers and domain audits

    /// A transfer of `host` went into the multi handle.
    func transferAdded(host: String) {
        hosts[host, default: Host()].inFlight += 1
        hosts[host]?.quietSince = nil
    }

    /// A transfer of `host` left the multi handle (it ended, or waits for a place). The last
    /// one of a released host shuts its connections.
    func transferRemoved(host: String) {
        guard var state = hosts[host] else { return }
        state.inFlight -= 1
        if state.isQuiet { state.quietSince = .now }
        hosts[host] = state
        if state.isQuiet, state.closeWhenQuiet { shutAll(of: host) }
        if hosts[host]?.isForgettable == true { hosts[host] = nil }
    }

    /// A transfer of `host` waits for a place (the gate held it back), or no longer does.
    func transferWaits(host: String) {
        hosts[host, default: Host()].waiting += 1
    }

    func transferStopsWaiting(host: String) {
        hosts[host]?.waiting -= 1
        if hosts[host]?.isForgettable == true { hosts[host] = nil }
    }

    /// Whether a domain holding `host` connected already: its next transfers go first.
    func isUnderway(host: String) -> Bool {
        guard let state = hosts[host] else { return false }
        return state.holds > 0 && state.connected
    }

    /// A domain audit keeps the host's idle connections for its next fetch.
    func hold(host: String) {
        hosts[host, default: Host()].holds += 1
    }

    /// A domain audit is done with the host: its connections are shut once no transfer of it
    /// is in flight (at once, usually: the audit awaited its fetches).
    func release(host: String) {
        guard var state = hosts[host] else { return }
        state.holds = max(0, state.holds - 1)
        hosts[host] = state
        guard state.holds == 0 else { return }
        if state.isQuiet {
            shutAll(of: host)
        } else {
            hosts[host]?.closeWhenQuiet = true
        }
    }

    /// Shuts this loop's idle sockets (their host quiet and held by no audit, or held but asking
    /// nothing for `heldIdle`) to every address a transfer waits for, whichever loop it waits in:
    /// a place is never held by a connection nobody uses while someone waits for it.
    func reclaimForWaiters() {
        guard gate.anyWaiting else { return }
        let now = ContinuousClock.now
        let heldIdle = Duration.seconds(gate.limits.heldIdleSeconds)
        let idle = byAddress.filter { gate.waiting(for: $0.key) > 0 }.values.joined().filter { socket in
            sockets[socket].flatMap { hosts[$0.host] }?.isReclaimable(now: now, heldIdle: heldIdle) == true
        }
        for socket in idle { shut(socket) }
    }
}
