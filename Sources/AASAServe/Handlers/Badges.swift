import AASAAudit
import AASAModel
import AASAReport

/// `/badge/DOMAIN.svg` and `/badge/DOMAIN.json`: the newest sound verdict from the history, for
/// a status page or a README, cached by clients for five minutes (the history changes nightly).
extension ServeApp {
    static let badgeCacheControl = "public, max-age=300"

    func badge(_ domain: String, format: Route.BadgeFormat) async throws(HTTPError) -> ServeResponse {
        let verdict: Verdict?
        switch await historyCache.newestSoundVerdict(domain) {
        case .success(let found): verdict = found
        case .failure(let error): throw HTTPError(404, error.message)
        }
        // A domain never audited soundly has a grey badge, answered 404 so a typo is seen.
        let status = verdict == nil ? 404 : 200
        let headers = [("Cache-Control", Self.badgeCacheControl)]
        switch format {
        case .svg:
            return ServeResponse(
                status: status, type: "image/svg+xml; charset=utf-8", Badge.svg(verdict), headers: headers)
        case .json:
            return ServeResponse(
                status: status, type: "application/json", bytes: Badge.shields(verdict), headers: headers)
        }
    }
}
