import Synchronization

/// The progress line an audit shows on standard error while it runs on a terminal: redrawn in
/// place, at most ten times a second.
final class ProgressLine: Sendable {
    private let console: any Console
    private let lastDrawn = Mutex(ContinuousClock.now - .seconds(1))

    init(console: any Console) {
        self.console = console
    }

    func update(_ progress: AuditProgress) {
        let now = ContinuousClock.now
        let due = lastDrawn.withLock { lastDrawn in
            guard progress.done == progress.total || now - lastDrawn >= .milliseconds(100) else { return false }
            lastDrawn = now
            return true
        }
        guard due else { return }
        let rate = progress.elapsedSeconds > 0 ? Double(progress.done) / progress.elapsedSeconds : 0
        console.printError("\r\u{1B}[2K\(progress.done)/\(progress.total) domains · \(Self.oneDecimal(rate))/s · \(progress.failing) failing")
    }

    func clear() {
        console.printError("\r\u{1B}[2K")
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
