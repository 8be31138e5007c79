import Foundation
import Logging
import MCP

/// One HTTP session's transport: each POSTed request opens an exchange, a stream on which its
/// progress notifications (matched by progress token) and then its response (matched by id)
/// arrive, after which it ends. What the server sends on no exchange (there is no GET stream)
/// is dropped. A client's `notifications/cancelled` ends its exchange at once: the server
/// answers a cancelled request with nothing.
actor ExchangeTransport: Transport {
    nonisolated let logger: Logger
    private let incoming: AsyncThrowingStream<Data, any Swift.Error>
    private let incomingContinuation: AsyncThrowingStream<Data, any Swift.Error>.Continuation
    /// Open exchanges by request id, and which exchange each progress token belongs to.
    private var open: [String: AsyncStream<Data>.Continuation] = [:]
    private var tokens: [String: String] = [:]
    private var closed = false

    init(logger: Logger) {
        self.logger = logger
        (incoming, incomingContinuation) = AsyncThrowingStream.makeStream()
    }

    func connect() async throws {}

    func disconnect() async { close() }

    func send(_ data: Data) async throws {
        guard let message = RPCMessage(data) else { return }
        switch message.kind {
        case .response(let id):
            guard let exchange = open.removeValue(forKey: id) else { return }
            exchange.yield(data)
            exchange.finish()
            tokens = tokens.filter { $0.value != id }
        case .notification:
            guard let token = message.progressToken, let id = tokens[token] else { return }
            open[id]?.yield(data)
        case .request:
            // The tools ask the client nothing (no sampling, no elicitation).
            return
        }
    }

    nonisolated func receive() -> AsyncThrowingStream<Data, any Swift.Error> { incoming }

    /// Hands a client's request to the server; nil when the session is closed or a request of
    /// that id is in flight already.
    func exchange(_ body: Data, id: String, progressToken: String?) -> AsyncStream<Data>? {
        guard !closed, open[id] == nil else { return nil }
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        open[id] = continuation
        if let progressToken { tokens[progressToken] = id }
        incomingContinuation.yield(body)
        return stream
    }

    /// Hands a client's notification (or response) to the server.
    func deliver(_ body: Data, cancels: String?) {
        if let cancels, let exchange = open.removeValue(forKey: cancels) {
            exchange.finish()
            tokens = tokens.filter { $0.value != cancels }
        }
        incomingContinuation.yield(body)
    }

    /// Requests answering now.
    var inFlight: Int { open.count }

    func close() {
        guard !closed else { return }
        closed = true
        for exchange in open.values { exchange.finish() }
        open = [:]
        tokens = [:]
        incomingContinuation.finish()
    }
}
