import AASAModel
import NIOCore
import NIOHTTP1

/// The time bounds of every connection `serve` admits, and its HTTP/1 handlers between them: the
/// idle timer, the request's deadline. Their timers are the event loop's: on a socket the real
/// clock, in a test an `EmbeddedEventLoop`'s, moved by hand (so a slow machine moves no bound).
enum ConnectionBounds {
    static func configure(
        _ handlers: ChannelPipeline.SynchronousOperations, idle: Duration, requestDeadline: Duration,
        isAnswering: @escaping @Sendable () -> Bool
    ) throws {
        let deadline = RequestDeadline(limit: TimeAmount(requestDeadline))
        // A request read whole and not yet answered is the server's to answer, however long a
        // busy machine takes to start on it: the connection is not idle meanwhile.
        try handlers.addHandler(IdleCloser(idle: TimeAmount(idle), requests: deadline, isAnswering: isAnswering))
        try handlers.addHandler(RequestDeadline.RequestStart(deadline))
        try handlers.configureHTTPServerPipeline(withErrorHandling: true)
        // The request's end watched right after the decoder, before pipelined requests wait.
        let decoder = try handlers.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
        try handlers.addHandler(RequestDeadline.RequestEnd(deadline), position: .after(decoder.handler))
    }
}

/// A request's deadline, against slowloris: from the first byte of a request to its end (head
/// and body) at most `seconds`, however slowly the bytes come (the idle timer alone is reset by
/// each one). Two handlers share it on one event loop: `RequestStart` before the HTTP decoder
/// arms it on a request's first byte, `RequestEnd` after the decoder disarms it at the request's
/// end; the connection is closed when it fires.
final class RequestDeadline {
    let limit: TimeAmount
    private var scheduled: Scheduled<Void>?
    /// Requests read whole whose response has not ended yet (`RequestEnd` counts both ways).
    var awaitingAnswers = 0

    init(limit: TimeAmount) { self.limit = limit }

    func arm(_ context: ChannelHandlerContext) {
        guard scheduled == nil else { return }
        let channel = context.channel
        scheduled = context.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
    }

    func disarm() {
        scheduled?.cancel()
        scheduled = nil
    }

    /// Before the decoder: the bytes of a request.
    final class RequestStart: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let deadline: RequestDeadline
        init(_ deadline: RequestDeadline) { self.deadline = deadline }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            deadline.arm(context)
            context.fireChannelRead(data)
        }
    }

    /// After the decoder: a request read to its end (the deadline disarmed, one more answer
    /// awaited), and, outbound before the encoder, a response's end (one fewer).
    final class RequestEnd: ChannelDuplexHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundIn = HTTPServerResponsePart
        let deadline: RequestDeadline
        init(_ deadline: RequestDeadline) { self.deadline = deadline }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .end = unwrapInboundIn(data) {
                deadline.disarm()
                deadline.awaitingAnswers += 1
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data) { deadline.awaitingAnswers = max(0, deadline.awaitingAnswers - 1) }
            context.write(data, promise: promise)
        }

        func handlerRemoved(context: ChannelHandlerContext) { deadline.disarm() }
    }
}

/// Closes a connection that sent nothing for the idle time, unless it is answering a request
/// then (a check may take longer than the idle time; a large file may be read slowly). The time
/// is the event loop's (`EventLoop.now`), as its timers': NIO's `IdleStateHandler` compares
/// with the real clock, which an `EmbeddedEventLoop` does not move.
final class IdleCloser: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let idle: TimeAmount
    /// The connection's requests read whole and not yet answered (the same loop's).
    let requests: RequestDeadline
    let isAnswering: @Sendable () -> Bool
    private var lastRead = NIODeadline.uptimeNanoseconds(0)
    private var check: Scheduled<Void>?

    init(idle: TimeAmount, requests: RequestDeadline, isAnswering: @escaping @Sendable () -> Bool) {
        self.idle = idle
        self.requests = requests
        self.isAnswering = isAnswering
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { stop() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastRead = context.eventLoop.now
        context.fireChannelRead(data)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard check == nil else { return }
        lastRead = context.eventLoop.now
        schedule(context, at: lastRead + idle)
    }

    private func stop() {
        check?.cancel()
        check = nil
    }

    /// On the connection's own loop only (`assumeIsolated`): the handler is that loop's.
    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        check = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            let quietUntil = lastRead + idle
            if context.eventLoop.now < quietUntil {
                schedule(context, at: quietUntil)
            } else if requests.awaitingAnswers > 0 || isAnswering() {
                schedule(context, at: context.eventLoop.now + idle)
            } else {
                context.close(promise: nil)
            }
        }
    }
}

extension TimeAmount {
    /// NIO's amount of a settings' `Duration` (serve's timers are durations, so that tests may
    /// set them below a second).
    init(_ duration: Duration) { self = .nanoseconds(duration.nanoseconds) }
}
