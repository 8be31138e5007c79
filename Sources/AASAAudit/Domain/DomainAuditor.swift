import AASAChecks
import AASAFetch
import AASAJSON
import AASAModel
import Foundation

/// Audits one domain: the origin's requests (`OriginFetchPlan`: `.well-known` as Apple's bot,
/// the root on the same connection, a browser's `.well-known` only when the bot got no file)
/// and Apple's CDN copy alongside; then runs the checks.
public struct DomainAuditor: Sendable {
    public let fetcher: Fetcher
    public let validation: ValidationOptions
    public let deviceView: DeviceViewSettings
    /// The team's acknowledgements (`acknowledgements.json` of `--out`): the findings they
    /// cover are marked, shown but not counted against the domain's open verdict.
    public var acknowledgements: Acknowledgements
    /// The clock certificates and acknowledgements are judged against (`AuditSettings.now`).
    public var now: @Sendable () -> Date = { Date() }
    let signedFiles: SignedFileOpener

    public init(
        fetcher: Fetcher, validation: ValidationOptions = ValidationOptions(),
        deviceView: DeviceViewSettings = .originOnly, acknowledgements: Acknowledgements = Acknowledgements()
    ) {
        self.fetcher = fetcher
        self.validation = validation
        self.deviceView = deviceView
        self.acknowledgements = acknowledgements
        signedFiles = SignedFileOpener(fetcher.configuration)
    }

    public func audit(_ target: DomainTarget) async -> DomainOutcome {
        guard target.aasa != nil else { return await auditWithoutAASA(target) }
        async let cdnFetch = fetchCDN(target.domain)
        let files = AuditGroup(for: target.wants)
        let plan = OriginFetchPlan(
            fetcher: fetcher, domain: target.domain, botUserAgent: deviceView.botUserAgent,
            browserUserAgent: deviceView.botUserAgent == nil ? nil : deviceView.browserUserAgent,
            extraRequests: files.requests(domain: target.domain)
        )
        .openingSignedFiles(with: signedFiles)
        // The domain's connection is kept between its fetches and closed after the last one.
        let (origin, associations) = await fetcher.keepingConnections(to: target.domain) {
            let origin = await plan.run()
            let more = DeadlineFetch(plan: plan, deadline: origin.deadline)
            var associations = await files.audit(origin.extra, more: more)
            associations.add(await CatchAllProbe.probe(target.domain, origin: origin, files: associations, more: more))
            return (origin, associations)
        }
        return judge(target, origin: origin, cdn: await cdnFetch, associations: associations)
    }

    /// A domain that serves no AASA (`ios:none`): neither its origin nor Apple's CDN is asked
    /// for one; its other files are audited (`AssociationWants.withoutAASA`), and what keeps
    /// the host from answering them is the domain's failure. Judged by the one `judge`.
    func auditWithoutAASA(_ target: DomainTarget) async -> DomainOutcome {
        let files = AuditGroup(for: target.wants.withoutAASA)
        let plan = OriginFetchPlan(
            fetcher: fetcher, domain: target.domain, botUserAgent: nil, browserUserAgent: nil,
            extraRequests: files.requests(domain: target.domain))
        let associations = await fetcher.keepingConnections(to: target.domain) {
            let (answers, deadline) = await plan.runWithoutAASA()
            let more = DeadlineFetch(plan: plan, deadline: deadline)
            var associations = await files.audit(answers, more: more)
            associations.add(await CatchAllProbe.probe(target.domain, origin: nil, files: associations, more: more))
            return associations
        }
        return judge(target, aasa: nil, associations: associations)
    }

    /// A domain with its AASA's answers: assessed, then judged by the one `judge`. Everything
    /// after the fetches is in plain functions: their values live on the thread's stack while
    /// they run. Written inside `audit`, they made that async function's frame, which lives in
    /// the task's own allocator for the whole audit of the domain, about 36 KB: a third of the
    /// memory of each domain in flight at `--concurrency 1000` (and the answers are passed as
    /// they are, not wrapped: a wrapped copy is a temporary of that frame too).
    @inline(never)
    func judge(
        _ target: DomainTarget, origin: OriginFetchPlan.Fetched, cdn fetchedCDN: FetchedLocation?,
        associations: AssociationOutcome = AssociationOutcome()
    ) -> DomainOutcome {
        judge(target, aasa: assessAASA(target, origin: origin, cdn: fetchedCDN), associations: associations)
    }

    /// The one judge of a domain, whatever it serves: the AASA's assessment when one was asked
    /// for, then for every file at once: certificate expiry, `--severity`, causes,
    /// acknowledgements, the hosting platform's fixes (for every file), the record's fields.
    /// - Parameter aasa: nil for a domain that serves none (`ios:none`).
    @inline(never)
    func judge(_ target: DomainTarget, aasa: AASAAssessment?, associations: AssociationOutcome) -> DomainOutcome {
        // The other association files: their findings join the domain's (at their own
        // location), so the domain's verdict is its worst platform's.
        let fetches = (aasa?.fetches ?? []) + associations.fetches
        let now = now()
        let expiring = CertificateExpiry.findings(
            fetches, host: target.domain, now: now, warningDays: deviceView.certificateWarningDays)
        let findings = acknowledgements.mark(
            FindingCauses.link(
                validation.severityPolicy.apply((aasa?.checked.findings ?? []) + associations.findings + expiring)),
            domain: target.domain, at: now)
        // The platform fixes: each file's by its own answer, the platform the AASA's answers
        // show first.
        var answers = associations.answers
        if let aasa { answers[ServedFile.aasa.id] = ServedAnswer(status: aasa.status, servedAPage: aasa.servedAPage) }
        let platform = aasa?.platform ?? associations.platform
        var report = DomainReport(
            domain: target.domain, inputLine: target.inputLine, expectedAppIDs: target.expectedAppIDs,
            fetches: fetches, appIDs: aasa?.checked.appIDs ?? ServiceAppIDs(),
            findings: PlatformFixes.apply(findings, platform: platform, answers: answers),
            entitlements: target.services.isEmpty ? nil : target.services)
        report.platform = platform
        report.labels = target.labels.isEmpty ? nil : target.labels
        report.ios = aasa == nil ? AASAWant.iosNone : nil
        report.certificateExpires = CertificateExpiry.earliest(fetches, host: target.domain)?.certificateExpires
        report.associations = associations.records
        return DomainOutcome(report: report, served: aasa?.served ?? [])
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

    /// The AASA's origin answers and CDN copy, checked. Signed files are judged on their
    /// content, their signature beside it (the plan opened the origin's; the CDN's copy is
    /// opened here). A host that gives Apple's bot no file but gives a browser one is judged on
    /// the browser's copy (and flagged ua.blocked); otherwise on what the bot got.
    @inline(never)
    func assessAASA(_ target: DomainTarget, origin: OriginFetchPlan.Fetched, cdn fetchedCDN: FetchedLocation?)
        -> AASAAssessment
    {
        let judged = origin.browser.flatMap { DeviceViewChecks.usableFile($0) == nil ? nil : $0 } ?? origin.wellKnown
        let root = origin.root
        let cdn = fetchedCDN.map { signedFiles.unwrap($0, host: target.domain) }
        var view = DomainChecks.DeviceView(
            cdn: cdn, bot: origin.browser == nil ? nil : origin.wellKnown, browser: origin.browser,
            botAgent: deviceView.botUserAgent ?? AppleLimits.botUserAgent)
        view.misnamed = origin.misnamed
        let checked = DomainChecks.assess(
            target: target, wellKnown: judged, root: root, options: validation, deviceView: view)
        // The platform the site runs on, from its answers' marks: the fixes name its settings.
        let platform = [origin.wellKnown, root].lazy.compactMap {
            HostingPlatform.detect($0.record.headers, host: target.domain, body: $0.body)
        }.first
        var served = [(judged, checked.wellKnownFile), (root, checked.rootFile)].compactMap { fetched, file in
            Self.servedBody(fetched, parsed: file)
        }
        if let cdn, let body = Self.servedBody(cdn, parsed: checked.cdnFile) { served.append(body) }
        return AASAAssessment(
            checked: checked,
            fetches: [origin.wellKnown.record, root.record]
                + [origin.browser, origin.misnamed, cdn].compactMap {
                    $0?.record
                },
            platform: platform, status: origin.wellKnown.record.status, servedAPage: CatchAllChecks.isPage(judged),
            served: served)
    }

    /// Apple's CDN copy of the host's file, when the CDN is to be checked.
    func fetchCDN(_ domain: String) async -> FetchedLocation? {
        guard let base = deviceView.cdnBase else { return nil }
        return await fetcher.fetch(FetchRequest(url: base + domain, location: .cdn))
    }

    /// Failures after which a second request to the same host would fail the same way (and
    /// cost another share of the domain's time): no connection, a stall, or a connection the
    /// server broke (reset, empty reply, protocol error).
    static func hostUnreachable(_ error: TransferError) -> Bool {
        switch error.kind {
        case .dns, .connect, .timeout, .tlsCertificate, .tlsHandshake, .blockedAddress, .local: true
        case .other: error.brokeConnection
        case .skipped, .cancelled: false
        }
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
