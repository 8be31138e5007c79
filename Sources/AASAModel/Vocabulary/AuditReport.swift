import Foundation

/// The version of the JSON report's schema (`docs/report.schema.json`).
public enum ReportSchema {
    /// Bumped only for a change that breaks readers; new fields may appear at any time.
    public static let version = 1
}

public struct ToolInfo: Codable, Sendable, Equatable {
    /// Where the project lives: its documentation, releases, schemas and Action. The one place
    /// the address is written in code (SARIF's links, the alert's footer read it).
    public static let homepage = "https://github.com/aasa-audit/aasa-audit"
    /// A repository file's page, e.g. `docs/findings.md#http.redirect`.
    public static func documentation(_ path: String) -> String { "\(homepage)/blob/main/\(path)" }

    public var name: String
    public var version: String
    /// The commit a release binary was built from; absent for other builds.
    public var commit: String?

    public init(name: String = "aasa-audit", version: String, commit: String? = nil) {
        self.name = name
        self.version = version
        self.commit = commit
    }

    /// `0.2.0`, or `0.2.0 (commit 1a2b3c4d5e6f)` for a release build.
    public var versionLine: String { version + (commit.map { " (commit \($0))" } ?? "") }
}

/// The options a run was made with, as the report records them.
public struct RunOptions: Codable, Sendable, Equatable {
    public var inputFiles: [String]
    public var outputDirectory: String?
    public var concurrency: Int
    public var timeoutSeconds: Double
    /// `--connect-timeout`: what a host that never completes a connection costs at most.
    public var connectTimeoutSeconds: Double?
    public var userAgent: String
    public var failOn: Severity
    public var resolve: [String]
    public var connectTo: [String]
    public var caCertFile: String?
    /// `--min-ios`, when given.
    public var minimumIOS: String?
    /// Apple's CDN base URL, when the CDN copy was checked.
    public var cdnURL: String?
    /// The user agents of the bot-blocking check, when it was made.
    public var botUserAgent: String?
    public var browserUserAgent: String?
    /// `--severity`: code to the severity this run gave it, when any was given.
    public var severityOverrides: [String: String]?
    /// `--notify`: where the run's alert was to be sent (the URL without its query, which may
    /// hold a token), and on what (`--notify-on`).
    public var notifyURL: String?
    public var notifyOn: String?
    /// `--cert-warn-days`: how many days ahead an expiring certificate was warned about.
    public var certificateWarningDays: Int?
    /// `--per-address`, `--per-address-rate` and `--dns-rate`: how hard the run pressed on one
    /// server and on the resolver (the rates absent when unlimited).
    public var connectionsPerAddress: Int?
    public var newConnectionsPerSecond: Double?
    public var lookupsPerSecond: Double?

    public init(
        inputFiles: [String], outputDirectory: String?, concurrency: Int, timeoutSeconds: Double, userAgent: String,
        failOn: Severity, resolve: [String], connectTo: [String], caCertFile: String?, minimumIOS: String? = nil
    ) {
        self.inputFiles = inputFiles
        self.outputDirectory = outputDirectory
        self.concurrency = concurrency
        self.timeoutSeconds = timeoutSeconds
        self.userAgent = userAgent
        self.failOn = failOn
        self.resolve = resolve
        self.connectTo = connectTo
        self.caCertFile = caCertFile
        self.minimumIOS = minimumIOS
    }
}

public struct RunInfo: Codable, Sendable, Equatable {
    public var startedAt: Date
    public var finishedAt: Date
    public var durationSeconds: Double
    /// False when the run was interrupted before every domain was audited.
    public var complete: Bool
    public var options: RunOptions

    public init(startedAt: Date, finishedAt: Date, complete: Bool, options: RunOptions) {
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.durationSeconds = (finishedAt.timeIntervalSince(startedAt) * 1000).rounded() / 1000
        self.complete = complete
        self.options = options
    }
}

public struct VerdictCounts: Codable, Sendable, Equatable {
    public var pass = 0
    public var warn = 0
    public var fail = 0

    public init() {}

    public subscript(verdict: Verdict) -> Int {
        get {
            switch verdict {
            case .pass: pass
            case .warn: warn
            case .fail: fail
            }
        }
        set {
            switch verdict {
            case .pass: pass = newValue
            case .warn: warn = newValue
            case .fail: fail = newValue
            }
        }
    }
}

public struct SeverityCounts: Codable, Sendable, Equatable {
    public var error = 0
    public var warning = 0
    public var info = 0

    public init() {}

    public subscript(severity: Severity) -> Int {
        get {
            switch severity {
            case .error: error
            case .warning: warning
            case .info: info
            }
        }
        set {
            switch severity {
            case .error: error = newValue
            case .warning: warning = newValue
            case .info: info = newValue
            }
        }
    }
}

/// Counts over the whole run.
public struct ReportSummary: Codable, Sendable, Equatable {
    public var domains = 0
    public var verdicts = VerdictCounts()
    public var findingsBySeverity = SeverityCounts()
    /// Finding code to the number of findings with it (every finding, notes and consequences
    /// included).
    public var findingsByCode: [String: Int] = [:]
    /// Finding code to severity (as this run gave it: the catalog's, a named case's, or
    /// `--severity`'s) to the number of findings: what both metric outputs count (`serve`'s
    /// `/metrics` reads it from `latest.json`). Absent in reports of releases up to 0.2.0.
    public var findingsByCodeAndSeverity: [String: [String: Int]]? = nil
    /// Finding code to the number of domains with a cause of it: an error or warning that follows
    /// from no other finding (`Finding.isHeadline`). What people read: counts by cause.
    public var causesByCode: [String: Int]? = nil
    public var inputProblems = 0
    /// Failures of the machine running the audit, not of the sites (`AuditorProblems`); absent
    /// when there were none.
    public var auditorProblems: [String]?
    /// Parts of the run this machine could not check, though its verdicts stand
    /// (`AuditorProblems`: Apple's CDN out of reach); absent when there were none.
    public var partlyChecked: [String]?

    public init() {}

    /// Counts one audited domain.
    public mutating func add(_ report: DomainReport) {
        domains += 1
        if causesByCode == nil { causesByCode = [:] }
        if findingsByCodeAndSeverity == nil { findingsByCodeAndSeverity = [:] }
        var causes = Set<FindingCode>()
        verdicts[report.verdict] += 1
        for finding in report.findings {
            findingsBySeverity[finding.severity] += 1
            findingsByCode[finding.code.rawValue, default: 0] += 1
            findingsByCodeAndSeverity?[finding.code.rawValue, default: [:]][finding.severity.rawValue, default: 0] += 1
            if finding.isHeadline, causes.insert(finding.code).inserted {
                causesByCode?[finding.code.rawValue, default: 0] += 1
            }
        }
    }
}

/// The whole JSON report (`report.json`). Writers stream `domains` rather than build this
/// value for a large run; readers decode it whole.
public struct AuditReport: Codable, Sendable, Equatable {
    public var schemaVersion: Int
    public var tool: ToolInfo
    public var run: RunInfo
    public var summary: ReportSummary
    public var input: InputInfo
    /// Against the previous complete run in the same output folder; absent for the first.
    public var changes: RunChanges?
    public var domains: [DomainReport]

    public init(
        tool: ToolInfo, run: RunInfo, summary: ReportSummary, input: InputInfo, changes: RunChanges? = nil,
        domains: [DomainReport]
    ) {
        schemaVersion = ReportSchema.version
        self.tool = tool
        self.run = run
        self.summary = summary
        self.input = input
        self.changes = changes
        self.domains = domains
    }
}

/// What the input held besides domains.
public struct InputInfo: Codable, Sendable, Equatable {
    /// Lines that could not be audited, or were merged, with why.
    public var problems: [InputProblem]

    public init(problems: [InputProblem]) {
        self.problems = problems
    }
}
