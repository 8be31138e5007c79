/// The app IDs a file names, per service. A service the file lacks is absent (nil).
public struct ServiceAppIDs: Codable, Sendable, Equatable {
    public var applinks: [String]?
    public var webcredentials: [String]?
    public var appclips: [String]?
    public var activitycontinuation: [String]?

    public init(
        applinks: [String]? = nil, webcredentials: [String]? = nil, appclips: [String]? = nil,
        activitycontinuation: [String]? = nil
    ) {
        self.applinks = applinks
        self.webcredentials = webcredentials
        self.appclips = appclips
        self.activitycontinuation = activitycontinuation
    }

    /// The app IDs a service's section names; nil when the file lacks the section.
    public subscript(service: AssociatedDomainService) -> [String]? {
        switch service {
        case .applinks: applinks
        case .webcredentials: webcredentials
        case .appclips: appclips
        case .activitycontinuation: activitycontinuation
        }
    }

    /// Every service with its app IDs, in the order of `AssociatedDomainService.allCases`.
    public var byService: [(service: AssociatedDomainService, appIDs: [String]?)] {
        AssociatedDomainService.allCases.map { ($0, self[$0]) }
    }
}

/// The audit of one domain: a record of the JSON report's `domains` array.
public struct DomainReport: Codable, Sendable, Equatable {
    public var domain: String
    /// The line of the input that listed the domain (its first line, if listed twice).
    public var inputLine: Int?
    public var expectedAppIDs: [String]
    public var verdict: Verdict
    public var fetches: [FetchRecord]
    /// The app IDs named by the `.well-known` file (the one devices read).
    public var appIDs: ServiceAppIDs
    public var findings: [Finding]
    /// The entitlement entries that named this host, when it came from `--entitlements`.
    public var entitlements: [AssociatedService]?
    /// The Android apps the input named for this host (`PACKAGE` or `PACKAGE@FINGERPRINT`),
    /// when its `assetlinks.json` was audited.
    public var expectedAndroidApps: [String]?
    /// What its `assetlinks.json` declares, when it was audited and parsed.
    public var android: AndroidDeclarations?

    public init(
        domain: String, inputLine: Int?, expectedAppIDs: [String], fetches: [FetchRecord], appIDs: ServiceAppIDs,
        findings: [Finding],
        entitlements: [AssociatedService]? = nil
    ) {
        self.domain = domain
        self.inputLine = inputLine
        self.expectedAppIDs = expectedAppIDs
        self.verdict = Verdict(findings: findings)
        self.fetches = fetches
        self.appIDs = appIDs
        self.findings = findings
        self.entitlements = entitlements
    }
}

/// One domain to audit, as the input listed it.
public struct DomainTarget: Sendable, Equatable {
    /// Normalised: lower case, no trailing dot, punycode.
    public var domain: String
    public var expectedAppIDs: [String]
    public var inputLine: Int?
    /// URLs that must open the app, or stay in the browser (`+`/`-` lines).
    public var expectations: [URLExpectation]
    /// The services an app's entitlements name this host for; empty when it came from a
    /// domains file only (then applinks is what matters).
    public var services: [AssociatedService]
    /// Android apps its `assetlinks.json` must declare (`android:` tokens).
    public var androidApps: [AndroidApp]
    /// Whether its `assetlinks.json` is audited: when Android apps are named, or `--android`.
    public var auditsAndroid: Bool

    public init(
        domain: String, expectedAppIDs: [String] = [], inputLine: Int? = nil, expectations: [URLExpectation] = [],
        services: [AssociatedService] = [],
        androidApps: [AndroidApp] = [], auditsAndroid: Bool? = nil
    ) {
        self.domain = domain
        self.expectedAppIDs = expectedAppIDs
        self.inputLine = inputLine
        self.expectations = expectations
        self.services = services
        self.androidApps = androidApps
        self.auditsAndroid = auditsAndroid ?? !androidApps.isEmpty
    }
}

/// An associated-domains entitlement entry for a host: `applinks:example.com?mode=developer`.
public struct AssociatedService: Codable, Sendable, Equatable, Hashable {
    public var service: AssociatedDomainService
    /// `developer`, `managed` or `developer+managed`; nil for the normal mode.
    public var mode: String?
    /// The entitlements file that named it.
    public var file: String

    public init(service: AssociatedDomainService, mode: String? = nil, file: String) {
        self.service = service
        self.mode = mode
        self.file = file
    }
}

/// A `+ URL` (must open one of the domain's app IDs, or any app when it lists none) or
/// `- URL` (must stay in the browser) line of the input.
public struct URLExpectation: Sendable, Equatable {
    public var url: String
    public var opensApp: Bool
    public var inputLine: Int

    public init(url: String, opensApp: Bool, inputLine: Int) {
        self.url = url
        self.opensApp = opensApp
        self.inputLine = inputLine
    }
}

/// A line of the input that could not be audited (or was merged), with why.
public struct InputProblem: Codable, Sendable, Equatable {
    public var file: String
    public var line: Int
    /// The line's text, cut to a bounded length.
    public var text: String
    public var severity: Severity
    public var message: String

    public init(file: String, line: Int, text: String, severity: Severity, message: String) {
        self.file = file
        self.line = line
        self.text = text
        self.severity = severity
        self.message = message
    }
}

/// A domain that did not pass, in brief: for a run's closing summary.
public struct FlaggedDomain: Sendable, Equatable {
    public var domain: String
    public var verdict: Verdict
    /// The codes of its findings of the worst severity, without repeats.
    public var codes: [FindingCode]

    /// Nil for a domain that passed.
    public init?(_ report: DomainReport) {
        guard report.verdict != .pass, let worst = report.findings.map(\.severity).max() else { return nil }
        domain = report.domain
        verdict = report.verdict
        var seen = Set<FindingCode>()
        codes = report.findings.filter { $0.severity == worst && seen.insert($0.code).inserted }.map(\.code)
    }
}
