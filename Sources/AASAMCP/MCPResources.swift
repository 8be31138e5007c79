import AASAAudit
import AASAModel
import AASAReport
import Foundation
import MCP

/// The server's resources, when it was started with the team's `--out`: the newest complete
/// run (its run and summary: small whatever the fleet's size) and each domain's record in it.
enum MCPResources {
    static let latestRun = "aasa-audit://runs/latest"
    static let domainPrefix = "aasa-audit://domains/"

    static func list() -> [Resource] {
        [
            Resource(
                name: "latest-run", uri: latestRun, title: "The newest nightly run",
                description:
                    "The newest complete run of the team's audits: when it ran, with which options, and its summary (counts, causes, whether this machine could check properly).",
                mimeType: "application/json")
        ]
    }

    static func templates() -> [Resource.Template] {
        [
            Resource.Template(
                uriTemplate: domainPrefix + "{domain}", name: "domain-record", title: "A domain's record",
                description:
                    "A domain's record in the newest complete run, as the report holds it (report.schema.json, $defs/domain).",
                mimeType: "application/json")
        ]
    }

    struct Latest: Encodable {
        var run: RunInfo
        var summary: ReportSummary
    }

    /// The resource at `uri`; an unknown one, or one the run does not have, is an error.
    static func read(_ uri: String, output: String) throws -> ReadResource.Result {
        if uri == latestRun {
            guard let (run, summary) = HistoryQuery.latestRun(output: output) else {
                throw MCPError.invalidParams("\(output) holds no complete run yet.")
            }
            let data = try JSONReport.makeEncoder().encode(Latest(run: run, summary: summary))
            return ReadResource.Result(
                contents: [.text(String(decoding: data, as: UTF8.self), uri: uri, mimeType: "application/json")])
        }
        if uri.hasPrefix(domainPrefix) {
            let domain = String(uri.dropFirst(domainPrefix.count)).removingPercentEncoding ?? ""
            guard let record = try HistoryQuery.latestRecord(of: domain, output: output) else {
                throw MCPError.invalidParams("The newest run in \(output) did not audit \(domain.prefix(200)).")
            }
            return ReadResource.Result(
                contents: [.text(String(decoding: record, as: UTF8.self), uri: uri, mimeType: "application/json")])
        }
        throw MCPError.invalidParams(
            "No resource \(uri.prefix(200)): resources/list and resources/templates/list name them.")
    }
}
