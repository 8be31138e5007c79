import AASAAudit
import AASAModel
import AASAReport
import Foundation

/// The files of `--out` and the history: the history page with the check form, the reports,
/// `/api/v1/runs` and `/api/v1/history`.
extension ServeApp {
    /// `index.html`, streamed as a file, with the check form after its `<body>`.
    func historyPage() -> ServeResponse {
        guard let file = folder.open(run: nil, file: OutputFolderLayout.index) else {
            var content = CheckPage.Content()
            content.problem =
                "No history yet in \(settings.output): the page of the nightly runs appears after the first complete audit there."
            return html(page.render(content, tool: settings.tool))
        }
        let start = file.read(at: 0, count: min(file.size, 64 << 10)) ?? []
        let insert = start.firstRange(of: Array("<body>".utf8)).map {
            ServeResponse.Insert(at: $0.upperBound, bytes: Array(("\n" + page.navigation).utf8))
        }
        return ServeResponse(
            status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")],
            body: .file(file, insert: insert))
    }

    func outputFile(run: RunFolderName?, file: String) throws(HTTPError) -> ServeResponse {
        guard let open = folder.open(run: run?.description, file: file) else {
            throw HTTPError(404, run == nil ? "\(file) is not in the output folder yet." : "No such report.")
        }
        let type =
            file.hasSuffix(".html")
            ? "text/html; charset=utf-8" : file.hasSuffix(".json") ? "application/json" : "text/plain; charset=utf-8"
        return ServeResponse(
            status: 200, headers: [("Content-Type", type), ("Cache-Control", "no-cache")], body: .file(open))
    }

    func runs() async throws(HTTPError) -> ServeResponse {
        switch await historyCache.fleetAnswers() {
        case .success(let answers): return ServeResponse(status: 200, type: "application/json", bytes: answers.runs)
        case .failure(let error): throw HTTPError(404, error.message)
        }
    }

    func history(_ domain: String?) async throws(HTTPError) -> ServeResponse {
        let answer: HistoryCache.Answer
        if let domain {
            answer = await historyCache.timeline(domain)
        } else {
            answer = await historyCache.fleetAnswers().map(\.record)
        }
        switch answer {
        case .success(let bytes): return ServeResponse(status: 200, type: "application/json", bytes: bytes)
        case .failure(let error): throw HTTPError(404, error.message)
        }
    }

    /// `/api/v1/runs`' list of a fleet's record.
    static func runsList(_ fleet: FleetHistoryRecord) -> any Encodable {
        ServeRunsRecord(
            runs: fleet.runs.map { run in
                ServeRunRecord(
                    run: run.run, startedAt: run.startedAt, verdicts: run.verdicts,
                    report: Route.runFile(run.run, OutputFolderLayout.runJSON),
                    page: Route.runFile(run.run, OutputFolderLayout.runHTML))
            })
    }
}

/// `/api/v1/runs`.
struct ServeRunsRecord: Encodable {
    var schemaVersion = HistorySchema.version
    var runs: [ServeRunRecord]
}

struct ServeRunRecord: Encodable {
    var run: String
    var startedAt: Date
    var verdicts: VerdictCounts
    /// The run's reports on this server.
    var report: String
    var page: String
}
