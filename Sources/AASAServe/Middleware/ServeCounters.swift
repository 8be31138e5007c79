import AASAReport
import Synchronization

/// The server's own counters, for `/metrics`.
final class ServeCounters: Sendable {
    struct Values {
        var requests: [String: Int] = [:]
        var checks = 0
        var checksLimited = 0
        var checksBusy = 0
        var checksRefused = 0
        var connectionsRefused = 0
    }

    private let values = Mutex(Values())

    func add(_ counter: WritableKeyPath<Values, Int>) {
        values.withLock { $0[keyPath: counter] += 1 }
    }

    /// A request answered with `status`.
    func answered(_ status: Int) {
        values.withLock { $0.requests["\(status / 100)xx", default: 0] += 1 }
    }

    static let requests = MetricsReport.Family(
        name: "aasa_audit_serve_requests_total", help: "Requests answered, by status class.", type: "counter")
    static let checks = MetricsReport.Family(
        name: "aasa_audit_serve_checks_total",
        help:
            "Checks asked for, by outcome: run, limited (429: the client's rate), busy (503: too many in flight), refused (403: the host's addresses are not public).",
        type: "counter")
    static let checksInFlight = MetricsReport.Family(
        name: "aasa_audit_serve_checks_in_flight", help: "Checks running now.")
    static let connectionsRefused = MetricsReport.Family(
        name: "aasa_audit_serve_connections_refused_total",
        help: "Connections closed on arrival because the server had its maximum open.", type: "counter")

    func prometheus(activeChecks: Int) -> String {
        let now = values.withLock { $0 }
        var text = Self.requests.header
        for status in ["2xx", "3xx", "4xx", "5xx"] {
            text += Self.requests.sample(Double(now.requests[status, default: 0]), labels: ["status": status])
        }
        text += Self.checks.header
        for (outcome, count) in [
            ("run", now.checks), ("limited", now.checksLimited), ("busy", now.checksBusy),
            ("refused", now.checksRefused),
        ] {
            text += Self.checks.sample(Double(count), labels: ["outcome": outcome])
        }
        text += Self.checksInFlight.header + Self.checksInFlight.sample(Double(activeChecks))
        text += Self.connectionsRefused.header + Self.connectionsRefused.sample(Double(now.connectionsRefused))
        return text
    }
}
