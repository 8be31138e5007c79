import AASAAudit
import AASAMCP
import AASAModel
import AASAReport
import ArgumentParser

/// `aasa-audit mcp`: a Model Context Protocol server on standard input and output, for
/// assistants (docs/mcp.md).
struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the auditor to an assistant: a Model Context Protocol server on standard input and output.",
        discussion:
            "Standard output carries protocol messages only; standard error the log. It ends when standard input closes. docs/mcp.md shows how to add it to an MCP client."
    )

    @Option(
        name: .customLong(OptionName.out.rawValue),
        help: ArgumentHelp(
            "The --out folder of the team's audits: domain_history reads its history, and check_domain shows its acknowledgements.",
            valueName: "dir"))
    var out: String?
    @Flag(
        help:
            "Offer the acknowledge tool, which writes an acknowledgement into --out (the only tool that writes; off unless given)."
    )
    var allowAcknowledge = false
    @Option(help: ArgumentHelp("The most domains one audit_domains call takes.", valueName: "n"))
    var maxBatch = MCPSettings.defaultMaximumBatch
    @OptionGroup var validation: ValidationOptionGroup
    @OptionGroup var deviceView: DeviceViewOptions
    @OptionGroup var fetch: FetchOptions

    func validate() throws {
        try OptionRange.check("--max-batch", maxBatch, in: 1...MCPSettings.defaultMaximumBatch, fromTo: true)
        if allowAcknowledge, out == nil {
            throw ValidationError("--allow-acknowledge writes into --out: give the --out of the team's audits.")
        }
    }

    func run() async throws {
        var settings = MCPSettings(
            fetcher: fetch.configuration(concurrency: 64), tool: AASAAuditVersion.tool)
        settings.validation = validation.options
        settings.deviceView = deviceView.settings
        settings.output = out
        settings.allowsAcknowledging = allowAcknowledge
        settings.maximumBatch = maxBatch
        try await MCPServer.run(settings: settings)
    }
}
