import Foundation

/// A run folder's name: the run's UTC start time to the second, `2026-11-22T031500Z`, and for
/// a second run started in the same second `…Z-2` (up to six digits). The one reading of the
/// name: the audit makes, lists, sorts and prunes run folders by it, and `serve` serves
/// `/RUN/report.json` only for a name it reads.
public struct RunFolderName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// `2026-11-22T031500Z`.
    public let stamp: String
    /// 1 for the first folder of its second, 2 for `…Z-2`, …
    public let attempt: Int

    /// The longest attempt suffix read, in digits.
    public static let maximumAttemptDigits = 6

    /// The name of the first folder of a run started at `date`, or of a later attempt.
    public init(startedAt date: Date, attempt: Int = 1) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let inDay = ((seconds % 86_400) + 86_400) % 86_400
        let clock = [inDay / 3600, inDay % 3600 / 60, inDay % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }
        stamp = UTCCalendar.date(seconds) + "T" + clock.joined() + "Z"
        self.attempt = attempt
    }

    /// Nil for any name this tool does not make (`…Z-1` and `…Z-02` included): read byte by byte in ASCII digits only (an
    /// output folder may hold 100,000 entries; a request may name anything).
    public init?(_ name: some StringProtocol) {
        let bytes = name.utf8
        let shape = "0000-00-00T000000Z".utf8
        guard bytes.count >= shape.count, bytes.count != shape.count + 1,
            bytes.count <= shape.count + 1 + Self.maximumAttemptDigits
        else { return nil }
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        for (byte, expected) in zip(bytes, shape)
        where expected == UInt8(ascii: "0") ? !isDigit(byte) : byte != expected {
            return nil
        }
        stamp = String(decoding: bytes.prefix(shape.count), as: UTF8.self)
        let rest = bytes.dropFirst(shape.count)
        guard let dash = rest.first else {
            attempt = 1
            return
        }
        let digits = rest.dropFirst()
        // Only the names the audit makes: `-2` and up, no leading zero, so that a name reads
        // back as itself (`description`) and names one folder.
        guard dash == UInt8(ascii: "-"), digits.allSatisfy(isDigit), digits.first != UInt8(ascii: "0") else {
            return nil
        }
        attempt = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard attempt >= 2 else { return nil }
    }

    public var description: String { attempt == 1 ? stamp : "\(stamp)-\(attempt)" }

    /// By start time, then `…Z` before `…Z-2`.
    public static func < (a: Self, b: Self) -> Bool { (a.stamp, a.attempt) < (b.stamp, b.attempt) }
}
