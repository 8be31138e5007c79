import Foundation

/// A team's word that a domain's failure is known, until a date (`aasa-audit ack`): as a
/// silence in Alertmanager or a maintenance window in Gatus. An acknowledged finding is still
/// shown everywhere, with the reason and the date, but fails neither the exit status nor
/// `--quiet` and sends no alert; a new code on the same domain is heard, and so is the failure
/// again once the acknowledgement ends, by its date or removed (`AcknowledgementChange.ended`).
public struct Acknowledgement: Codable, Sendable, Equatable {
    /// Normalised, as the reports name it.
    public var domain: String
    /// The codes acknowledged (and what follows from them); nil: every finding of the domain.
    public var codes: [String]?
    /// When it ends: the start of the day after the one given (UTC).
    public var until: Date
    public var reason: String
    /// Who acknowledged it, and when.
    public var by: String
    public var at: Date

    public init(domain: String, codes: [String]?, until: Date, reason: String, by: String, at: Date) {
        self.domain = domain
        self.codes = codes
        self.until = until
        self.reason = reason
        self.by = by
        self.at = at
    }

    public func isActive(at date: Date) -> Bool { date < until }

    /// Whether it covers the finding: its code, or the code of the finding it follows from.
    public func covers(_ finding: Finding) -> Bool {
        guard let codes else { return true }
        return codes.contains(finding.code.rawValue)
            || finding.causedBy.map { codes.contains($0.code.rawValue) } == true
    }

    /// The last day it covers, `2026-12-31`.
    public var lastDay: String { Acknowledgements.lastDay(before: until) }
}

/// What a finding carries when an acknowledgement covers it.
public struct AcknowledgementMark: Codable, Sendable, Hashable {
    /// When it ends.
    public var until: Date
    public var reason: String
    public var by: String

    public init(_ acknowledgement: Acknowledgement) {
        until = acknowledgement.until
        reason = acknowledgement.reason
        by = acknowledgement.by
    }

    /// "until 2026-12-31 by ana: waiting on the CDN vendor", as every output shows it.
    public var summary: String {
        "until \(Acknowledgements.lastDay(before: until)) by \(by): \(reason)"
    }
}

/// The acknowledgements of an output folder (`acknowledgements.json` in `--out`). Pure: read,
/// changed and applied here; the file is read and written by `AASAAudit`'s `AcknowledgementStore`.
public struct Acknowledgements: Codable, Sendable, Equatable {
    public static let schemaVersion = 1
    /// Nothing is silenced for longer: a known failure is looked at again at least this often.
    public static let maximumDays = 90
    /// Bounds on what a file may hold, so that a hostile or runaway file costs little.
    public static let maximumEntries = 10_000
    public static let maximumReasonLength = 500

    public var schemaVersion = Acknowledgements.schemaVersion
    /// One per domain (a later `ack` of a domain replaces its earlier one), in the order given.
    public private(set) var acknowledgements: [Acknowledgement]

    public init(_ acknowledgements: [Acknowledgement] = []) {
        self.acknowledgements = acknowledgements
    }

    public var isEmpty: Bool { acknowledgements.isEmpty }

    /// The file's acknowledgements as `ack` could have written them at `now`: none ends more
    /// than `maximumDays` after the day it was given, nor after today's bound (an `until` or an
    /// `at` edited into the file by hand is held to the rule `ack` enforces).
    public func bounded(now: Date) -> Acknowledgements {
        let days = Double(Self.maximumDays + 1) * 86_400
        return Acknowledgements(
            acknowledgements.map { entry in
                var entry = entry
                entry.until = min(entry.until, min(entry.at, now).addingTimeInterval(days))
                return entry
            })
    }

    /// How the acknowledgement that covered `domain`'s findings in an earlier run ended, seen
    /// from a run that started at `date`: its entry is still here and its date passed, it is
    /// gone (`ack --remove`), or it is in force but no longer covers them (replaced with other
    /// `--code`s).
    public func end(for domain: String, at date: Date) -> AcknowledgementEnd {
        guard let entry = acknowledgements.first(where: { $0.domain == domain }) else { return .removed }
        return entry.isActive(at: date) ? .changed : .expired
    }

    /// The acknowledgement of a domain in force at `date`.
    public func active(for domain: String, at date: Date) -> Acknowledgement? {
        acknowledgements.first { $0.domain == domain && $0.isActive(at: date) }
    }

    /// The domain's findings, those an acknowledgement in force at `date` covers marked.
    public func mark(_ findings: [Finding], domain: String, at date: Date) -> [Finding] {
        guard let acknowledgement = active(for: domain, at: date) else { return findings }
        return findings.map { finding in
            guard finding.severity != .info, acknowledgement.covers(finding) else { return finding }
            var marked = finding
            marked.acknowledged = AcknowledgementMark(acknowledgement)
            return marked
        }
    }

    /// The last day (UTC, `2026-12-31`) of an acknowledgement that ends at `end`, the start of
    /// the next day: the one reading of `until` for every output.
    static func lastDay(before end: Date) -> String { UTCCalendar.date(Int(end.timeIntervalSince1970) - 1) }

    /// Adds (or replaces) a domain's acknowledgement.
    public mutating func add(_ acknowledgement: Acknowledgement) throws(AcknowledgementError) {
        acknowledgements.removeAll { $0.domain == acknowledgement.domain }
        guard acknowledgements.count < Self.maximumEntries else { throw .tooMany }
        acknowledgements.append(acknowledgement)
    }

    /// Removes a domain's acknowledgement; false when it had none.
    public mutating func remove(domain: String) -> Bool {
        let before = acknowledgements.count
        acknowledgements.removeAll { $0.domain == domain }
        return acknowledgements.count < before
    }

    /// When an acknowledgement given at `now` until the day `date` (`YYYY-MM-DD`, UTC) ends: the
    /// start of the next day. Refused when the day is past, or more than `maximumDays` ahead.
    public static func end(ofDay date: String, now: Date) throws(AcknowledgementError) -> Date {
        let parts = date.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day),
            UTCCalendar.civil(UTCCalendar.days(year, month, day) * 86_400) == (year, month, day)
        else { throw .date(date) }
        let end = Date(timeIntervalSince1970: Double((UTCCalendar.days(year, month, day) + 1) * 86_400))
        guard end > now else { throw .past(date) }
        guard end.timeIntervalSince(now) <= Double(maximumDays + 1) * 86_400 else { throw .tooFar(date) }
        return end
    }

    private enum CodingKeys: String, CodingKey {
        case schemaVersion, acknowledgements
    }
}

/// Why an acknowledgement was refused.
public enum AcknowledgementError: Error, Equatable, CustomStringConvertible {
    case date(String)
    case past(String)
    case tooFar(String)
    case tooMany
    case reason

    public var description: String {
        switch self {
        case .date(let text): "\(OptionName.until) '\(text)' is not a date: use YYYY-MM-DD (UTC)."
        case .past(let text): "\(OptionName.until) \(text) is already over."
        case .tooFar(let text):
            "\(OptionName.until) \(text) is more than \(Acknowledgements.maximumDays) days ahead: nothing is silenced for longer (acknowledge it again when it ends)."
        case .tooMany: "There are \(Acknowledgements.maximumEntries) acknowledgements already: remove some first."
        case .reason:
            "\(OptionName.reason) must say why, in at most \(Acknowledgements.maximumReasonLength) characters (it is shown wherever the failure is)."
        }
    }
}

extension Finding {
    /// Whether it still counts: not acknowledged (`Acknowledgements`).
    public var isOpen: Bool { acknowledged == nil }
}

/// How an acknowledgement that covered a domain's findings ended (`Acknowledgements.end`); `ended`
/// when the acknowledgements were not at hand to tell.
public enum AcknowledgementEnd: String, Codable, Sendable {
    case expired, removed, changed, ended

    /// How the alert's text says it.
    public var phrase: String { "acknowledgement \(rawValue)" }
}
