import AASAAudit
import AASAModel
import AASAReport
import MCP

/// `explain_url`: which app opens each URL and which rule decided (`match DOMAIN URL...`), as
/// iOS decides it with the domain's AASA, or for one app of another kind by its file.
struct ExplainURLTool: MCPTool {
    static let maximumURLs = 50

    var definition: Tool {
        var properties: [String: Any] = [
            "domain": [
                "type": "string", "maxLength": 2048,
                "description": "The domain whose files decide (fetched now); without it, the URLs' host.",
            ],
            "urls": [
                "type": "array", "minItems": 1, "maxItems": Self.maximumURLs,
                "items": ["type": "string", "maxLength": 4096], "description": "The URLs to decide.",
            ],
        ]
        for matcher in KindURLMatchers.all {
            properties[matcher.kind.word] = [
                "type": "string", "maxLength": 512, "description": matcher.valueDescription,
            ]
        }
        let rule: [String: Any] = [
            "type": "object",
            "properties": [
                "path": ["type": "string"], "entry": ["type": "integer"], "index": ["type": "integer"],
                "kind": ["type": "string"], "exclude": ["type": "boolean"], "source": [:],
            ],
        ]
        return Tool(
            name: "explain_url",
            title: "Which app opens a URL",
            description:
                "Says which app opens each URL and which rule of the domain's file decided, as iOS decides it with the apple-app-site-association the domain serves now (or, given an app of another kind, by that kind's file), with the rule that came closest when none matched and what it failed on. For \"why doesn't this link open the app?\".",
            inputSchema: ToolResults.schemaValue([
                "type": "object", "additionalProperties": false, "required": ["urls"], "properties": properties,
            ]),
            annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true),
            outputSchema: ToolResults.schemaValue([
                "type": "object", "additionalProperties": false, "required": ["matches"],
                "properties": [
                    "matches": [
                        "type": "array",
                        "items": [
                            "type": "object", "required": ["url", "result", "appIDs", "reason"],
                            "properties": [
                                "url": ["type": "string"],
                                "result": ["enum": ["app", "excluded", "none", "undecided"]],
                                "appIDs": ["type": "array", "items": ["type": "string"]],
                                "rule": rule, "reason": ["type": "string"],
                                "nearest": [
                                    "type": "object",
                                    "properties": [
                                        "rule": rule,
                                        "failed": ["type": "array", "items": ["enum": ["path", "query", "fragment"]]],
                                        "explanation": ["type": "string"],
                                    ],
                                ],
                            ],
                        ],
                    ]
                ],
            ]))
    }

    struct Matches: Encodable {
        var matches: [MatchRecord]
    }

    func call(_ arguments: ToolArguments, context: ToolContext) async -> CallTool.Result {
        do {
            let urls = try arguments.strings("urls")
            guard (1...Self.maximumURLs).contains(urls.count) else {
                return ToolResults.failure("Give 1 to \(Self.maximumURLs) URLs (\(urls.count) given).")
            }
            try URLMatching.validate(urls)
            let domain = try arguments.string("domain") ?? urls[0]
            let host = try AuditInput.pastedHost(domain).host
            let apps = try KindURLMatchers.all.compactMap { matcher in
                try arguments.string(matcher.kind.word).map { (matcher, $0) }
            }
            guard apps.count <= 1 else {
                return ToolResults.failure("explain_url decides for one app: give one of \(apps.map(\.0.kind.word)).")
            }
            let source = URLMatching.Source.domain(host, context.settings.fetcher)
            let records =
                if let (matcher, app) = apps.first {
                    try await matcher.match(urls, app: app, against: source)
                } else {
                    try await URLMatching.run(urls, against: source)
                }
            return ToolResults.success(Matches(matches: records))
        } catch {
            return ToolResults.failure(error)
        }
    }
}
