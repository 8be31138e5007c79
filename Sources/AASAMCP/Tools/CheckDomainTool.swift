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
            let parameters = try Self.parameters(arguments)
            var auditor = context.auditor
            if let output = context.settings.output {
                auditor.acknowledgements = (try? AcknowledgementStore.read(output: output)) ?? Acknowledgements()
            }
            let checked = await DomainCheck.run(
                host: parameters.host, appIDs: parameters.appIDs, wants: parameters.wants,
                expectsAASA: parameters.expectsAASA, auditor: auditor)
            return ToolResults.success(checked.report)
        } catch {
            return ToolResults.failure(error.message)
        }
    }

    struct Parameters {
        var host: String
        var appIDs: [String]
        var wants: AssociationWants
        var expectsAASA: Bool
    }

    /// The arguments read as `check` reads its options; the first that does not read says why.
    static func parameters(_ arguments: ToolArguments) throws(ToolArguments.Problem) -> Parameters {
        let expectsAASA = try arguments.bool("ios_none") != true
        let appIDs = try arguments.strings("app_ids")
        if !expectsAASA, !appIDs.isEmpty {
            throw .init(message: "app_ids name apps the AASA must list; with ios_none no AASA is asked for.")
        }
        let domain = try arguments.string("domain") ?? ""
        let host: String
        let expected: [String]
        do {
            let pasted = try AuditInput.pastedHost(domain)
            host = pasted.host
            try AuditInput.validateAppIDs(appIDs)
            expected = pasted.expectedApps(appIDs)
        } catch {
            throw .init(message: error.message)
        }
        var wants = AssociationWants()
        for kind in AssociationKinds.all where arguments.values[kind.word] != nil {
            let values =
                kind.formPlaceholder == AssociationKind.flagPlaceholder
                ? (try arguments.bool(kind.word) == true ? [AssociationKind.flagPlaceholder] : [])
                : try arguments.strings(kind.word)
            guard !values.isEmpty else { continue }
            do {
                wants.insert(try kind.wantType.parsing(values))
            } catch {
                throw .init(message: "\(kind.word): \(error.value): \(error.reason).")
            }
        }
        return Parameters(host: host, appIDs: expected, wants: wants, expectsAASA: expectsAASA)
    }
}
