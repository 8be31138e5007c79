import AASAChecks
import AASAFetch
import AASAJSON
import AASAModel

/// Audits one domain: fetches `.well-known` (also as Apple's bot and as a browser), then the
/// root location, all over the same connection, and Apple's CDN copy alongside; then runs the
/// checks.
public struct DomainAuditor: Sendable {
    public let fetcher: Fetcher
    public let validation: ValidationOptions
    public let deviceView: DeviceViewSettings

    public init(fetcher: Fetcher, validation: ValidationOptions = ValidationOptions(), deviceView: DeviceViewSettings = .originOnly) {
        self.fetcher = fetcher
        self.validation = validation
        self.deviceView = deviceView
    }

    /// The least time a later fetch of a domain is given, whatever the earlier ones used.
    static let minimumFetchSeconds = 1.0

    public func audit(_ target: DomainTarget) async -> DomainOutcome {
        let started = ContinuousClock.now
        async let cdnFetch = fetchCDN(target.domain)
        let wellKnown = await fetcher.fetch(request(target.domain, .wellKnown, last: false))
        let root: FetchedLocation
        var bot: FetchedLocation?
        var browser: FetchedLocation?
        if let error = wellKnown.record.error, Self.hostUnreachable(error.kind) {
            var record = FetchRecord(location: .root, url: Self.url(target.domain, .root))
            record.error = TransferError(kind: .skipped, curlCode: 0, message: "Not fetched: the .well-known fetch could not reach the host (\(error.kind.rawValue)).")
            root = FetchedLocation(record: record)
        } else {
            if let botAgent = deviceView.botUserAgent, let browserAgent = deviceView.browserUserAgent {
                bot = await fetchAs(.bot, botAgent, target.domain)
                browser = await fetchAs(.browser, browserAgent, target.domain)
            }
            // A domain's fetches share one --timeout: the root gets what .well-known left.
            let elapsed = ContinuousClock.now - started
            let left = fetcher.configuration.timeoutSeconds - Double(elapsed.components.seconds) - Double(elapsed.components.attoseconds) / 1e18
            var rootRequest = request(target.domain, .root, last: true)
            rootRequest.timeoutSeconds = max(Self.minimumFetchSeconds, left)
            root = await fetcher.fetch(rootRequest)
        }

        let cdn = await cdnFetch
        let view = DomainChecks.DeviceView(cdn: cdn, bot: bot, browser: browser, botAgent: deviceView.botUserAgent ?? AppleLimits.botUserAgent)
        let checked = DomainChecks.assess(target: target, wellKnown: wellKnown, root: root, options: validation, deviceView: view)
        let fetches = [wellKnown.record, root.record] + [bot, browser, cdn].compactMap { $0?.record }
        let report = DomainReport(
            domain: target.domain, inputLine: target.inputLine, expectedAppIDs: target.expectedAppIDs,
            fetches: fetches, appIDs: checked.appIDs, findings: checked.findings,
            entitlements: target.services.isEmpty ? nil : target.services)
        var served = [(wellKnown, checked.wellKnownFile), (root, checked.rootFile)].compactMap { fetched, file in
            Self.servedBody(fetched, parsed: file)
        }
        if let cdn, let body = Self.servedBody(cdn, parsed: checked.cdnFile) { served.append(body) }
        return DomainOutcome(report: report, served: served)
    }

    /// Apple's CDN copy of the host's file, when the CDN is to be checked.
    func fetchCDN(_ domain: String) async -> FetchedLocation? {
        guard let base = deviceView.cdnBase else { return nil }
        return await fetcher.fetch(FetchRequest(url: base + domain, location: .cdn))
    }

    /// `.well-known` again, as someone else, on the domain's connection.
    func fetchAs(_ agent: FetchAgent, _ userAgent: String, _ domain: String) async -> FetchedLocation {
        var fetched = await fetcher.fetch(FetchRequest(url: Self.url(domain, .wellKnown), location: .wellKnown, userAgent: userAgent))
        fetched.record.agent = agent
        return fetched
    }

    func request(_ domain: String, _ location: AASALocation, last: Bool) -> FetchRequest {
        FetchRequest(url: Self.url(domain, location), location: location, closeConnection: last)
    }

    public static func url(_ domain: String, _ location: AASALocation) -> String {
        "https://\(domain)\(location.path)"
    }

    /// Failures after which a second request to the same host would fail the same way (and
    /// cost another full timeout).
    static func hostUnreachable(_ kind: TransferErrorKind) -> Bool {
        switch kind {
        case .dns, .connect, .timeout, .tlsCertificate, .tlsHandshake: true
        case .skipped, .cancelled, .other: false
        }
    }

    static func servedBody(_ fetched: FetchedLocation, parsed: JSONObject?) -> ServedBody? {
        guard fetched.record.status == 200, !fetched.body.isEmpty, let sha256 = fetched.record.bodySHA256 else { return nil }
        let source: ServedBody.Source = parsed.map { .json($0) }
            ?? .raw(bytes: fetched.body, totalBytes: max(fetched.record.bodyBytes, fetched.body.count))
        return ServedBody(location: fetched.record.location, sha256: sha256, source: source)
    }
}
