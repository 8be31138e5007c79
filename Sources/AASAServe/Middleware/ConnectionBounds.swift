import AASAModel
import NIOCore
import NIOHTTP1

/// A request's deadline, against slowloris: from the first byte of a request to its end (head
/// and body) at most `seconds`, however slowly the bytes come (the idle timer alone is reset by
/// each one). Two handlers share it on one event loop: `RequestStart` before the HTTP decoder
/// arms it on a request's first byte, `RequestEnd` after the decoder disarms it at the request's
/// end; the connection is closed when it fires.
final class RequestDeadline {
    let limit: TimeAmount
    private var scheduled: Scheduled<Void>?

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

    /// After the decoder: a request read to its end.
    final class RequestEnd: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        let deadline: RequestDeadline
        init(_ deadline: RequestDeadline) { self.deadline = deadline }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .end = unwrapInboundIn(data) { deadline.disarm() }
            context.fireChannelRead(data)
        }

        func handlerRemoved(context: ChannelHandlerContext) { deadline.disarm() }
    }
}

/// Closes a connection that sent nothing for the idle time, unless it is answering a request
/// then (a check may take longer than the idle time; a large file may be read slowly).
final class IdleCloser: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny
    let isAnswering: @Sendable () -> Bool

    init(isAnswering: @escaping @Sendable () -> Bool) { self.isAnswering = isAnswering }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            if !isAnswering() { context.close(promise: nil) }
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}

extension TimeAmount {
    /// NIO's amount of a settings' `Duration` (serve's timers are durations, so that tests may
    /// set them below a second).
    init(_ duration: Duration) { self = .nanoseconds(duration.nanoseconds) }
}
