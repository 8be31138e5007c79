import AASAAudit
import AASAModel
import AASAReport
import MCP

/// `acknowledge`: the one tool that writes (`ack DOMAIN --until --reason`), offered only when the
/// server is started with `--allow-acknowledge`.
struct AcknowledgeTool: MCPTool {
    var definition: Tool {
        Tool(
            name: "acknowledge",
            title: "Acknowledge a domain's known failure",
            description:
                "Records in the team's \(OptionName.out) folder that a domain's failure is known, until a date at most \(Acknowledgements.maximumDays) days ahead, with a reason: the nightly audit then neither fails for it nor alerts, while still showing it. Replaces the domain's earlier acknowledgement.",
            inputSchema: ToolResults.schemaValue([
                "type": "object", "additionalProperties": false, "required": ["domain", "until", "reason"],
                "properties": [
                    "domain": ["type": "string", "maxLength": 2048],
                    "until": [
                        "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                        "description": "The last day (UTC).",
                    ],
                    "reason": ["type": "string", "maxLength": Acknowledgements.maximumReasonLength],
                    "codes": [
                        "type": "array", "maxItems": 100, "items": ["type": "string", "maxLength": 100],
                        "description": "Only these finding codes (and what follows from them); all without.",
                    ],
                ],
            ]),
            annotations: .init(readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false),
            outputSchema: ToolResults.schemaValue([
                "type": "object", "required": ["domain", "until", "reason", "by", "at"],
                "properties": [
                    "domain": ["type": "string"], "codes": ["type": "array", "items": ["type": "string"]],
                    "until": ["type": "string", "format": "date-time"], "reason": ["type": "string"],
                    "by": ["type": "string"], "at": ["type": "string", "format": "date-time"],
                ],
            ]))
    }

    func call(_ arguments: ToolArguments, context: ToolContext) async -> CallTool.Result {
        guard let output = context.settings.output else {
            return ToolResults.failure(
                "This server was started without \(OptionName.out): there is nowhere to write it.")
        }
        do {
            let acknowledgement = try AcknowledgementCommands.acknowledge(
                domain: try arguments.string("domain") ?? "", codes: try arguments.strings("codes"),
                until: try arguments.string("until") ?? "", reason: try arguments.string("reason") ?? "",
                output: output)
            return ToolResults.success(acknowledgement)
        } catch {
            return ToolResults.failure(error)
        }
    }
}
