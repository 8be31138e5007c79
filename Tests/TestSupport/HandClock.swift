import Foundation
import Synchronization

/// A wall clock a test moves by hand (`AuditSettings.now`): it starts at the real time, each
/// reading is a millisecond after the one before (as time passes while a run runs), and
/// `advance` jumps it, so a test that needs a second to pass waits for none.
public final class HandClock: Sendable {
    private let date: Mutex<Date>

    public init(start: Date = Date()) { date = Mutex(start) }

    public func now() -> Date {
        date.withLock { date in
            date.addTimeInterval(0.001)
            return date
        }
    }

    public func advance(by seconds: Double) { date.withLock { $0.addTimeInterval(seconds) } }
}
