import NIOCore
import NIOEmbedded
import NIOHTTP1
import Synchronization
import Testing

@testable import AASAServe

/// serve's connection time bounds, on the handlers a live connection gets, driven by an
/// `EmbeddedEventLoop`'s clock moved by hand: a loaded machine moves no bound (issue 54, item 5).
/// `ServeLiveTests` holds the same on a real socket, with the bounds in seconds.
struct ConnectionBoundsTests {
    /// A connection with serve's bounds: a 1 s request deadline, a 3 s idle time.
    func connection(answering: Bool = false) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try ConnectionBounds.configure(
            channel.pipeline.syncOperations, idle: .seconds(3), requestDeadline: .seconds(1)
        ) { answering }
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40_000)).wait()
        return channel
    }

    func send(_ text: String, to channel: EmbeddedChannel) throws {
        try channel.writeInbound(channel.allocator.buffer(string: text))
    }

    /// A byte every 300 ms keeps the idle timer from firing; the request's deadline does, 1 s
    /// after its first byte, not a moment before.
    @Test func aTrickledRequestIsCutAtItsDeadline() throws {
        let channel = try connection()
        for (step, byte) in "GET /healthz HTTP/1.1\r\nX-Slow: aaaa".enumerated() {
            try send(String(byte), to: channel)
            if step < 3 { #expect(channel.isActive, "cut after \(step * 300) ms") }
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(300))
            if !channel.isActive {
                #expect(step == 3, "cut after \((step + 1) * 300) ms, the deadline is 1 s")
                return
            }
        }
        Issue.record("the trickled request was never cut")
    }

    /// A request read whole disarms the deadline: once answered, the connection waits for the
    /// next one until the idle time, and is then closed.
    @Test func aWholeRequestEndsTheDeadlineAndIdleEndsTheConnection() throws {
        let channel = try connection()
        try send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", to: channel)
        guard case .head(let head)? = try channel.readInbound(as: HTTPServerRequestPart.self) else {
            Issue.record("no request head")
            return
        }
        #expect(head.uri == "/healthz")
        try channel.writeOutbound(
            HTTPServerResponsePart.head(
                HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "0"])))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(2_900))
        #expect(channel.isActive, "the deadline was disarmed; 2.9 s is under the idle time")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(200))
        #expect(!channel.isActive, "idle for 3 s")
    }

    /// A request read whole but not yet started on (a starved server's pool) is the server's to
    /// answer: the connection is not idle until its response has ended (the one-core pass
    /// showed serve closing such connections unanswered).
    @Test func aRequestWaitingForItsAnswerIsNotIdle() throws {
        let channel = try connection()
        try send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", to: channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        #expect(channel.isActive, "closed while its answer was awaited")
        let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "0"])
        try channel.writeOutbound(HTTPServerResponsePart.head(head))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(3))
        #expect(!channel.isActive, "idle for 3 s after its answer")
    }

    /// A connection answering a request (a check longer than the idle time) is not closed for
    /// being idle.
    @Test func aConnectionAnsweringIsNotIdle() throws {
        let channel = try connection(answering: true)
        try send("GET /api/v1/check?domain=hang.aasa.test HTTP/1.1\r\nHost: x\r\n\r\n", to: channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        #expect(channel.isActive)
        _ = try channel.finish(acceptAlreadyClosed: true)
    }

    /// A connection that never sends a byte has no deadline, only the idle time.
    @Test func aSilentConnectionIsClosedAtTheIdleTime() throws {
        let channel = try connection()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(2_999))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive)
    }
}
