import AASAJSON
import AASAMatching
import AASAModel

/// The verdict logic for a domain: both locations judged together, plus the expectations of
/// the input. The `.well-known` file is the one devices use, so its problems keep their
/// severity; the root copy matters only to iOS 9-era fallback, so its problems are at most a
/// warning, and its absence is only info.
public enum DomainChecks {
    public struct Result: Sendable, Equatable {
        public var findings: [Finding]
        /// The app IDs of the `.well-known` file (empty when it has no usable file).
        public var appIDs: ServiceAppIDs
        /// The file each location served, where it parsed as a JSON object.
        public var wellKnownFile: JSONObject?
        public var rootFile: JSONObject?
        /// Apple's CDN copy, when it was fetched and parses.
        public var cdnFile: JSONObject?
    }

    /// The sections besides applinks the input expects, and the apps each must name: an
    /// entitlement's services name its apps (the bare IDs) in each; `webcredentials:ID` (and the
    /// other services' prefixes) names one app in one section; a domain that declares passkeys
    /// needs its apps in webcredentials (iOS refuses their passkeys otherwise).
    struct ServiceExpectations: Equatable {
        /// By service, in `AssociatedDomainService.appListServices` order.
        var apps: [AssociatedDomainService: [String]] = [:]
        /// Whether the file must open links: the default, unless the input names only other services.
        var needsApplinks: Bool
        /// Why each service is expected, for the finding.
        var reasons: [AssociatedDomainService: String] = [:]
        /// The app IDs the applinks section must name: the input's bare ones.
        var applinks: [String]

        /// Whether the file must open links: an app ID for them, a `+`/`-` URL, or an
        /// entitlement for applinks (a file of other services is then not enough).
        func expectsUniversalLinks(_ target: DomainTarget) -> Bool {
            !applinks.isEmpty || !target.expectations.isEmpty || target.services.contains { $0.service == .applinks }
        }

        /// An entitlement, or apps expected, for other services only: the file need not open links.
        func withoutApplinksWhenNotNeeded(_ findings: [Finding]) -> [Finding] {
            needsApplinks ? findings : findings.filter { $0.code != .aasa(.applinksMissing) }
        }

        init(_ target: DomainTarget) {
            let expected = target.expectedApps
            let bare = expected.appIDs(of: .applinks)
            applinks = bare
            let entitled = Set(target.services.map(\.service))
            needsApplinks =
                entitled.contains(.applinks)
                || (entitled.isEmpty && (!bare.isEmpty || expected.isEmpty || !target.expectations.isEmpty))
            for service in AssociatedDomainService.appListServices {
                var ids = expected.appIDs(of: service)
                var reason = ids.isEmpty ? nil : "the input expects \(service.rawValue):\(ids[0])"
                if entitled.contains(service) {
                    ids = bare + ids.filter { !bare.contains($0) }
                    reason = "the entitlements name this host for \(service.rawValue)"
                } else if service == .webcredentials, target.wants.declaresPasskeys, !bare.isEmpty {
                    ids = bare + ids.filter { !bare.contains($0) }
                    reason =
                        "the domain declares passkeys, and iOS offers an app's passkeys only for a domain whose webcredentials names it"
                }
                if let reason {
                    apps[service] = ids
                    reasons[service] = reason
                }
            }
        }
    }

    /// What the input expects of a file's content (its sections' apps, its `+`/`-` URLs), judged
    /// alike whoever reads the file: a served copy (`assess`) or a local one (`FileLint`): one
    /// judge (issue 55). `serviceFindings` is asked beside it, before the device views.
    static func expectedApps(
        _ target: DomainTarget, services: ServiceExpectations, file: JSONObject, named: [String], visits: Int
    ) -> [Finding] {
        (services.needsApplinks ? missingAppIDs(services.applinks, named: named) : [])
            + expectationFindings(target, file: file, applinks: services.applinks, visits: visits)
    }

    /// Each section the input expects must be there, and name its apps.
    static func serviceFindings(_ expectations: ServiceExpectations, file: JSONObject) -> [Finding] {
        var findings: [Finding] = []
        for service in AssociatedDomainService.appListServices {
            guard let wanted = expectations.apps[service], let reason = expectations.reasons[service] else { continue }
            guard let apps = ContentChecks.serviceApps(file[service.rawValue]) else {
                findings.append(
                    Finding(
                        .aasa(.serviceMissing), .wellKnown,
                        "The file has no \(service.rawValue) section, but \(reason)."))
                continue
            }
            for expected in wanted
            where !apps.contains(expected) && !apps.contains(where: { $0.hasPrefix(expected + ".") }) {
                findings.append(
                    Finding(
                        .aasa(.serviceMissing), .wellKnown,
                        "The file's \(service.rawValue) section does not name \(expected) (\(reason))."))
            }
        }
        return findings
    }

    /// The `+`/`-` lines of the input, checked with the matcher against the `.well-known` file,
    /// within one matching budget for the domain (interrupted by task cancellation too).
    /// - Parameter applinks: the app IDs a `+` URL must open (any app when none).
    static func expectationFindings(
        _ target: DomainTarget, file: JSONObject, applinks: [String], visits: Int = MatchBudget.standardVisits
    ) -> [Finding] {
        guard !target.expectations.isEmpty else { return [] }
        let matcher = Matcher(file: file, domain: target.domain)
        var budget = MatchBudget(visits: visits)
        var findings: [Finding] = []
        for (index, expectation) in target.expectations.enumerated() {
            guard case .success(let url) = MatchURL.parse(expectation.url) else { continue }
            let decision = matcher.decide(url, budget: &budget)
            if decision.outcome == .undecided {
                let left = target.expectations.count - index
                findings.append(
                    Finding(
                        .aasa(.matchCutShort), .wellKnown,
                        "\(left) of the \(target.expectations.count) URLs of the input (from line \(expectation.inputLine)) were not checked: \(decision.reason)"
                    ))
                break
            }
            let rule = decision.rule.map { " (\($0.path))" } ?? ""
            let line = "line \(expectation.inputLine)"
            if expectation.opensApp {
                let wanted = applinks
                switch decision.outcome {
                case .app where wanted.isEmpty || decision.appIDs.contains(where: wanted.contains):
                    continue
                case .app:
                    findings.append(
                        Finding(
                            .aasa(.matchExpectedApp), .wellKnown,
                            "\(expectation.url) (\(line)) opens \(decision.appIDs.joined(separator: ", ")), not \(wanted.joined(separator: " or "))\(rule)."
                        ))
                case .excluded:
                    findings.append(
                        Finding(
                            .aasa(.matchExpectedApp), .wellKnown,
                            "\(expectation.url) (\(line)) must open the app but stays in the browser: excluded by \(decision.rule?.path ?? "a rule")."
                        ))
                case .none:
                    findings.append(
                        Finding(
                            .aasa(.matchExpectedApp), .wellKnown,
                            "\(expectation.url) (\(line)) must open the app but no rule matches it."))
                case .undecided:
                    break  // reported above
                }
            } else if decision.outcome == .app {
                findings.append(
                    Finding(
                        .aasa(.matchExpectedBrowser), .wellKnown,
                        "\(expectation.url) (\(line)) must stay in the browser but opens \(decision.appIDs[0])\(rule).")
                )
            }
        }
        return findings
    }

    /// What else was fetched: Apple's CDN copy, and `.well-known` as Apple's bot with a
    /// browser's copy beside it (both are given only when the browser was asked).
    public struct DeviceView: Sendable {
        public var cdn: FetchedLocation?
        public var bot: FetchedLocation?
        public var browser: FetchedLocation?
        public var botAgent: String
        /// `.well-known/apple-app-site-association.json`, fetched when neither location served
        /// the file.
        public var misnamed: FetchedLocation?

        public init(
            cdn: FetchedLocation? = nil, bot: FetchedLocation? = nil, browser: FetchedLocation? = nil,
            botAgent: String = AppleLimits.botUserAgent
        ) {
            self.cdn = cdn
            self.bot = bot
            self.browser = browser
            self.botAgent = botAgent
        }
    }

    /// A domain's findings, in phases: the two locations (the root copy's capped, its content
    /// problems once when it is the same file), where the file is served, the services and
    /// what devices see, then what the input expects.
    public static func assess(
        target: DomainTarget, wellKnown: FetchedLocation, root: FetchedLocation,
        options: ValidationOptions = ValidationOptions(),
        deviceView: DeviceView = DeviceView()
    ) -> Result {
        var options = options
        let services = ServiceExpectations(target)
        options.expectsUniversalLinks = services.expectsUniversalLinks(target)
        let primary = LocationChecks.assess(wellKnown, options: options)
        // Most sites serve one file at both locations: its body is checked once, and its
        // content problems are reported once.
        let sameBytes = LocationChecks.sameBytes(root, as: wellKnown)
        let fallback = LocationChecks.assess(root, options: options, sameBody: sameBytes ? primary : nil)
        var findings = primary.findings + rootFindings(fallback, of: root, beside: primary, sameBytes: sameBytes)
        findings += whereServed(primary: primary, fallback: fallback, misnamed: deviceView.misnamed)

        findings = services.withoutApplinksWhenNotNeeded(findings)
        if let file = primary.file {
            findings += serviceFindings(services, file: file)
        }
        let cdnFile = deviceView.cdn.flatMap(DeviceViewChecks.usableFile)
        // What devices see is compared with the origin only when the origin was asked.
        if wellKnown.record.asked {
            findings += deviceFindings(deviceView, primary: primary, fallback: fallback, cdnFile: cdnFile)
        }
        if let file = primary.file {
            findings += expectedApps(
                target, services: services, file: file, named: primary.content?.appIDs.applinks ?? [],
                visits: options.matchVisits)
        }
        // Known device behaviour with internationalised names: said, not failed.
        if target.domain.split(separator: ".").contains(where: { $0.hasPrefix("xn--") }) {
            findings.append(
                Finding(
                    .aasa(.domainInternationalized), .domain,
                    "\(target.domain) is an internationalised name: iOS 16 and later are reported to fail to use such domains as associated domains (Apple Developer Forums thread 814156, FB21797091). Test its links on a device."
                ))
        }
        return Result(
            findings: findings, appIDs: primary.content?.appIDs ?? ServiceAppIDs(), wellKnownFile: primary.file,
            rootFile: fallback.file, cdnFile: cdnFile)
    }

    /// The root copy's findings: at most warnings when it answered 200, notes when it did not;
    /// its content problems left out when it is the `.well-known` file's bytes.
    static func rootFindings(
        _ fallback: LocationAssessment, of root: FetchedLocation, beside primary: LocationAssessment, sameBytes: Bool
    ) -> [Finding] {
        let findings =
            sameBytes ? fallback.findings.filter { $0.code.definition.category != .content } : fallback.findings
        return findings.map { finding in
            let capped = finding.aboutTheRootCopy(answered200: fallback.answered200)
            // No root copy beside a good .well-known file is how it should be today: say so
            // quietly, not as a status to fix.
            if finding.code == .aasa(.httpStatus), root.record.status == 404 || root.record.status == 410 {
                return Finding(
                    .aasa(.locationRootAbsent), .root,
                    primary.file != nil
                        ? "No copy at the root location (HTTP \(root.record.status!)): fine, only iOS 9 devices fell back to it."
                        : "No copy at the root location either (HTTP \(root.record.status!)).")
            }
            return capped
        }
    }

    /// Where the file is: only at the root, nowhere, or under a `.json` name.
    static func whereServed(
        primary: LocationAssessment, fallback: LocationAssessment, misnamed: FetchedLocation?
    ) -> [Finding] {
        var findings: [Finding] = []
        if primary.file == nil, fallback.file != nil {
            findings.append(
                Finding(
                    .aasa(.locationRootOnly), .domain,
                    "A valid file is served only at \(AASALocation.root.path); current iOS and Apple's CDN read only \(AASALocation.wellKnown.path)."
                ))
        }
        if !primary.answered200, !fallback.answered200, primary.responded || fallback.responded {
            findings.append(Finding(.aasa(.locationNone), .domain, "Neither location served the file with status 200."))
            if let misnamed, DeviceViewChecks.usableFile(misnamed) != nil {
                findings.append(
                    Finding(
                        .aasa(.locationMisnamed), .domain,
                        "Your file is there, as \(AASALocation.wellKnown.path).json (HTTP 200): rename it to apple-app-site-association, without .json; devices and Apple's CDN ask only for that name."
                    ))
            }
        }
        return findings
    }

    /// What devices see: the two locations' files apart, Apple's CDN copy, the bot and a browser.
    static func deviceFindings(
        _ deviceView: DeviceView, primary: LocationAssessment, fallback: LocationAssessment, cdnFile: JSONObject?
    ) -> [Finding] {
        var findings: [Finding] = []
        if let wellKnownFile = primary.file, let rootFile = fallback.file {
            findings += DeviceViewChecks.locations(wellKnown: wellKnownFile, root: rootFile)
        }
        if let cdn = deviceView.cdn {
            findings += DeviceViewChecks.cdn(cdn, copy: cdnFile, originFile: primary.file)
        }
        if let bot = deviceView.bot, let browser = deviceView.browser {
            findings += DeviceViewChecks.agents(bot: bot, browser: browser, botAgent: deviceView.botAgent)
        }
        return findings
    }

    /// The input's app IDs the file's applinks section does not name (a near miss in case said).
    static func missingAppIDs(_ expected: [String], named: [String]) -> [Finding] {
        expected.filter { !named.contains($0) }.map { expected in
            let nearMiss = named.first { $0.lowercased() == expected.lowercased() }
            let hint = nearMiss.map { " (it names \($0), which differs only in case)" } ?? ""
            return Finding(
                .aasa(.appIDMissing), .wellKnown,
                "The expected app ID \(expected) is not in the file's applinks section\(hint).")
        }
    }
}

extension DomainChecks {
    /// The report of a domain the run never audited (it was interrupted first).
    /// The record of a domain an earlier crash left out (`audit.crashed`): not fetched, `why`
    /// says which crash and until when.
    public static func crashed(_ target: DomainTarget, why: String) -> DomainReport {
        var report = notAudited(target)
        report.findings = [Finding(.run(.auditCrashed), .domain, why)]
        return report
    }

    public static func notAudited(_ target: DomainTarget) -> DomainReport {
        DomainReport(
            domain: target.domain, inputLine: target.inputLine, expectedAppIDs: target.expectedAppIDs, fetches: [],
            appIDs: ServiceAppIDs(),
            findings: [
                Finding(.run(.auditInterrupted), .domain, "The run was interrupted before this domain was audited.")
            ])
    }
}
