import AASAAudit
import AASAChecks
import AASAModel
import AASAReport
import MCP

/// `lint_file`: a file's text checked as `lint` checks it, offline: findings with their places.
struct LintFileTool: MCPTool {
    var definition: Tool {
        Tool(
            name: "lint_file",
            title: "Lint an association file's text",
            description:
                "Checks the text of an association file (\(AssociationKinds.servedFileNames.joined(separator: ", "))), as the audit checks a served one, without any network: its verdict and findings, each with its line and column when it is about a place in the file.",
            inputSchema: ToolResults.schemaValue([
                "type": "object", "additionalProperties": false, "required": ["text"],
                "properties": [
                    "text": [
                        "type": "string", "maxLength": LocalLint.readLimit,
                        "description": "The file's content.",
                    ],
                    "kind": [
                        "type": "string", "enum": LocalLint.kindNames,
                        "description": "Which file it is; without it, its name, then its content, says.",
                    ],
                    "name": [
                        "type": "string", "maxLength": 256,
                        "description":
                            "The name it is served under: a name with .json added is flagged, as devices never ask for it.",
                    ],
                    "app_ids": [
                        "type": "array", "maxItems": 100, "items": ["type": "string", "maxLength": 256],
                        "description": "App IDs the AASA must name.",
                    ],
                ],
            ]),
            annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false),
            outputSchema: ToolResults.reportSchema(root: [
                "type": "object", "required": ["verdict", "findings"],
                "properties": [
                    "file": ["type": "string"], "verdict": ["$ref": "#/$defs/verdict"],
                    "findings": ["type": "array", "items": ["$ref": "#/$defs/finding"]],
                ],
            ]))
    }

    func call(_ arguments: ToolArguments, context: ToolContext) async -> CallTool.Result {
        do {
            let text = try arguments.string("text") ?? ""
            let kind = try arguments.string("kind")
            if let kind, !LocalLint.kindNames.contains(kind) {
                return ToolResults.failure(
                    "kind '\(kind.prefix(80))' is none of \(LocalLint.kindNames.joined(separator: ", ")).")
            }
            let appIDs = try arguments.strings("app_ids")
            let record = LocalLint.lint(
                bytes: Array(text.utf8), name: try arguments.string("name") ?? "the text",
                options: context.settings.validation, caFile: context.settings.fetcher.caCertFile,
                expecting: DomainTarget(domain: "", expectedAppIDs: appIDs), kind: kind)
            return ToolResults.success(record)
        } catch {
            return ToolResults.failure(error.message)
        }
    }
}
