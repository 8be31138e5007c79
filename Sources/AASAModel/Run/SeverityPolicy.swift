import Foundation

/// `--severity CODE=LEVEL`: a team's own severity for chosen finding codes, for one run. A stale
/// CDN copy can warn without failing a deploy job (`cdn.stale=warning`), or a warning can be
/// made to fail one (`content-type.wrong=error`). Applied to a domain's findings before its
/// verdict is taken, so verdicts, the exit status, JUnit and every report follow; each finding
/// it changed keeps the catalog's severity beside its own (`overriddenFrom`).
public struct SeverityPolicy: Sendable, Equatable {
    /// Code to the severity it is given.
    public private(set) var overrides: [FindingCode: Severity]

    public init(_ overrides: [FindingCode: Severity] = [:]) {
        self.overrides = overrides
    }

    public var isEmpty: Bool { overrides.isEmpty }

    /// Reads `CODE=LEVEL` entries. A prefix names every code it starts (`cdn=warning`), as
    /// `explain` reads names; a later entry wins over an earlier one for the same code.
    public init(entries: [String]) throws(SeverityPolicyError) {
        var overrides: [FindingCode: Severity] = [:]
        for entry in entries {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw .malformed(entry) }
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            guard let severity = Severity(rawValue: parts[1].trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw .unknownSeverity(entry, parts[1])
            }
            let codes = FindingCode.matching(name)
            guard !codes.isEmpty else { throw .unknownCode(entry, name) }
            for code in codes { overrides[code] = severity }
        }
        self.overrides = overrides
    }

    /// The findings with the policy's severities; a changed finding records what it was.
    public func apply(_ findings: [Finding]) -> [Finding] {
        guard !overrides.isEmpty else { return findings }
        return findings.map { finding in
            guard let severity = overrides[finding.code], severity != finding.severity else { return finding }
            var changed = finding
            changed.overriddenFrom = finding.overriddenFrom ?? finding.severity
            changed.severity = severity
            return changed
        }
    }

    /// `code=severity` entries in code order, as the reports record them.
    public var entries: [String: String] {
        Dictionary(uniqueKeysWithValues: overrides.map { ($0.key.rawValue, $0.value.rawValue) })
    }
}

/// Why a `--severity` entry could not be read.
public enum SeverityPolicyError: Error, Equatable, CustomStringConvertible {
    case malformed(String)
    case unknownSeverity(String, String)
    case unknownCode(String, String)

    public var description: String {
        switch self {
        case .malformed(let entry):
            "\(OptionName.severity) '\(entry)' is not CODE=LEVEL, e.g. cdn.stale=warning."
        case .unknownSeverity(let entry, let level):
            "\(OptionName.severity) '\(entry)': '\(level)' is not a severity: use error, warning or info."
        case .unknownCode(let entry, let name):
            "\(OptionName.severity) '\(entry)': no finding code is or starts with '\(name)' (aasa-audit explain lists them)."
        }
    }
}
