import AASAModel
import CCurlShim
import CLibcurl
import Digest
import Foundation

/// One transfer in flight: its easy handle, what it has received so far, and the
/// continuation to resume when it ends.
///
/// Threading: created on a caller's task, then handed to the loop thread, which alone touches
/// the easy handle, the buffers and the continuation from then on. Only `cancelRequested` is
/// shared, and only under the loop's lock.
final class Transfer: @unchecked Sendable {
    let id: UInt64
    let request: FetchRequest
    let maximumBodyBytes: Int
    let maximumStoredBodyBytes: Int
    let maximumHeaderBytes: Int
    var continuation: CheckedContinuation<FetchedLocation, Never>?

    /// Guarded by the loop's lock.
    var cancelRequested = false

    // Loop thread only.
    var easy: UnsafeMutableRawPointer?
    /// The first `maximumStoredBodyBytes` of the body.
    var body: [UInt8] = []
    /// Every body byte received, counted and hashed as it arrives.
    var bodyBytes = 0
    let hasher = SHA256Stream()
    var bodyTruncated = false
    var headers = ResponseHeaders()
    var headerBytes = 0
    var headersTooLarge = false
    var connectionReported = false
    /// When the server's certificate stops being valid (seconds since 1970), read once the
    /// connection is up.
    var certificateExpiry: Int64?
    /// What the connection negotiated, read only for a request that offers its own TLS.
    var negotiated: NegotiatedTLS?
    let errorBuffer: UnsafeMutablePointer<CChar>
    let addressPolicy: AddressPolicy
    /// Addresses the policy refused, with why ("10.0.0.1: private (10.0.0.0/8)").
    var refusedAddresses: [String] = []
    /// The first address the policy refused: where the name pointed.
    var firstRefused: IPAddress?
    /// curl's connection hooks' context: this transfer and its checks. Lives as long as the
    /// transfer, which outlives its easy handle.
    let hooks: UnsafeMutablePointer<ccurl_connection_hooks>
    /// Sockets per address and lookups, shared with the fetcher's other transfers.
    let gate: ConnectionGate
    /// Its loop's connections: where the socket curl opens for it is recorded (loop thread).
    let connections: LoopConnections
    /// The host its connection is kept for (`LoopConnections.host(of:)`).
    let host: String
    /// Whether it is in its loop's multi handle now (loop thread).
    var inMulti = false
    /// The sockets curl opened for it, checked when it ends (`LoopConnections.transferEnded`).
    var openedSockets: [SocketID] = []
    /// Whether it is counted among its host's transfers waiting for a place (loop thread).
    var waitsForPlace = false
    /// Why the politeness gate held this attempt back (the first address it refused), until
    /// the attempt is retried.
    var held: Hold?
    /// The address the gate counted in for the socket curl is opening.
    private var admitted: IPAddress?
    /// Its place in the gate's queues, from the first time it was held back for an address.
    var ticket: UInt64?
    /// The address whose queue it waits in.
    var queuedFor: IPAddress?
    /// The address it was given a turn for: counted in, for its next attempt's socket.
    var turn: IPAddress?
    /// Whether any address was let through in this attempt: then its failure is the site's.
    var connectedAny = false
    /// When the transfer was first started: a wait counts against its timeout.
    var firstStarted: ContinuousClock.Instant?
    /// When it was handed to the loop (the caller's task), and when the loop handed its result
    /// back: what lies outside these is this process's time, not the network's.
    var submitted: ContinuousClock.Instant?
    var finished: ContinuousClock.Instant?

    /// The time this process, not the transfer, took around it: before the loop started it,
    /// and from its end until the caller's task ran again (`resumed`). On a loaded machine the
    /// second can be seconds; a domain's deadline does not count it.
    func localDelay(resumed: ContinuousClock.Instant) -> Duration {
        guard let submitted, let firstStarted, let finished else { return .zero }
        return max(.zero, firstStarted - submitted) + max(.zero, resumed - finished)
    }

    enum Hold: Equatable {
        case address(IPAddress, GateRefusal)
        case lookup
    }

    init(
        id: UInt64, request: FetchRequest, maximumBodyBytes: Int, maximumStoredBodyBytes: Int, maximumHeaderBytes: Int,
        addressPolicy: AddressPolicy, connections: LoopConnections
    ) {
        self.id = id
        self.request = request
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumStoredBodyBytes = min(maximumStoredBodyBytes, maximumBodyBytes)
        self.maximumHeaderBytes = maximumHeaderBytes
        self.addressPolicy = addressPolicy
        self.connections = connections
        gate = connections.gate
        host = LoopConnections.host(of: request.url)
        errorBuffer = .allocate(capacity: ccurl_error_size)
        errorBuffer.initialize(to: 0)
        hooks = .allocate(capacity: 1)
        hooks.initialize(to: ccurl_connection_hooks(check: nil, opened: nil, resolving: nil, userdata: nil))
        hooks.pointee.userdata = Unmanaged.passUnretained(self).toOpaque()
        hooks.pointee.check = { context, _, bytes, length in
            let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.mayConnect(to: Array(UnsafeBufferPointer(start: bytes, count: length))) ? 1 : 0
        }
        hooks.pointee.opened = { context, socket in
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().socketOpened(socket)
        }
        hooks.pointee.resolving = { context in
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().mayLookUp() ? 0 : 1
        }
    }

    deinit {
        errorBuffer.deallocate()
        hooks.deallocate()
    }

    /// Asked by curl's open-socket hook, on the loop thread, for every address it is about to
    /// connect to: the address policy, then the politeness gate.
    func mayConnect(to bytes: [UInt8]) -> Bool {
        guard let address = IPAddress(bytes: bytes) else { return false }
        if request.resolveOnly {
            refusedAddresses.append("\(address) is where the name resolved (resolving only)")
            return false
        }
        if let refusal = addressPolicy.refusal(for: address) {
            refusedAddresses.append("\(address) is \(refusal)")
            if firstRefused == nil { firstRefused = address }
            return false
        }
        if turn == address {
            turn = nil
        } else if let refusal = gate.admit(address) {
            if held == nil { held = .address(address, refusal) }
            return false
        }
        admitted = address
        connectedAny = true
        return true
    }

    /// The socket curl made for the address `mayConnect` let through.
    func socketOpened(_ socket: Int32) {
        guard let address = admitted else { return }
        admitted = nil
        if socket < 0 {
            gate.released(address)
        } else {
            openedSockets.append(connections.opened(socket, host: host, address: address))
        }
    }

    /// Joins the queue for the address it was held back for (keeping its ticket, so that a
    /// transfer held again keeps its place), giving back a turn it did not use.
    func enqueue(for address: IPAddress, urgent: Bool) {
        giveBack()
        let ticket = ticket ?? gate.newTicket(urgent: urgent)
        self.ticket = ticket
        queuedFor = address
        gate.enqueue(ticket, for: address)
    }

    /// Whether its turn for `address` has come (it then leaves the queue, counted in).
    func takeTurn(for address: IPAddress) -> Bool {
        guard let ticket, gate.takeTurn(ticket, for: address) else { return false }
        queuedFor = nil
        turn = address
        return true
    }

    /// Leaves the gate's queue and gives back a turn not used: the transfer ends, or waits
    /// again.
    func giveBack() {
        if let address = queuedFor, let ticket { gate.leave(ticket, for: address) }
        queuedFor = nil
        if let address = turn { gate.released(address) }
        turn = nil
    }

    /// Asked by curl's resolver hook before it looks a name up.
    func mayLookUp() -> Bool {
        if gate.admitLookup() { return true }
        held = .lookup
        return false
    }

    /// Whether this attempt ended only because the gate held it back: it then waits and is
    /// tried again. An attempt that reached any address failed on its own.
    func endedHeld(result: CURLcode) -> Bool {
        guard let held, result != CURLE_OK else { return false }
        switch held {
        case .lookup: return true
        case .address: return !connectedAny && result == CURLE_COULDNT_CONNECT
        }
    }

    /// Forgets an attempt that was held back, before it is tried again.
    func resetAttempt() {
        held = nil
        connectedAny = false
        refusedAddresses = []
        firstRefused = nil
        errorBuffer.pointee = 0
    }

    /// Takes a piece of the (decoded) body; returns how much was taken. Taking less than
    /// offered makes curl stop the transfer, which is how the read cap is enforced.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        let room = maximumBodyBytes - bodyBytes
        let taken = bytes.count > room ? UnsafeRawBufferPointer(rebasing: bytes.prefix(room)) : bytes
        hasher.update(taken)
        let storable = maximumStoredBodyBytes - body.count
        if storable > 0 { body.append(contentsOf: taken.prefix(storable)) }
        bodyBytes += taken.count
        if bytes.count > room {
            bodyTruncated = true
            return 0
        }
        return bytes.count
    }

    /// Takes one header line. A status line starts a new response (after a 1xx), so only the
    /// final response's headers are kept.
    func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
        headerBytes += bytes.count
        if headerBytes > maximumHeaderBytes {
            headersTooLarge = true
            return 0
        }
        if bytes.starts(with: "HTTP/".utf8) {
            headers = ResponseHeaders()
            return bytes.count
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            let name = Self.recordedName(bytes[..<colon])
        else { return bytes.count }
        // Optional whitespace around the value is SP and HTAB (RFC 9110, 5.6.3); libcurl hands
        // the line with its CRLF. Trimmed as bytes: this runs for every header line of every
        // response, on the loop thread.
        var value = bytes[(colon + 1)...]
        while let first = value.first, Self.isSpace(first) { value = value.dropFirst() }
        value = value.prefix(Self.maximumHeaderValueBytes)
        while let last = value.last, Self.isSpace(last) || last == 13 || last == 10 { value = value.dropLast() }
        headers.set(name: name, value: String(decoding: value, as: UTF8.self))
        return bytes.count
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 }

    /// The recorded header names as bytes, lower case.
    private static let recordedNameBytes: [(bytes: [UInt8], name: String)] = ResponseHeaders.recordedNames.map {
        (Array($0.utf8), $0)
    }

    /// The recorded header name these bytes spell in any case, or nil: most lines are not
    /// recorded, and no string is made for them.
    static func recordedName(_ bytes: Slice<UnsafeRawBufferPointer>) -> String? {
        for candidate in recordedNameBytes where candidate.bytes.count == bytes.count {
            if zip(candidate.bytes, bytes).allSatisfy({ $0 == ($1 | ($1 &- 65 < 26 ? 0x20 : 0)) }) {
                return candidate.name
            }
        }
        return nil
    }

    /// The connection is up (libcurl's PREREQFUNCTION, on the loop thread): reads when the
    /// server's certificate expires (the TLS session is only reachable while the transfer runs),
    /// and tells the request's `onConnected` whether further requests to the host can be
    /// multiplexed on it. Once.
    func connectionReady() {
        guard let easy, !connectionReported else { return }
        connectionReported = true
        var notAfter: Int64 = 0
        if ccurl_easy_peer_certificate_expiry(easy, &notAfter) == 1 { certificateExpiry = notAfter }
        if request.offeredTLS != nil { negotiated = Self.negotiatedTLS(easy) }
        request.onConnected?(ccurl_easy_connection_multiplexes(easy) == 1)
    }

    /// The connection's TLS version and suite, copied out of OpenSSL's names into Swift strings.
    static func negotiatedTLS(_ easy: UnsafeMutableRawPointer) -> NegotiatedTLS? {
        var version = [CChar](repeating: 0, count: 32)
        var cipher = [CChar](repeating: 0, count: 96)
        let found = version.withUnsafeMutableBufferPointer { versionBuffer in
            cipher.withUnsafeMutableBufferPointer { cipherBuffer in
                ccurl_easy_tls_session(
                    easy, versionBuffer.baseAddress, versionBuffer.count, cipherBuffer.baseAddress, cipherBuffer.count)
            }
        }
        guard found == 1 else { return nil }
        func text(_ buffer: [CChar]) -> String {
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return NegotiatedTLS(version: text(version), suite: text(cipher))
    }

    /// Header values are cut to this many bytes in the record.
    static let maximumHeaderValueBytes = 1024

    /// The record of the finished transfer. Called once, on the loop thread, before the easy
    /// handle is cleaned up.
    func finish(result: CURLcode) -> FetchedLocation {
        guard let easy else { preconditionFailure("finished a transfer that never started") }
        var record = FetchRecord(location: request.location, url: request.url)

        var status = 0
        _ = ccurl_easy_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
        if status > 0 {
            record.status = status
            var version = 0
            _ = ccurl_easy_get_long(easy, CURLINFO_HTTP_VERSION, &version)
            record.httpVersion = Self.httpVersionName(version)
            record.headers = headers
            if (300..<400).contains(status) {
                record.redirectTarget = string(easy, CURLINFO_REDIRECT_URL)
            }
        }
        record.remoteIP = string(easy, CURLINFO_PRIMARY_IP).flatMap { $0.isEmpty ? nil : $0 }
        record.certificateExpires = certificateExpiry.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        var connects = 0
        _ = ccurl_easy_get_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        record.newConnection = record.remoteIP == nil ? nil : connects > 0
        record.timings = FetchTimings(
            dnsMs: milliseconds(easy, CURLINFO_NAMELOOKUP_TIME_T),
            connectMs: milliseconds(easy, CURLINFO_CONNECT_TIME_T),
            tlsMs: milliseconds(easy, CURLINFO_APPCONNECT_TIME_T),
            firstByteMs: milliseconds(easy, CURLINFO_STARTTRANSFER_TIME_T),
            totalMs: milliseconds(easy, CURLINFO_TOTAL_TIME_T)
        )

        if result == CURLE_FILESIZE_EXCEEDED {
            bodyTruncated = true
        }
        record.bodyBytes = bodyBytes
        record.bodyTruncated = bodyTruncated
        if bodyBytes > 0 {
            record.bodySHA256 = hasher.finalizeHex()
        }

        let bodyCapHit = bodyTruncated && (result == CURLE_WRITE_ERROR || result == CURLE_FILESIZE_EXCEEDED)
        if result != CURLE_OK && !bodyCapHit {
            record.error = transferError(result)
            // Where the name pointed, though nothing connected there (a sinkhole says so).
            if record.error?.kind == .blockedAddress, record.remoteIP == nil {
                record.remoteIP = firstRefused?.description
            }
        }
        var fetched = FetchedLocation(record: record, body: body)
        fetched.tls = negotiated
        return fetched
    }

    func transferError(_ result: CURLcode) -> TransferError {
        if !refusedAddresses.isEmpty, result == CURLE_COULDNT_CONNECT {
            return TransferError(
                kind: .blockedAddress, curlCode: Int(result.rawValue),
                message:
                    "Not connected: \(refusedAddresses.joined(separator: "; ")). Only public addresses are fetched (\(OptionName.allowNetwork) makes exceptions)."
            )
        }
        if headersTooLarge {
            return TransferError(
                kind: .other, curlCode: Int(result.rawValue),
                message: "The response headers exceed \(maximumHeaderBytes) bytes; reading stopped.")
        }
        if result == CURLE_OUT_OF_MEMORY {
            // What libcurl answers to a header line longer than its own limit (100 KB): a
            // header flood, not a machine out of memory.
            return TransferError(
                kind: .other, curlCode: Int(result.rawValue),
                message:
                    "The response headers are too large (a header line over libcurl's 100 KB limit, or more than \(maximumHeaderBytes) bytes in all); reading stopped."
            )
        }
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? CurlErrorClassification.describe(result) : detail
        return TransferError(
            kind: CurlErrorClassification.kind(of: result, message: message), curlCode: Int(result.rawValue),
            message: message)
    }

    /// The record of a transfer whose deadline passed (or came too near to connect) while the
    /// politeness gate held it back: this audit's own limit, which says nothing about the site
    /// (kind `local`). It names the limit that holds it back now: the places, or the rate.
    func heldTooLongResult(waitedSeconds: Double, leftSeconds: Double) -> FetchedLocation {
        var record = FetchRecord(location: request.location, url: request.url)
        let seconds = { (value: Double) in value.formatted(.number.precision(.fractionLength(1))) }
        let waited =
            "Not fetched: waited \(seconds(waitedSeconds)) s"
            + (leftSeconds >= 0.05 ? " (\(seconds(leftSeconds)) s left, too little to connect)" : "")
        let limits = gate.limits
        var holding = held
        if case .address(let address, _)? = held, let ticket, queuedFor == address {
            holding = .address(address, gate.holdingBack(ticket, for: address))
        }
        let why =
            switch holding {
            case .address(let address, .full(let open, let waiting))?:
                "for a connection to \(address), which had \(open) open from this audit\(waiting > 0 ? " and \(waiting) waiting before" : "") (\(OptionName.perAddress) \(limits.connectionsPerAddress))"
            case .address(let address, .rate)?:
                "for a connection to \(address) within \(OptionName.perAddressRate) \((limits.newConnectionsPerSecond ?? 0).formatted()) a second"
            case .lookup?, nil:
                "for a DNS lookup within \(OptionName.dnsRate) \((limits.lookupsPerSecond ?? 0).formatted()) a second"
            }
        record.error = TransferError(
            kind: .local, curlCode: 0, message: "\(waited) \(why): this audit's own limit, not the site's.")
        return FetchedLocation(record: record)
    }

    /// The record of a transfer that was cancelled before it finished.
    func cancelledResult() -> FetchedLocation {
        var record = FetchRecord(location: request.location, url: request.url)
        record.error = TransferError(
            kind: .cancelled, curlCode: 0, message: "The fetch was cancelled before it finished.")
        return FetchedLocation(record: record)
    }

    private func string(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO) -> String? {
        var pointer: UnsafePointer<CChar>?
        guard ccurl_easy_get_string(easy, info, &pointer) == CURLE_OK, let pointer else { return nil }
        return String(cString: pointer)
    }

    private func milliseconds(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO) -> Double {
        var microseconds: curl_off_t = 0
        _ = ccurl_easy_get_offset(easy, info, &microseconds)
        return Double(microseconds / 10) / 100
    }

    static func httpVersionName(_ version: Int) -> String? {
        switch version {
        case CURL_HTTP_VERSION_1_0: "1.0"
        case CURL_HTTP_VERSION_1_1: "1.1"
        case CURL_HTTP_VERSION_2_0: "2"
        case CURL_HTTP_VERSION_3: "3"
        default: nil
        }
    }
}
