import AASAAudit
import AASAModel
import AASAReport

/// `/badge/DOMAIN.svg` and `/badge/DOMAIN.json`: the newest sound verdict from the history, for
/// a status page or a README, cached by clients for five minutes (the history changes nightly).
extension ServeApp {
    static let badgeCacheControl = "public, max-age=300"

    func badge(_ domain: String, format: Route.BadgeFormat) async throws(HTTPError) -> ServeResponse {
        let entry: HistoryQuery.SoundVerdicts.Entry?
        switch await historyCache.newestSoundVerdict(domain) {
        case .success(let found): entry = found
        case .failure(let error): throw HTTPError(404, error.message)
        }
        // A domain never audited soundly has a grey badge, answered 404 so a typo is seen.
        let status = entry == nil ? 404 : 200
        let headers = [("Cache-Control", Self.badgeCacheControl)]
        // The badge names the platforms its verdict speaks for (`LinkPlatform`): a domain that
        // serves no AASA is not called "universal links".
        let badge = Badge(verdict: entry?.verdict, platforms: entry?.platforms ?? [.ios])
        switch format {
        case .svg:
            return ServeResponse(status: status, type: "image/svg+xml; charset=utf-8", badge.svg, headers: headers)
        case .json:
            return ServeResponse(status: status, type: "application/json", bytes: badge.shields, headers: headers)
        }
    }
}
