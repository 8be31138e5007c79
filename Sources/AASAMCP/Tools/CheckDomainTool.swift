import AASAAudit
import AASAModel
import AASAReport
import DomainList
import MCP

/// `check_domain`: one domain audited as `check --json` audits it (every kind it declares or
/// the caller names), the record the reports hold.
struct CheckDomainTool: MCPTool {
    var definition: Tool {
        Tool(
            name: "check_domain",
            title: "Check a domain's app–site association files",
            description:
                "Audits one domain now, from this machine, as Apple's bot and CDN and each platform's client read it: its apple-app-site-association at both locations (redirects, status, content type, size, JSON, app IDs), and the other association files the arguments name (\(AssociationKinds.all.map(\.fileName).joined(separator: ", "))). Returns the domain's record as the audit report holds it: verdict, every fetch and every finding with why and how to fix it.",
            inputSchema: Self.inputSchema,
            annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true),
            outputSchema: ToolResults.reportSchema(root: ["type": "object", "$ref": "#/$defs/domain"]))
    }

    /// `domain`, `app_ids`, `ios_none`, and each kind's word (`AssociationKind.word`): a flag for a
    /// kind whose word takes no value (`passkeys`), else the values its domains.txt token takes.
    static var inputSchema: Value {
        var properties: [String: Any] = [
            "domain": [
                "type": "string", "maxLength": 2048,
                "description": "The host to audit: example.com, a URL or an entitlement entry (applinks:example.com).",
            ],
            "app_ids": [
                "type": "array", "maxItems": 100, "items": ["type": "string", "maxLength": 256],
                "description": "App IDs (TEAMID.bundle.id) the AASA must name.",
            ],
            "ios_none": [
                "type": "boolean",
                "description": "The domain serves no AASA, only its other files (ios:none in domains.txt).",
            ],
        ]
        for kind in AssociationKinds.all {
            properties[kind.word] =
                kind.formPlaceholder == AssociationKind.flagPlaceholder
                ? ["type": "boolean", "description": "\(kind.formLabel): as \(kind.word) in domains.txt."]
                : [
                    "type": "array", "maxItems": 100, "items": ["type": "string", "maxLength": 512],
                    "description": "\(kind.formLabel) (e.g. \(kind.formPlaceholder)): as \(kind.word): in domains.txt.",
                ]
        }
        return ToolResults.schemaValue([
            "type": "object", "properties": properties, "required": ["domain"], "additionalProperties": false,
        ])
    }

    func call(_ arguments: ToolArguments, context: ToolContext) async -> CallTool.Result {
        do {
            let parameters = try DomainCheck.read(try Self.request(arguments), naming: .arguments)
            let checked = await DomainCheck.run(parameters, auditor: context.auditor, output: context.settings.output)
            return ToolResults.success(checked.report)
        } catch let problem as ToolArguments.Problem {
            return ToolResults.failure(problem.message)
        } catch let refusal as DomainCheck.Refusal {
            return ToolResults.failure(refusal.message)
        } catch {
            return ToolResults.failure(ToolResults.message(of: error))
        }
    }

    /// The arguments as a check's request (read as every front end's is: `DomainCheck.read`).
    static func request(_ arguments: ToolArguments) throws(ToolArguments.Problem) -> DomainCheck.Request {
        var kinds: [String: [String]] = [:]
        for kind in AssociationKinds.all where arguments.values[kind.word] != nil {
            kinds[kind.word] =
                kind.formPlaceholder == AssociationKind.flagPlaceholder
                ? (try arguments.bool(kind.word) == true ? [AssociationKind.flagPlaceholder] : [])
                : try arguments.strings(kind.word)
        }
        return DomainCheck.Request(
            domain: try arguments.string("domain") ?? "", appIDs: try arguments.strings("app_ids"),
            ios: try arguments.bool("ios_none") == true ? AASAWant.iosNone : nil, kinds: kinds)
    }
}

extension DomainCheck.Naming {
    /// How the tool's arguments name what a check takes.
    static let arguments = DomainCheck.Naming(
        appIDs: "app_ids", ios: "ios_none", iosNone: "ios_none", value: { "\($0): \($1)" })
}
