import AASAAudit
import AASAModel
import AASAReport
import DomainList
import Foundation
import MCP

/// `audit_domains`: a batch of domains, each a domains.txt line, audited as a night audits them
/// (at most `MCPSettings.maximumBatch`, `batchConcurrency` at once, each within the fetcher's
/// deadline), with a progress notification per domain: a summary and each domain's verdict and
/// causes, the report's shape compacted. No report is written.
struct AuditDomainsTool: MCPTool {
    /// The most domains a call takes (`--max-batch`): its input schema says it, its call holds it.
    let maximumBatch: Int

    var definition: Tool {
        Tool(
            name: "audit_domains",
            title: "Audit a list of domains",
            description:
                "Audits many domains, each given as a line of domains.txt (\"example.com TEAMID.bundle.id\", then the other files' tokens), as the nightly audit does, and reports progress per domain. Returns the counts and, for each domain, its verdict and the codes of its causes (explain_finding explains a code; check_domain gives one domain's whole record). Lines that cannot be read are listed as problems; the rest is audited.",
            inputSchema: ToolResults.schemaValue([
                "type": "object", "additionalProperties": false, "required": ["domains"],
                "properties": [
                    "domains": [
                        "type": "array", "minItems": 1, "maxItems": maximumBatch,
                        "items": ["type": "string", "maxLength": DomainListParser.maximumLineBytes],
                        "description": "domains.txt lines: a host, then its app IDs and other files' tokens.",
                    ]
                ],
            ]),
            annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true),
            outputSchema: ToolResults.reportSchema(root: [
                "type": "object", "additionalProperties": false, "required": ["summary", "domains", "problems"],
                "properties": [
                    "summary": [
                        "type": "object", "additionalProperties": false,
                        "required": ["domains", "pass", "warn", "fail", "notChecked"],
                        "properties": [
                            "domains": ["type": "integer"], "pass": ["type": "integer"], "warn": ["type": "integer"],
                            "fail": ["type": "integer"],
                            "notChecked": [
                                "type": "integer",
                                "description":
                                    "Domains this machine could not check (its DNS, its limits): not the sites' verdicts.",
                            ],
                        ],
                    ],
                    "domains": [
                        "type": "array",
                        "items": [
                            "type": "object", "additionalProperties": false,
                            "required": ["domain", "verdict", "codes", "notChecked"],
                            "properties": [
                                "domain": ["type": "string"], "verdict": ["$ref": "#/$defs/verdict"],
                                "codes": ["type": "array", "items": ["$ref": "#/$defs/findingCode"]],
                                "notChecked": ["type": "boolean"],
                            ],
                        ],
                    ],
                    "problems": ["type": "array", "items": ["$ref": "#/$defs/inputProblem"]],
                ],
            ]))
    }

    struct Batch: Encodable {
        struct Summary: Encodable {
            var domains = 0
            var pass = 0
            var warn = 0
            var fail = 0
            var notChecked = 0
        }

        struct Domain: Encodable {
            var domain: String
            var verdict: Verdict
            var codes: [String]
            var notChecked: Bool
        }

        var summary = Summary()
        var domains: [Domain] = []
        var problems: [InputProblem] = []
    }

    func call(_ arguments: ToolArguments, context: ToolContext) async -> CallTool.Result {
        let lines: [String]
        do { lines = try arguments.strings("domains") } catch { return ToolResults.failure(error.message) }
        let limit = maximumBatch
        guard !lines.isEmpty, lines.count <= limit else {
            return ToolResults.failure("Give 1 to \(limit) domains (\(lines.count) given).")
        }
        let parsed = DomainListParser.parse(Array(lines.joined(separator: "\n").utf8), fileName: "domains")
        let targets = parsed.targets
        var reports = [DomainReport?](repeating: nil, count: targets.count)
        var done = 0
        await withTaskGroup(of: (Int, DomainReport).self) { group in
            var next = 0
            func start() {
                guard next < targets.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await context.auditor.audit(targets[index]).report) }
            }
            for _ in 0..<min(context.settings.batchConcurrency, targets.count) { start() }
            for await (index, report) in group {
                reports[index] = report
                done += 1
                await context.progress(Double(done), Double(targets.count), "\(report.domain): \(report.verdict)")
                if !Task.isCancelled { start() }
            }
        }
        var batch = Batch(problems: parsed.problems)
        for report in reports.compactMap({ $0 }) {
            let notChecked = DomainSnapshot(report).notChecked
            batch.domains.append(
                Batch.Domain(
                    domain: report.domain, verdict: report.verdict, codes: Self.causes(report),
                    notChecked: notChecked))
            batch.summary.domains += 1
            if notChecked {
                batch.summary.notChecked += 1
            } else {
                switch report.verdict {
                case .pass: batch.summary.pass += 1
                case .warn: batch.summary.warn += 1
                case .fail: batch.summary.fail += 1
                }
            }
        }
        if Task.isCancelled { return ToolResults.failure("Cancelled after \(done) of \(targets.count) domains.") }
        return ToolResults.success(batch)
    }

    /// Its causes' codes (findings that follow from no other), worst first, each once.
    static func causes(_ report: DomainReport) -> [String] {
        let causes = report.findings.filter { $0.causedBy == nil && $0.severity != .info }
        var seen = Set<String>()
        return causes.sorted { $0.severity > $1.severity }.map(\.code.rawValue).filter { seen.insert($0).inserted }
    }
}
