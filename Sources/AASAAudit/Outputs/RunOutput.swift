import AASAModel
import Foundation

/// One domain as a run's outputs see it: its place in the input, its report record, and the
/// files it served (for the HTML report's display).
public struct AuditedDomain: Sendable {
    /// The domain's position in the input (0-based).
    public var index: Int
    public var report: DomainReport
    public var served: [ServedBody]
}

/// What an output is told when the run starts, before any domain is audited.
public struct RunStart: Sendable {
    /// The folder of this run (`<out>/<UTC start time>/`).
    public var runDirectory: URL
    /// How many domains the run will audit.
    public var domainCount: Int
}

/// What an output is told when the run ends: everything a report holds besides the domains.
public struct FinishedRun: Sendable {
    public var tool: ToolInfo
    public var run: RunInfo
    public var summary: ReportSummary
    public var input: InputInfo
    /// Changes since the previous complete run in the same output folder.
    public var changes: RunChanges?
    /// What became of `--notify` (metrics are written after it, the other reports before).
    public var notification: NotificationResult?
    /// What became of `--alertmanager`'s alerts.
    public var alertmanager: AlertmanagerResult?
}

/// A report an audit run writes (JSON, HTML, JUnit, metrics), fed while the run goes on.
///
/// The run calls `start` before the first domain is audited, so that an output that cannot be
/// written fails the run before any fetch; `render` in the task that audited a domain,
/// concurrently with other domains, for the work that can be shared by every core; `add`
/// once per domain, serially, in completion order; then `finish` once. `discard` removes
/// whatever an output had begun when the run cannot finish it.
public protocol RunOutput: Sendable {
    /// What it writes, as an error names it: `report.json`, `--junit FILE`, `--metrics FILE`.
    var name: String { get }
    func start(_ run: RunStart) throws
    /// The bytes this output keeps of a domain, or nil when it keeps none. Must not touch the
    /// output's mutable state.
    func render(_ domain: AuditedDomain) -> Data?
    func add(_ domain: AuditedDomain, rendered: Data?) throws
    /// Writes the output; returns the file written.
    @discardableResult
    func finish(_ run: FinishedRun) throws -> URL
    func discard()
}
