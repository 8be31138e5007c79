import AASAChecks
import AASAFetch
import AASAJSON
import AASAModel

/// A file a location served with 200, kept for the HTML report's display.
public struct ServedBody: Sendable {
    public var location: AASALocation
    public var sha256: String
    /// Pretty-printed JSON when the file parsed as an object; otherwise the raw text (invalid
    /// UTF-8 replaced), cut to `displayLimit` bytes.
    public var displayText: String

    /// More than any valid file may hold; the rest of a larger body is not shown.
    public static let displayLimit = 131_072
}

/// The audit of one domain: its report record and what it served.
public struct DomainOutcome: Sendable {
    public var report: DomainReport
    public var served: [ServedBody]
}

/// Audits one domain: fetches `.well-known` and then the root location over the same
/// connection, and runs the checks.
public struct DomainAuditor: Sendable {
    public let fetcher: Fetcher
    public let validation: ValidationOptions

    public init(fetcher: Fetcher, validation: ValidationOptions = ValidationOptions()) {
        self.fetcher = fetcher
        self.validation = validation
    }

    /// The least time a later fetch of a domain is given, whatever the earlier ones used.
    static let minimumFetchSeconds = 1.0

    public func audit(_ target: DomainTarget) async -> DomainOutcome {
        let started = ContinuousClock.now
        let wellKnown = await fetcher.fetch(request(target.domain, .wellKnown, last: false))
        let root: FetchedLocation
        if let error = wellKnown.record.error, Self.hostUnreachable(error.kind) {
            var record = FetchRecord(location: .root, url: Self.url(target.domain, .root))
            record.error = TransferError(kind: .skipped, curlCode: 0, message: "Not fetched: the .well-known fetch could not reach the host (\(error.kind.rawValue)).")
            root = FetchedLocation(record: record)
        } else {
            // A domain's fetches share one --timeout: the root gets what .well-known left.
            let elapsed = ContinuousClock.now - started
            let left = fetcher.configuration.timeoutSeconds - Double(elapsed.components.seconds) - Double(elapsed.components.attoseconds) / 1e18
            var rootRequest = request(target.domain, .root, last: true)
            rootRequest.timeoutSeconds = max(Self.minimumFetchSeconds, left)
            root = await fetcher.fetch(rootRequest)
        }

        let checked = DomainChecks.assess(target: target, wellKnown: wellKnown, root: root, options: validation)
        let report = DomainReport(
            domain: target.domain, inputLine: target.inputLine, expectedAppIDs: target.expectedAppIDs,
            fetches: [wellKnown.record, root.record], appIDs: checked.appIDs, findings: checked.findings)
        let served = [(wellKnown, checked.wellKnownFile), (root, checked.rootFile)].compactMap { fetched, file in
            Self.servedBody(fetched, parsed: file)
        }
        return DomainOutcome(report: report, served: served)
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
        let text: String
        if let parsed {
            text = JSONValue.object(parsed).prettyPrinted()
        } else {
            let shown = fetched.body.prefix(ServedBody.displayLimit)
            let total = max(fetched.record.bodyBytes, fetched.body.count)
            let cut = total > shown.count ? "\n… (\(total - shown.count) more bytes not shown)" : ""
            text = String(decoding: shown, as: UTF8.self) + cut
        }
        return ServedBody(location: fetched.record.location, sha256: sha256, displayText: text)
    }
}
