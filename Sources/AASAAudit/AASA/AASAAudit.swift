import AASAChecks
import AASAFetch
import AASAJSON
import AASAModel

/// The AASA's part of a domain's audit (`AuditGroup.aasa`), in its room: the answers its plan
/// gets (`OriginFetchPlan`: `.well-known` as Apple's bot, the root, a browser's copy when the bot
/// got none, the misnamed copy), Apple's CDN copy alongside, and what they come to.

/// The AASA's answers on the domain's connection.
struct AASAAnswers: Sendable {
    /// The `.well-known` fetch as Apple's bot (or with the configured agent).
    var wellKnown: FetchedLocation
    var root: FetchedLocation
    /// `.well-known` as a browser, when the bot got no usable file.
    var browser: FetchedLocation?
    /// `.well-known/apple-app-site-association.json`, when neither location served the file.
    var misnamed: FetchedLocation?
}

/// What the AASA's answers come to: its checks, its fetches, the platform its answers show,
/// and the files the HTML report shows.
struct AASAAssessment {
    var checked: DomainChecks.Result
    var fetches: [FetchRecord]
    var platform: HostingPlatform?
    /// The `.well-known` answer's status, and whether a web page answered in the file's place.
    var status: Int?
    var servedAPage: Bool
    var served: [ServedBody]
}

extension DomainAuditor {
    /// The AASA's origin answers and CDN copy, checked. Signed files are judged on their
    /// content, their signature beside it (the plan opened the origin's; the CDN's copy is
    /// opened here). A host that gives Apple's bot no file but gives a browser one is judged on
    /// the browser's copy (and flagged ua.blocked); otherwise on what the bot got.
    @inline(never)
    func assessAASA(_ target: DomainTarget, answers: AASAAnswers, cdn fetchedCDN: FetchedLocation?)
        -> AASAAssessment
    {
        let judged = answers.browser.flatMap { DeviceViewChecks.usableFile($0) == nil ? nil : $0 } ?? answers.wellKnown
        let root = answers.root
        let cdn = fetchedCDN.map { signedFiles.unwrap($0, host: target.domain) }
        var view = DomainChecks.DeviceView(
            cdn: cdn, bot: answers.browser == nil ? nil : answers.wellKnown, browser: answers.browser,
            botAgent: deviceView.botUserAgent ?? AppleLimits.botUserAgent)
        view.misnamed = answers.misnamed
        let checked = DomainChecks.assess(
            target: target, wellKnown: judged, root: root, options: validation, deviceView: view)
        // The platform the site runs on, from its answers' marks: the fixes name its settings.
        let platform = [answers.wellKnown, root].lazy.compactMap {
            HostingPlatform.detect($0.record.headers, host: target.domain, body: $0.body)
        }.first
        var served = [(judged, checked.wellKnownFile), (root, checked.rootFile)].compactMap { fetched, file in
            Self.servedBody(fetched, parsed: file)
        }
        if let cdn, let body = Self.servedBody(cdn, parsed: checked.cdnFile) { served.append(body) }
        return AASAAssessment(
            checked: checked,
            fetches: [answers.wellKnown.record, root.record]
                + [answers.browser, answers.misnamed, cdn].compactMap { $0?.record },
            platform: platform, status: answers.wellKnown.record.status, servedAPage: CatchAllChecks.isPage(judged),
            served: served)
    }

    /// Apple's CDN copy of the host's file, when the AASA is asked for (`want`) and the CDN is
    /// to be checked.
    func fetchCDN(_ domain: String, for want: AASAWant?) async -> FetchedLocation? {
        guard want != nil, let base = deviceView.cdnBase else { return nil }
        return await fetcher.fetch(FetchRequest(url: base + domain, location: .cdn))
    }

    static func servedBody(_ fetched: FetchedLocation, parsed: JSONObject?) -> ServedBody? {
        guard fetched.record.status == 200, !fetched.body.isEmpty, let sha256 = fetched.record.bodySHA256 else {
            return nil
        }
        let source: ServedBody.Source =
            parsed.map { .json($0) }
            ?? .raw(bytes: fetched.body, totalBytes: max(fetched.record.bodyBytes, fetched.body.count))
        return ServedBody(location: fetched.record.location, sha256: sha256, source: source)
    }
}
