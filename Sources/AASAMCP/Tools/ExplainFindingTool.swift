import AASAModel
import AASAReport
import MCP

/// `explain_finding`: what a finding code means and how to fix it (`explain CODE`).
struct ExplainFindingTool: MCPTool {
    var definition: Tool {
        Tool(
            name: "explain_finding",
            title: "Explain a finding code",
            description:
                "What a finding code of aasa-audit (http.redirect, cdn.stale…) means, how severe it is and how to fix it.",
            inputSchema: ToolResults.schemaValue([
                "type": "object", "additionalProperties": false, "required": ["code"],
                "properties": ["code": ["type": "string", "maxLength": 100, "description": "A finding code."]],
            ]),
            annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false),
            outputSchema: ToolResults.reportSchema(root: [
                "type": "object", "additionalProperties": false,
                "required": ["code", "category", "severity", "severities", "meaning", "fix", "docs"],
                "properties": [
                    "code": ["$ref": "#/$defs/findingCode"], "category": ["type": "string"],
                    "severity": ["$ref": "#/$defs/severity"],
                    "severities": ["type": "string", "description": "Its severity and the cases at another."],
                    "meaning": ["type": "string"], "fix": ["type": "string"], "docs": ["type": "string"],
                ],
            ]))
    }

    struct Explanation: Encodable {
        var code: String
        var category: String
        var severity: Severity
        var severities: String
        var meaning: String
        var fix: String
        var docs: String
    }

    func call(_ arguments: ToolArguments, context: ToolContext) async -> CallTool.Result {
        do {
            let name = try arguments.string("code") ?? ""
            guard let code = FindingCode(rawValue: name) ?? FindingCode.matching(name).first else {
                let close = FindingCode.suggestions(for: name).map(\.rawValue)
                return ToolResults.failure(
                    "Unknown finding code '\(name.prefix(100))'."
                        + (close.isEmpty ? "" : " Did you mean \(close.joined(separator: ", "))?"))
            }
            let definition = code.definition
            return ToolResults.success(
                Explanation(
                    code: code.rawValue, category: definition.category.title, severity: definition.severity,
                    severities: definition.severityText, meaning: definition.meaning, fix: definition.fix,
                    docs: code.documentationAnchor))
        } catch {
            return ToolResults.failure(error.message)
        }
    }
}
