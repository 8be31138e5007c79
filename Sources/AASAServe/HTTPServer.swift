import AASAMCP
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// `serve`'s HTTP/1.1 server on SwiftNIO: one task per connection, requests answered in order,
/// every answer with the security headers, one access-log line per request.
///
/// Bounds: NIO's parser refuses a request head over 80 KB (400, then the connection closes);
/// a target over `Route.maximumTargetBytes` is 414; a body (only `/mcp`'s POST takes one, up to
/// `MCPHTTPEndpoint.maximumBodyBytes`) is read and dropped up to 64 KB, then the connection
/// closes (413); a connection silent for
/// `idle` is closed; past `maximumConnections` a new one is closed on arrival.
public final class HTTPServer: Sendable {
    let app: ServeApp
    let settings: ServeSettings
    /// Where the access log goes, one line per request.
    let log: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        var listener: (any Channel)?
        var draining = false
        var nextConnection = 0
        /// Open connections, whether each is answering a request now, and its client's key.
        var connections: [Int: (channel: any Channel, busy: Bool, key: String?, answered: Double?)] =
            [:]
    }

    public init(app: ServeApp, settings: ServeSettings, log: @escaping @Sendable (String) -> Void) {
        self.app = app
        self.settings = settings
        self.log = log
    }

    typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    /// A connection as it arrives: admitted (wrapped for the async world, with its number), or
    /// refused and closed before anything is wrapped, so that nothing is left to finish.
    enum Arrival: Sendable {
        case admitted(Connection, number: Int)
        case refused
    }

    /// Binds and serves until `stop()`; `ready` is told the bound port (for `--listen …:0`).
    public func run(ready: @Sendable (Int) -> Void = { _ in }) async throws {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // A client that shuts its side after the request (`nc -N`) still gets the answer.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .bind(host: settings.host, port: settings.port) { channel in
                channel.eventLoop.makeCompletedFuture { try self.arrive(channel) }
            }
        let stopped = state.withLock { state in
            state.listener = listener.channel
            return state.draining
        }
        if stopped { try? await listener.channel.close() }
        ready(listener.channel.localAddress?.port ?? settings.port)
        try await listener.executeThenClose { inbound in
            try await withThrowingDiscardingTaskGroup { group in
                for try await arrival in inbound {
                    guard case .admitted(let connection, let number) = arrival else { continue }
                    group.addTask {
                        await self.serve(connection, number: number)
                        self.state.withLock { _ = $0.connections.removeValue(forKey: number) }
                    }
                }
            }
        }
    }

    /// On the connection's event loop, as it arrives: past `maximumConnections` (or while
    /// draining) it is closed at once and counted; else its pipeline is set up and it is wrapped.
    private func arrive(_ channel: any Channel) throws -> Arrival {
        guard let number = admit(channel) else {
            app.counters.add(\.connectionsRefused)
            channel.close(promise: nil)
            return .refused
        }
        do {
            try ConnectionBounds.configure(
                channel.pipeline.syncOperations, idle: settings.idle, requestDeadline: settings.requestDeadline
            ) { [weak self] in self?.isAnswering(number) ?? false }
            return .admitted(try Connection(wrappingChannelSynchronously: channel), number: number)
        } catch {
            state.withLock { _ = $0.connections.removeValue(forKey: number) }
            throw error
        }
    }

    /// Stops taking connections; open ones finish the request they answer and close. Idle
    /// ones close now.
    public func stop() {
        let (listener, idle) = state.withLock { state in
            state.draining = true
            return (state.listener, state.connections.values.filter { !$0.busy }.map(\.channel))
        }
        listener?.close(promise: nil)
        for channel in idle { channel.close(promise: nil) }
    }

    /// Closes every connection, busy or not (the drain's time is up), and ends the MCP sessions,
    /// whose answers in flight would otherwise wait for their next piece.
    public func closeAll() {
        let all = state.withLock { $0.connections.values.map(\.channel) }
        for channel in all { channel.close(promise: nil) }
        Task { await app.closeSessions() }
    }

    private func admit(_ channel: any Channel) -> Int? {
        // Per address (a trusted proxy's aside: its connections are many clients').
        let peer = channel.remoteAddress?.ipAddress.flatMap { ClientAddress($0) }
        let key = peer.flatMap { peer in
            settings.trustedProxies.contains { $0.contains(peer.address) } ? nil : peer.limitKey
        }
        return state.withLock { state in
            guard !state.draining, state.connections.count < settings.maximumConnections else { return nil }
            if let key,
                state.connections.values.lazy.filter({ $0.key == key }).count >= settings.maximumConnectionsPerAddress
            {
                return nil
            }
            state.nextConnection += 1
            state.connections[state.nextConnection] = (channel, false, key, nil)
            return state.nextConnection
        }
    }

    /// Whether the connection is answering a request now (its idle timer does not count then).
    private func isAnswering(_ number: Int) -> Bool {
        let idle = settings.idle.seconds
        let now = settings.seconds()
        return state.withLock { state in
            guard let connection = state.connections[number] else { return false }
            return connection.busy || connection.answered.map { now - $0 < idle } == true
        }
    }

    /// A connection answering a request, or done answering one within the idle time, is not
    /// idle: between two pipelined requests it is only waiting for the next to be handed over.
    private func setBusy(_ number: Int, _ busy: Bool) {
        let now = settings.seconds()
        state.withLock { state in
            state.connections[number]?.busy = busy
            if !busy { state.connections[number]?.answered = now }
        }
    }

    private var isDraining: Bool { state.withLock { $0.draining } }

    private func serve(_ connection: Connection, number: Int) async {
        let peer = connection.channel.remoteAddress?.ipAddress.flatMap { ClientAddress($0) }
        do {
            try await answer(connection, number: number, peer: peer)
        } catch let error as HTTPParserError {
            // NIO answered 400 and closed the connection: the log still gets its line.
            app.counters.answered(400)
            log(AccessLog.unparsed(client: peer?.description ?? "-", error: error))
        } catch {
            // The client went away, or the drain's time was up.
        }
    }

    private func answer(_ connection: Connection, number: Int, peer: ClientAddress?) async throws {
        try await connection.executeThenClose { inbound, _ in
            var head: HTTPRequestHead?
            var bodyBytes = 0
            var body: [UInt8] = []
            for try await part in inbound {
                switch part {
                case .head(let received):
                    head = received
                    bodyBytes = 0
                    body = []
                    setBusy(number, true)
                case .body(let buffer):
                    bodyBytes += buffer.readableBytes
                    let kept = head.map(Self.takesBody) == true
                    guard bodyBytes <= (kept ? MCPHTTPEndpoint.maximumBodyBytes : 64 << 10), head != nil else {
                        let refusal =
                            kept
                            ? HTTPError(413, "A message to /mcp is at most \(MCPHTTPEndpoint.maximumBodyBytes) bytes.")
                            : HTTPError(413, "Requests here have no body.")
                        try await write(
                            refusal.response, head: head, to: connection.channel, keepAlive: false,
                            client: peer?.description ?? "-", started: .now)
                        return
                    }
                    if kept { body += buffer.readableBytesView }
                case .end:
                    guard let request = head else { continue }
                    head = nil
                    let started = ContinuousClock.now
                    let client = ClientAddress.of(
                        peer: peer, forwardedFor: request.headers["x-forwarded-for"], trusting: settings.trustedProxies)
                    let kept = ServeRequest.keptHeaders.compactMap { name in
                        request.headers.first(name: name).map { (name, $0) }
                    }
                    let response = await app.respond(
                        ServeRequest(
                            method: request.method.rawValue, target: request.uri, client: client?.limitKey ?? "-",
                            authorization: request.headers.first(name: "authorization"),
                            host: request.headers.first(name: "host"),
                            headers: Dictionary(kept, uniquingKeysWith: { first, _ in first }), body: body))
                    body = []
                    let keepAlive = request.isKeepAlive && !isDraining
                    // Busy until its answer is written: a client reading a long run of pipelined
                    // answers slowly is not idle (its idle timer counts no reads meanwhile).
                    try await write(
                        response, head: request, to: connection.channel, keepAlive: keepAlive,
                        client: client?.description ?? "-", started: started)
                    setBusy(number, false)
                    if !keepAlive { return }
                }
            }
        }
    }

    /// Whether a request's body is kept for its handler: `/mcp`'s POST.
    static func takesBody(_ head: HTTPRequestHead) -> Bool {
        head.method == .POST && head.uri.split(separator: "?", maxSplits: 1).first == Substring(Route.mcp.path)
    }

    private func write(
        _ response: ServeResponse, head request: HTTPRequestHead?,
        to channel: any Channel, keepAlive: Bool, client: String, started: ContinuousClock.Instant
    ) async throws {
        var headers = HTTPHeaders(response.headers + SecurityHeaders.all)
        headers.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let sendsBody = request?.method != .HEAD
        let status = response.status
        var length =
            switch response.body {
            case .bytes(let bytes): bytes.count
            case .file(let file, let insert): file.size + (insert?.bytes.count ?? 0)
            case .stream: 0
            }
        // A stream's length is not known: it goes chunked (NIO frames it so without a length).
        if case .stream = response.body {
            headers.remove(name: "Content-Length")
        } else {
            headers.replaceOrAdd(name: "Content-Length", value: String(length))
        }
        // Straight to the channel, each piece awaited until it is written: the async writer
        // takes pieces faster than the socket drains them, and held whole files per connection.
        channel.write(
            HTTPServerResponsePart.head(
                HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)),
            promise: nil)
        if sendsBody {
            switch response.body {
            case .bytes(let bytes):
                if !bytes.isEmpty {
                    channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: bytes))), promise: nil)
                }
            case .file(let file, let insert):
                try await stream(file, insert: insert, to: channel)
            case .stream(let pieces):
                for await piece in pieces {
                    try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: piece))))
                    length += piece.count
                }
            }
        }
        try await channel.writeAndFlush(HTTPServerResponsePart.end(nil))
        app.counters.answered(status)
        log(
            AccessLog.line(
                client: client, method: request?.method.rawValue ?? "-", target: request?.uri ?? "-", status: status,
                length: length, elapsed: started.duration(to: .now)))
    }

    /// A file in pieces of 64 KB (as read, not as it was when opened: a file of `--out` is
    /// replaced by rename, never rewritten in place), so that a report of any size costs a piece of memory per
    /// connection (the channel's write buffer holds at most another: the writer waits for it).
    private func stream(
        _ file: OutputFolder.OpenFile, insert: ServeResponse.Insert?, to channel: any Channel
    ) async throws {
        var offset = 0
        var pending = insert
        while offset < file.size {
            let end = pending.map { min($0.at, file.size) } ?? file.size
            if offset == end, let inserted = pending {
                channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: inserted.bytes))), promise: nil)
                pending = nil
                continue
            }
            let count = min(64 << 10, end - offset)
            var piece = channel.allocator.buffer(capacity: count)
            let read = piece.writeWithUnsafeMutableBytes(minimumWritableBytes: count) {
                max(0, pread(file.descriptor, $0.baseAddress, count, off_t(offset)))
            }
            // A file cut short while it is sent: the connection closes (its length was promised).
            guard read > 0 else { throw CancellationError() }
            try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(piece)))
            offset += read
        }
        if let pending {
            channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: pending.bytes))), promise: nil)
        }
    }
}
