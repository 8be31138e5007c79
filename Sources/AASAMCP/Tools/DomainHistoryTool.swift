import AASAAudit
import AASAModel
import AASAReport
import MCP

/// `domain_history`: a domain's nights in the kept runs of the server's `--out` (`history DOMAIN`).
struct DomainHistoryTool: MCPTool {
    var definition: Tool {
        Tool(
            name: "domain_history",
            title: "A domain's nights",
            description:
                "A domain's verdict and causes in each kept nightly run of the team's audits (the \(OptionName.out) folder the server was started with), oldest first: since when it fails, when it last passed, which nights this machine could not check properly.",
            inputSchema: ToolResults.schemaValue([
                "type": "object", "additionalProperties": false, "required": ["domain"],
                "properties": ["domain": ["type": "string", "maxLength": 2048, "description": "The domain."]],
            ]),
            annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false),
            outputSchema: ToolResults.reportSchema(root: [
                "type": "object", "required": ["schemaVersion", "domain", "runs"],
                "properties": [
                    "schemaVersion": ["type": "integer"], "domain": ["type": "string"],
                    "runs": [
                        "type": "array",
                        "items": [
                            "type": "object", "additionalProperties": false, "required": ["run", "startedAt"],
                            "properties": [
                                "run": ["type": "string"], "startedAt": ["type": "string", "format": "date-time"],
                                "verdict": ["$ref": "#/$defs/verdict"],
                                "codes": ["type": "array", "items": ["type": "string"]],
                                "certificateExpires": ["type": "string"],
                                "auditorProblems": ["type": "array", "items": ["type": "string"]],
                            ],
                        ],
                    ],
                ],
            ]))
    }

    func call(_ arguments: ToolArguments, context: ToolContext) async -> CallTool.Result {
        guard let output = context.settings.output else {
            return ToolResults.failure(
                "This server was started without \(OptionName.out): it knows no history. Start it with the \(OptionName.out) of the team's audits."
            )
        }
        do {
            let domain = try arguments.string("domain") ?? ""
            return ToolResults.success(try HistoryQuery.timeline(of: domain, output: output))
        } catch {
            return ToolResults.failure(error)
        }
    }
}
