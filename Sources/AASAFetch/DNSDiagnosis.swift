import AASAModel
import CResolv
import Foundation
import Synchronization

/// Asks the resolver directly why a name did not resolve (libcurl's getaddrinfo says only that
/// it did not): NXDOMAIN, no address, SERVFAIL, REFUSED, or no answer (issue 46, item 8). One A
/// question per name, at most `concurrency` at once on threads of its own (the call blocks), each
/// waiting at most `timeoutSeconds` a server. Once `giveUpAfter` questions in a row got no answer
/// (this machine's resolver is down), no more are asked: a fleet of dead names costs no more
/// than that.
final class DNSDiagnosis: Sendable {
    /// `server`: an IPv4 `ADDRESS:PORT` to ask instead of /etc/resolv.conf's (tests).
    let server: (address: String, port: Int)?
    static let concurrency = 8
    static let timeoutSeconds: Int32 = 1
    static let giveUpAfter = 3

    private let queue: OperationQueue
    /// Questions in a row that got no answer.
    private let unanswered = Mutex(0)

    init(server: String?) {
        self.server = server.flatMap { text in
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]) else {
                return nil
            }
            return (String(text[..<colon]), port)
        }
        queue = OperationQueue()
        queue.maxConcurrentOperationCount = Self.concurrency
        queue.name = "aasa-audit DNS diagnosis"
    }

    /// The resolver's answer for `name`, or nil when it was not asked (given up).
    func ask(_ name: String) async -> DNSAnswer? {
        guard unanswered.withLock({ $0 < Self.giveUpAfter }) else { return nil }
        let answer = await withCheckedContinuation { continuation in
            queue.addOperation { [server] in
                continuation.resume(returning: Self.blockingAsk(name, server: server))
            }
        }
        unanswered.withLock { $0 = answer == .noAnswer ? $0 + 1 : 0 }
        return answer
    }

    static func blockingAsk(_ name: String, server: (address: String, port: Int)?) -> DNSAnswer {
        var rcode: Int32 = 0
        var answers: Int32 = 0
        let asked =
            if let server {
                cresolv_ask(name, server.address, Int32(server.port), timeoutSeconds, &rcode, &answers)
            } else {
                cresolv_ask(name, nil, 0, timeoutSeconds, &rcode, &answers)
            }
        guard asked == 0 else { return .noAnswer }
        switch rcode {
        case 0: return answers == 0 ? .noAddress : .resolvedAgain
        case 2: return .serverFailure
        case 3: return .noSuchName
        case 5: return .refused
        default: return .other
        }
    }
}
