import Synchronization

/// The progress line an audit shows on standard error while it runs on a terminal: redrawn in
/// place when domains complete (at most ten times a second) and every second in between, so
/// that a slow domain shows as what the run waits on instead of a frozen line.
final class ProgressLine: Sendable {
    private struct State {
        var lastDrawn = ContinuousClock.now - .seconds(1)
        var progress: AuditProgress?
        var finished = false
    }

    private let console: any Console
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    init(console: any Console) {
        self.console = console
    }

    func update(_ progress: AuditProgress) {
        let now = ContinuousClock.now
        let due = state.withLock { state in
            state.progress = progress
            guard progress.done == progress.total || now - state.lastDrawn >= .milliseconds(100) else { return false }
            state.lastDrawn = now
            return true
        }
        if due { draw(progress, at: now) }
    }

    /// Redraws every second until `clear()`; returns when cleared.
    func tick() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            let now = ContinuousClock.now
            let progress = state.withLock { state -> AuditProgress? in
                guard !state.finished, now - state.lastDrawn >= .milliseconds(900) else { return nil }
                state.lastDrawn = now
                return state.progress ?? AuditProgress(done: 0, total: 0, failing: 0, elapsedSeconds: 0)
            }
            if state.withLock({ $0.finished }) { return }
            if let progress { draw(progress, at: now) }
        }
    }

    func clear() {
        state.withLock { $0.finished = true }
        console.printError("\r\u{1B}[2K")
    }

    private func draw(_ progress: AuditProgress, at now: ContinuousClock.Instant) {
        let elapsed = (now - started).seconds
        let rate = elapsed > 0 ? Double(progress.done) / elapsed : 0
        var line =
            "\(progress.done)/\(progress.total) domains · \(Self.oneDecimal(rate))/s · \(progress.failing) failing · \(Self.duration(elapsed))"
        if let (domain, since) = progress.oldestInFlight, (now - since) >= .seconds(3) {
            line += " · waiting on \(TerminalSafe.text(domain)) (\(Self.duration((now - since).seconds)))"
        }
        console.printError("\r\u{1B}[2K" + line)
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds)
        return whole < 60 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s"
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// Domain names are host names (letters, digits, dots, hyphens) once parsed; this keeps the
/// line safe should anything else reach it.
enum TerminalSafe {
    static func text(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
    }
}
