import AASAAudit
import AASAModel
import AASAReport
import Foundation
import MCP

/// `what_changed`: what changed in the team's nightly audits (`--out`) since a run or a day:
/// the newest sound run against the last sound run before it (a night this machine could not
/// check properly says nothing of the sites, so it is never compared), each domain whose
/// verdict or causes changed, and the domains added and removed.
struct WhatChangedTool: MCPTool {
    /// Changed domains listed at most; `more` says how many were left out.
    static let listLimit = 500

    var definition: Tool {
        Tool(
            name: "what_changed",
            title: "What changed in the nightly audits",
            description:
                "What changed in the team's nightly audits (the \(OptionName.out) folder the server was started with): the newest run this machine checked properly against the one before it, or against the state on a day or at a run (since). Each domain whose verdict or cause codes changed, and the domains added and removed. Nights this machine could not check properly are skipped, never compared.",
            inputSchema: ToolResults.schemaValue([
                "type": "object", "additionalProperties": false,
                "properties": [
                    "since": [
                        "type": "string", "maxLength": 64,
                        "description":
                            "A day (YYYY-MM-DD, UTC: the state at its start) or a run's folder name; without it, the run before the newest.",
                    ]
                ],
            ]),
            annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false),
            outputSchema: ToolResults.reportSchema(
                root: [
                    "type": "object", "additionalProperties": false,
                    "required": ["from", "to", "changed", "added", "removed", "more"],
                    "properties": [
                        "from": ["$ref": "#/$defs/runPoint"], "to": ["$ref": "#/$defs/runPoint"],
                        "changed": [
                            "type": "array",
                            "items": [
                                "type": "object", "additionalProperties": false,
                                "required": ["domain", "from", "to", "codes", "newCodes"],
                                "properties": [
                                    "domain": ["type": "string"], "from": ["$ref": "#/$defs/verdict"],
                                    "to": ["$ref": "#/$defs/verdict"],
                                    "codes": ["type": "array", "items": ["type": "string"]],
                                    "newCodes": ["type": "array", "items": ["type": "string"]],
                                ],
                            ],
                        ],
                        "added": ["type": "array", "items": ["type": "string"]],
                        "removed": ["type": "array", "items": ["type": "string"]],
                        "more": ["type": "integer", "description": "Changed domains left out of the list."],
                    ],
                ],
                definitions: [
                    "runPoint": [
                        "type": "object", "additionalProperties": false, "required": ["run", "startedAt"],
                        "properties": [
                            "run": ["type": "string"], "startedAt": ["type": "string", "format": "date-time"],
                        ],
                    ]
                ]))
    }

    struct RunPoint: Encodable {
        var run: String
        var startedAt: Date
    }

    struct Changed: Encodable {
        var domain: String
        var from: Verdict
        var to: Verdict
        /// Its causes now, worst first.
        var codes: [String]
        /// Those it did not have then.
        var newCodes: [String]
    }

    struct Changes: Encodable {
        var from: RunPoint
        var to: RunPoint
        var changed: [Changed] = []
        var added: [String] = []
        var removed: [String] = []
        var more = 0
    }

    func call(_ arguments: ToolArguments, context: ToolContext) async -> CallTool.Result {
        guard let output = context.settings.output else {
            return ToolResults.failure(
                "This server was started without \(OptionName.out): it knows no history. Start it with the \(OptionName.out) of the team's audits."
            )
        }
        do {
            let since = try arguments.string("since")
            let baseline: HistoryQuery.Baseline =
                since.map { text in Self.day(text).map { .before($0) } ?? .run(text) } ?? .previous
            guard let (from, to) = try HistoryQuery.comparedRuns(output: output, baseline: baseline) else {
                if case .run(let name) = baseline {
                    return ToolResults.failure(
                        "since '\(name.prefix(64))' is neither a day (YYYY-MM-DD) nor a kept run that checked properly."
                    )
                }
                return ToolResults.failure(
                    "\(output) holds no two runs that checked properly: there is nothing to compare yet.")
            }
            return ToolResults.success(Self.changes(from: from, to: to))
        } catch {
            return ToolResults.failure(error)
        }
    }

    /// The start of a day written YYYY-MM-DD (UTC), when it is one.
    static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, text.count == 10, let year = parts[0], let month = parts[1], let day = parts[2],
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let days = UTCCalendar.days(year, month, day)
        guard UTCCalendar.civil(days * 86_400) == (year, month, day) else { return nil }
        return Date(timeIntervalSince1970: Double(days * 86_400))
    }

    static func changes(from old: HistoryRun, to new: HistoryRun) -> Changes {
        var changes = Changes(
            from: RunPoint(run: old.run, startedAt: old.startedAt), to: RunPoint(run: new.run, startedAt: new.startedAt)
        )
        let before = Dictionary(old.domains.map { ($0.domain, $0) }, uniquingKeysWith: { first, _ in first })
        let now = Set(new.domains.map(\.domain))
        for domain in new.domains {
            guard let then = before[domain.domain] else {
                changes.added.append(domain.domain)
                continue
            }
            // A domain this machine could not check on either night has no news.
            guard !domain.notChecked, !then.notChecked, domain.verdict != then.verdict || domain.codes != then.codes
            else { continue }
            guard changes.changed.count < listLimit else {
                changes.more += 1
                continue
            }
            changes.changed.append(
                Changed(
                    domain: domain.domain, from: then.verdict, to: domain.verdict, codes: domain.codes,
                    newCodes: domain.codes.filter { !then.codes.contains($0) }))
        }
        changes.removed = old.domains.map(\.domain).filter { !now.contains($0) }
        return changes
    }
}
