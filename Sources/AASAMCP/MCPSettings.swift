import AASAAudit
import AASAChecks
import AASAFetch
import AASAModel
import AASAReport

/// What `aasa-audit mcp` was started with: how it fetches (the SSRF guard, deadlines and size
/// bounds of `check`), how it judges, where the team's reports are, and what it may write.
public struct MCPSettings: Sendable {
    public var fetcher: FetcherConfiguration
    public var validation = ValidationOptions()
    public var deviceView = DeviceViewSettings()
    /// The `--out` folder of the team's audits: the history tools and `acknowledge` read it.
    public var output: String?
    /// Whether `acknowledge`, the one tool that writes, is offered (`--allow-acknowledge`).
    public var allowsAcknowledging = false
    /// The most domains one `audit_domains` call takes.
    public var maximumBatch = MCPSettings.defaultMaximumBatch
    /// Domains of a batch audited at once.
    public var batchConcurrency = 16
    public var tool: ToolInfo

    public static let defaultMaximumBatch = 1000

    public init(fetcher: FetcherConfiguration, tool: ToolInfo) {
        self.fetcher = fetcher
        self.tool = tool
    }
}
