import AASAAudit
import AASAModel
import AASAReport
import Foundation

extension CheckQuery {
    /// The check's parameters read, as every front end reads them (`DomainCheck.read`); a 400
    /// names the first that does not read. `CheckLimits` reads them before it counts the check
    /// against its client, the handler to run it.
    func checked() throws(HTTPError) -> DomainCheck.Parameters {
        do {
            return try DomainCheck.read(
                DomainCheck.Request(domain: domain, appIDs: appIDs, ios: ios, kinds: more), naming: .query)
        } catch {
            throw HTTPError(400, error.message)
        }
    }
}

/// `/api/v1/check` and `/check?domain=`: the domain audited as `check` audits it, once the chain
/// has let the check through (`CheckLimits`: its parameters, the client's rate, the checks in
/// flight). A refusal of the page is the page with its reason (`CheckPageRefusals`).
extension ServeApp {
    /// Runs a check: the record, or the refusal.
    func check(_ query: CheckQuery) async throws(HTTPError) -> CheckedDomain {
        let checked = await DomainCheck.run(try query.checked(), auditor: auditor, output: settings.output)
        // The address policy refused every address of the host: no connection was made.
        let origin = checked.report.fetches.filter { $0.location != .cdn && $0.error?.kind != .skipped }
        if !origin.isEmpty, origin.allSatisfy({ $0.error?.kind == .blockedAddress }) {
            counters.add(\.checksRefused)
            throw HTTPError(403, origin[0].error?.message ?? "The host's addresses are not public.")
        }
        return checked
    }

    func apiCheck(_ query: CheckQuery) async throws(HTTPError) -> ServeResponse {
        let checked = try await check(query)
        let bytes = (try? JSONReport.makeEncoder(pretty: true).encode(checked.report)) ?? Data()
        return ServeResponse(
            status: 200, type: "application/json", bytes: Array(bytes) + [0x0A],
            headers: [("Cache-Control", "no-store")])
    }

    /// The form, and with a domain the check's row under it.
    func checkPage(_ query: CheckQuery?) async throws(HTTPError) -> ServeResponse {
        guard let query else { return html(page.render(CheckPage.Content(), tool: settings.tool)) }
        let checked = try await check(query)
        var content = CheckPage.Content(query)
        content.row = rows.detailedRow(report: checked.report, files: checked.files)
        content.jsonLink = Route.apiCheck(query).path
        return html(page.render(content, tool: settings.tool), headers: [("Cache-Control", "no-store")])
    }
}

extension CheckPage.Content {
    /// The form as the query filled it.
    init(_ query: CheckQuery) {
        self.init()
        domain = query.domain
        appID = query.appIDs.first ?? ""
        iosNone = query.ios != nil
        more = query.more.compactMapValues(\.first)
    }
}
