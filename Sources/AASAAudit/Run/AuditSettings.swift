import AASAChecks
import AASAFetch
import AASAModel
import AASAReport
import CBuildInfo
import Foundation

/// The version the reports name.
public enum AASAAuditVersion {
    public static let current = "0.2.0"
    /// The commit a release was built from (`Scripts/release.sh`); nil for other builds.
    public static let commit: String? = {
        let text = String(cString: aasa_build_commit())
        return text.isEmpty ? nil : text
    }()
    public static var tool: ToolInfo { ToolInfo(version: current, commit: commit) }
    /// The build, as a crash's culprits remember it (`CrashCarry`): the version and its commit.
    static var number: String { commit.map { "\(current)+\($0)" } ?? current }
    public static var defaultUserAgent: String { "aasa-audit/\(current)" }
}

/// Everything a run of `audit` needs besides its domains.
public struct AuditSettings: Sendable {
    public var inputFiles: [String]
    public var outputDirectory: URL
    /// Domains in flight at once.
    public var concurrency: Int
    /// `--concurrency` unless told otherwise, and what it may be.
    public static let defaultConcurrency = 64
    public static let concurrencyRange = 1...4096
    public var fetcher: FetcherConfiguration
    public var failOn: Severity
    public var validation: ValidationOptions
    public var deviceView: DeviceViewSettings
    /// Run folders to keep (`--keep`); nil keeps them all.
    public var keepRuns: Int?
    /// Where to write JUnit XML (`--junit`) and Prometheus metrics (`--metrics`).
    public var junitFile: URL?
    public var metricsFile: URL?
    /// Above this many domains, `report.html` lists only the domains worth a look and counts the
    /// passing ones without findings (`report.json` and `domains.jsonl` keep every domain).
    public var htmlListsEveryDomainUpTo = HTMLReport.fleetThreshold
    /// `--notify`: the alert sent after a complete run; nil sends none.
    public var notification: NotificationSettings?
    /// `--alertmanager`: where a sound run's alerts go; nil sends none.
    public var alertmanager: AlertmanagerSettings?
    /// `--canary`: names resolved when none of the run's did, to tell this machine's DNS down
    /// (exit 3) from names that do not exist (the sites' failures).
    public var canaries = [AuditorProblems.defaultCanary]
    /// The team's acknowledgements, read from `--out` when the run starts (`AcknowledgementStore`).
    public var acknowledgements = Acknowledgements()
    /// `--resume`: finish the newest run folder's interrupted run (its journal) instead of
    /// starting a new one.
    public var resume = false
    /// The run's clock: when it starts and ends, what certificates and acknowledgements are
    /// judged against, when alerts are sent. The system's; tests give their own and move it.
    public var now: @Sendable () -> Date = { Date() }

    public init(
        inputFiles: [String], outputDirectory: URL, concurrency: Int, fetcher: FetcherConfiguration, failOn: Severity,
        validation: ValidationOptions = ValidationOptions(), deviceView: DeviceViewSettings = .originOnly
    ) {
        self.deviceView = deviceView
        self.inputFiles = inputFiles
        self.outputDirectory = outputDirectory
        self.concurrency = concurrency
        self.fetcher = fetcher
        self.failOn = failOn
        self.validation = validation
    }

    var runOptions: RunOptions {
        var options = RunOptions(
            inputFiles: inputFiles, outputDirectory: outputDirectory.path, concurrency: concurrency,
            timeoutSeconds: fetcher.timeoutSeconds, userAgent: fetcher.userAgent, failOn: failOn,
            resolve: fetcher.resolve, connectTo: fetcher.connectTo, caCertFile: fetcher.caCertFile,
            minimumIOS: validation.minimumIOS?.description)
        options.connectTimeoutSeconds = fetcher.connectTimeoutSeconds
        options.connectionsPerAddress = fetcher.politeness.connectionsPerAddress
        options.newConnectionsPerSecond = fetcher.politeness.newConnectionsPerSecond
        options.lookupsPerSecond = fetcher.politeness.lookupsPerSecond
        options.cdnURL = deviceView.cdnBase
        options.botUserAgent = deviceView.botUserAgent
        options.browserUserAgent = deviceView.browserUserAgent
        options.certificateWarningDays = deviceView.certificateWarningDays
        options.severityOverrides = validation.severityPolicy.isEmpty ? nil : validation.severityPolicy.entries
        if let notification {
            options.notifyURL = notification.displayURL
            options.notifyOn = notification.trigger.rawValue
        }
        return options
    }
}

/// How far a run has got, for a progress line.
public struct AuditProgress: Sendable {
    public var done: Int
    public var total: Int
    public var failing: Int
    public var elapsedSeconds: Double
    /// The domain in flight the longest, and since when.
    public var oldestInFlight: (domain: String, since: ContinuousClock.Instant)?
}

/// What a finished run produced.
public struct AuditRunResult: Sendable {
    public var runDirectory: URL
    public var reportJSON: URL
    public var reportHTML: URL
    public var summary: ReportSummary
    /// Domains whose verdict is `fail` or `warn`, in input order, with their worst findings' codes.
    public var flaggedDomains: [FlaggedDomain]
    public var complete: Bool
    public var durationSeconds: Double
    /// The changes since the previous complete run in the same `--out`; nil for the first run.
    public var changes: RunChanges?
    /// What became of `--notify`; nil when not asked for or the run was interrupted.
    public var notification: NotificationResult?
    /// What became of the run's Alertmanager alerts, when `--alertmanager` was given.
    public var alertmanager: AlertmanagerResult?
    /// Why `history.json` or `index.html` could not be written, when they could not.
    public var historyProblem: String?
    /// Why the changes since the previous run could not be gathered, when they could not.
    public var comparisonProblem: String? = nil
    /// For the domains that did not pass, since when their verdict holds (from the history).
    public var notPassingSince: [String: RunHistory.Streak] = [:]
    /// What the summary says of `--resume`, or of an interrupted run left behind.
    public var note: String? = nil
}
