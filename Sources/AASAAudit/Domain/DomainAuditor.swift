import AASAChecks
import AASAFetch
import AASAModel
import Foundation

/// Audits one domain: its `AuditGroup` (the AASA's part, `AASA/AASAAudit.swift`, when the
/// domain serves one, then each kind's) asks the origin on one connection (`OriginFetchPlan`:
/// `.well-known` as Apple's bot, the root, a browser's `.well-known` only when the bot got no
/// file, the kinds' files) and Apple's CDN alongside; then the one `judge`.
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
    /// The files several domains name, fetched once by this auditor (a run, or a while in
    /// `serve` and `mcp`).
    let shared = SharedFetches()

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

    /// One path for every domain: its group (the AASA's part first, when it serves one, then
    /// each kind's) asks its requests on the domain's connection, Apple's CDN alongside for the
    /// AASA, and the one judge takes every answer.
    public func audit(_ target: DomainTarget) async -> DomainOutcome {
        let files = AuditGroup(for: target)
        async let cdnFetch = fetchCDN(target.domain, for: files.aasa)
        let plan = OriginFetchPlan(
            fetcher: fetcher, domain: target.domain, asksAASA: files.aasa != nil,
            botUserAgent: deviceView.botUserAgent,
            browserUserAgent: deviceView.botUserAgent == nil ? nil : deviceView.browserUserAgent,
            extraRequests: files.requests(domain: target.domain)
        )
        .openingSignedFiles(with: signedFiles)
        // The domain's connection is kept between its fetches and closed after the last one.
        let (origin, associations) = await fetcher.keepingConnections(to: target.domain) {
            let origin = await plan.run()
            let more = DeadlineFetch(plan: plan, deadline: origin.deadline, shared: shared, now: now)
            var associations = await files.audit(origin.extra, more: more)
            associations.add(
                await CatchAllProbe.probe(target.domain, origin: origin.aasa, files: associations, more: more))
            return (origin, associations)
        }
        return judge(target, origin: origin, cdn: await cdnFetch, associations: associations)
    }

    /// A domain with its answers: the AASA's assessed (when it was asked for), then judged by
    /// the one `judge`. Everything after the fetches is in plain functions: their values live on
    /// the thread's stack while they run. Written inside `audit`, they made that async
    /// function's frame, which lives in the task's own allocator for the whole audit of the
    /// domain, about 36 KB: a third of the memory of each domain in flight at `--concurrency
    /// 1000` (and the answers are passed as they are, not wrapped: a wrapped copy is a temporary
    /// of that frame too).
    @inline(never)
    func judge(
        _ target: DomainTarget, origin: OriginFetchPlan.Fetched, cdn fetchedCDN: FetchedLocation?,
        associations: AssociationOutcome
    ) -> DomainOutcome {
        guard let answers = origin.aasa else { return judge(target, aasa: nil, associations: associations) }
        return judge(target, aasa: assessAASA(target, answers: answers, cdn: fetchedCDN), associations: associations)
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
        let expiring =
            CertificateExpiry.findings(
                fetches, host: target.domain, now: now, warningDays: deviceView.certificateWarningDays)
            + associations.certificateWatches.flatMap {
                CertificateExpiry.findings(fetches, host: target.domain, now: now, watch: $0)
            }
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
}
