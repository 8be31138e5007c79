import AASAAudit
import AASAModel
import AASAReport
import Foundation

/// `/api/v1/check` and `/check?domain=`: a check's parameters read, the limits applied (per
/// client, in flight), the domain audited as `check` audits it.
extension ServeApp {
    /// Reads a check's parameters, applies the limits, runs it: the record, or the refusal.
    func check(_ query: CheckQuery, client: String) async throws(HTTPError) -> CheckedDomain {
        let host: String
        let appIDs: [String]
        do {
            let pasted = try AuditInput.pastedHost(query.domain)
            host = pasted.host
            try AuditInput.validateAppIDs(query.appIDs)
            appIDs = pasted.expectedApps(query.appIDs)
        } catch {
            throw HTTPError(400, error.message)
        }
        let wants = try query.wants()
        let expectsAASA = try query.expectsAASA()
        let now = started.duration(to: .now).seconds
        if let wait = checkLimiter.withLock({ $0.take(client, now: now) }) {
            counters.add(\.checksLimited)
            let seconds = Int(wait.rounded(.up))
            throw HTTPError(429, "Too many checks from this address: try again in \(seconds) s.", retryAfter: seconds)
        }
        let admitted = checksInFlight.withLock { count in
            guard count < settings.maximumChecks else { return false }
            count += 1
            return true
        }
        guard admitted else {
            counters.add(\.checksBusy)
            throw HTTPError(
                503, "\(settings.maximumChecks) checks are running: try again in a few seconds.", retryAfter: 5)
        }
        defer { checksInFlight.withLock { $0 -= 1 } }
        counters.add(\.checks)
        // The team's acknowledgements as they are now (a small file, read per check): a known
        // failure shows as acknowledged, with its reason and date.
        var auditor = auditor
        auditor.acknowledgements = (try? AcknowledgementStore.read(output: settings.output)) ?? Acknowledgements()
        let checked = await DomainCheck.run(
            host: host, appIDs: appIDs, wants: wants, expectsAASA: expectsAASA, auditor: auditor)
        // The address policy refused every address of the host: no connection was made.
        let origin = checked.report.fetches.filter { $0.location != .cdn && $0.error?.kind != .skipped }
        if !origin.isEmpty, origin.allSatisfy({ $0.error?.kind == .blockedAddress }) {
            counters.add(\.checksRefused)
            throw HTTPError(403, origin[0].error?.message ?? "The host's addresses are not public.")
        }
        return checked
    }

    func apiCheck(_ query: CheckQuery, client: String) async throws(HTTPError) -> ServeResponse {
        let checked = try await check(query, client: client)
        let bytes = (try? JSONReport.makeEncoder(pretty: true).encode(checked.report)) ?? Data()
        return ServeResponse(
            status: 200, type: "application/json", bytes: Array(bytes) + [0x0A],
            headers: [("Cache-Control", "no-store")])
    }

    /// The form, and with a domain the check's row under it; a refusal is the page with its
    /// reason, at its status.
    func checkPage(_ query: CheckQuery?, client: String) async -> ServeResponse {
        var content = CheckPage.Content()
        guard let query else { return html(page.render(content, tool: settings.tool)) }
        content.domain = query.domain
        content.appID = query.appIDs.first ?? ""
        content.iosNone = query.ios != nil
        content.more = query.more.compactMapValues(\.first)
        do {
            let checked = try await check(query, client: client)
            content.row = rows.detailedRow(report: checked.report, files: checked.files)
            content.jsonLink = Route.apiCheck(query).path
            return html(page.render(content, tool: settings.tool), headers: [("Cache-Control", "no-store")])
        } catch {
            content.problem = error.reason
            return html(page.render(content, tool: settings.tool), status: error.status, headers: error.headers)
        }
    }
}
