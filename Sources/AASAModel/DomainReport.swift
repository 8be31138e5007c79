import Foundation

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
    /// The hosting platform or CDN its answers came from, when recognised (`HostingPlatform`).
    public var platform: HostingPlatform?
    /// When the host's TLS certificate expires: the earliest of its fetches' (Apple's CDN left
    /// out); nil when none was read.
    public var certificateExpires: Date?
    /// Its `label:KEY=VALUE` tokens of domains.txt (`DomainLabels`); absent when it has none.
    public var labels: [String: String]?
    /// `"none"` for a domain listed with `ios:none` (no AASA expected, none judged); absent
    /// otherwise.
    public var ios: String?
    /// The sections of the other association files it was audited for (`AssociationFiles.swift`),
    /// encoded at the top level of the record.
    public var associations = AssociationRecords()

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

    private enum CodingKeys: String, CodingKey {
        case domain, inputLine, expectedAppIDs, verdict, fetches, appIDs, findings, entitlements, platform,
            certificateExpires, labels, ios
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        domain = try container.decode(String.self, forKey: .domain)
        inputLine = try container.decodeIfPresent(Int.self, forKey: .inputLine)
        expectedAppIDs = try container.decode([String].self, forKey: .expectedAppIDs)
        verdict = try container.decode(Verdict.self, forKey: .verdict)
        fetches = try container.decode([FetchRecord].self, forKey: .fetches)
        appIDs = try container.decode(ServiceAppIDs.self, forKey: .appIDs)
        findings = try container.decode([Finding].self, forKey: .findings)
        entitlements = try container.decodeIfPresent([AssociatedService].self, forKey: .entitlements)
        platform = try container.decodeIfPresent(HostingPlatform.self, forKey: .platform)
        certificateExpires = try container.decodeIfPresent(Date.self, forKey: .certificateExpires)
        labels = try container.decodeIfPresent([String: String].self, forKey: .labels)
        ios = try container.decodeIfPresent(String.self, forKey: .ios)
        associations = try AssociationRecords(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(domain, forKey: .domain)
        try container.encodeIfPresent(inputLine, forKey: .inputLine)
        try container.encode(expectedAppIDs, forKey: .expectedAppIDs)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(fetches, forKey: .fetches)
        try container.encode(appIDs, forKey: .appIDs)
        try container.encode(findings, forKey: .findings)
        try container.encodeIfPresent(entitlements, forKey: .entitlements)
        try container.encodeIfPresent(platform, forKey: .platform)
        try container.encodeIfPresent(certificateExpires, forKey: .certificateExpires)
        try container.encodeIfPresent(labels, forKey: .labels)
        try container.encodeIfPresent(ios, forKey: .ios)
        try associations.encode(to: encoder)
    }
}

/// One domain to audit, as the input listed it.
///
/// What few lines have (URL expectations, an entitlement's services, the other association
/// files, labels, `ios:none`) is kept in one shared box, absent for a plain line: a list of a
/// million plain hosts pays no room for it (48 bytes a target instead of about 140).
public struct DomainTarget: Sendable, Equatable {
    /// Normalised: lower case, no trailing dot, punycode.
    public var domain: String
    public var expectedAppIDs: [String]
    public var inputLine: Int?
    private var extras: Extras?

    /// URLs that must open the app, or stay in the browser (`+`/`-` lines).
    public var expectations: [URLExpectation] {
        get { fields.expectations }
        set { update { $0.expectations = newValue } }
    }
    /// The services an app's entitlements name this host for; empty when it came from a
    /// domains file only (then applinks is what matters).
    public var services: [AssociatedService] {
        get { fields.services }
        set { update { $0.services = newValue } }
    }
    /// What it asks of the other association files (`AssociationFiles.swift`).
    public var wants: AssociationWants {
        get { fields.wants }
        set { update { $0.wants = newValue } }
    }
    /// `label:KEY=VALUE` tokens (`DomainLabels`): whose it is, for routing alerts.
    public var labels: [String: String] {
        get { fields.labels }
        set { update { $0.labels = newValue } }
    }
    /// False for `ios:none`: the domain serves no AASA (it serves only the other association files); its absence is
    /// no failure, and its other association files are audited.
    public var expectsAASA: Bool {
        get { fields.expectsAASA }
        set { update { $0.expectsAASA = newValue } }
    }

    /// The one value of the iOS choice that says so: `ios:none` in domains.txt, `--ios none`
    /// for `check`, `ios=none` for serve's form and API, `"ios": "none"` in a record.
    public static let iosNone = "none"

    /// Reads the iOS choice's value (`none`, any case); nil for any other.
    public static func expectsAASA(choice: String) -> Bool? {
        choice.lowercased() == iosNone ? false : nil
    }

    public init(
        domain: String, expectedAppIDs: [String] = [], inputLine: Int? = nil, expectations: [URLExpectation] = [],
        services: [AssociatedService] = [], wants: AssociationWants = AssociationWants()
    ) {
        self.domain = domain
        self.expectedAppIDs = expectedAppIDs
        self.inputLine = inputLine
        update {
            $0.expectations = expectations
            $0.services = services
            $0.wants = wants
        }
    }

    public static func == (a: DomainTarget, b: DomainTarget) -> Bool {
        a.domain == b.domain && a.expectedAppIDs == b.expectedAppIDs && a.inputLine == b.inputLine
            && a.fields == b.fields
    }

    private struct Fields: Sendable, Equatable {
        var expectations: [URLExpectation] = []
        var services: [AssociatedService] = []
        var wants = AssociationWants()
        var labels: [String: String] = [:]
        var expectsAASA = true
    }

    /// Immutable: a change makes a new box, so copies of a target never share a change.
    private final class Extras: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private static let plain = Fields()

    private var fields: Fields { extras?.fields ?? Self.plain }

    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = fields
        change(&fields)
        extras = fields == Self.plain ? nil : Extras(fields)
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
    /// What kind of problem it is (`InputProblemCode`); absent in reports written before codes.
    public var code: InputProblemCode?
    public var file: String
    public var line: Int
    /// The line's text, cut to a bounded length.
    public var text: String
    /// The catalog's (`InputProblemCode.severity`).
    public var severity: Severity
    public var message: String

    /// At an explicit severity, inside the model only (tests reach it with `@testable`):
    /// everywhere else a problem's severity comes from its code.
    init(file: String, line: Int, text: String, severity: Severity, message: String) {
        self.file = file
        self.line = line
        self.text = text
        self.severity = severity
        self.message = message
    }
}

/// A domain that did not pass, in brief: for a run's closing summary.
/// A fleet may flag a million of them: each is its name, its position and a shared `Shape`
/// (32 bytes a domain): a fleet's failures mostly say the same few things, stored once
/// (`share`).
public struct FlaggedDomain: Sendable, Equatable {
    public var domain: String
    private var shape: ShapeBox
    private var storedPosition: Int32 = 0

    /// Its place in the run's input (0 until the run sets it).
    public var position: Int {
        get { Int(storedPosition) }
        set { storedPosition = Int32(clamping: newValue) }
    }
    public var verdict: Verdict { shape.value.verdict }
    /// The codes of its causes (findings that follow from no other) of the worst severity,
    /// without repeats.
    public var codes: [FindingCode] { shape.value.codes }
    /// The verdict of its findings no acknowledgement covers (`Finding.isOpen`): what fails the
    /// exit status and `--quiet`, and what the alert hears.
    public var openVerdict: Verdict { shape.value.openVerdict }
    /// The codes of its open causes of the worst open severity (empty when all are acknowledged).
    public var openCodes: [FindingCode] { shape.value.openCodes }
    /// Its open causes that are errors or warnings, a code once, with its worst severity: what
    /// Alertmanager gets an alert for each of.
    public var openCauses: [OpenCause] {
        shape.value.causes.map { cause in
            OpenCause(
                code: cause.code, severity: cause.severity, message: cause.message.joined(separator: domain),
                platformFix: cause.platformFix)
        }
    }
    /// The acknowledgement of its findings, when one covers any.
    public var acknowledged: AcknowledgementMark? { shape.value.acknowledged }
    /// Its domains.txt labels, for routing its alert.
    public var labels: [String: String]? { shape.value.labels }
    /// Whether the run did not check it (`FindingCode.notChecked(headlines:)`).
    public var notChecked: Bool { shape.value.notChecked }

    public struct OpenCause: Sendable, Hashable {
        public var code: FindingCode
        public var severity: Severity
        /// The first such finding's message.
        public var message: String
        public var platformFix: PlatformFix?
    }

    /// Everything but the name: equal for most of a fleet's failing domains.
    fileprivate struct Shape: Sendable, Hashable {
        var verdict: Verdict
        var codes: [FindingCode]
        var openVerdict: Verdict
        var openCodes: [FindingCode]
        /// The causes with their messages cut where they name the domain: curl's words name
        /// the host ("… in connection to example.com:443"); so cut, equal failures are equal.
        var causes: [StoredCause]
        var acknowledged: AcknowledgementMark?
        var labels: [String: String]?
        var notChecked: Bool
    }

    fileprivate struct StoredCause: Sendable, Hashable {
        var code: FindingCode
        var severity: Severity
        /// The message's parts between the places that name the domain.
        var message: [String]
        var platformFix: PlatformFix?
    }

    /// Immutable: shared by every flagged domain of the same shape.
    fileprivate final class ShapeBox: Sendable, Hashable {
        let value: Shape
        init(_ value: Shape) { self.value = value }
        static func == (a: ShapeBox, b: ShapeBox) -> Bool { a === b || a.value == b.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }

    /// Nil for a domain that passed.
    public init?(_ report: DomainReport) {
        let causes = report.findings.filter { $0.causedBy == nil }
        guard report.verdict != .pass, causes.map(\.severity).max() != nil else { return nil }
        domain = report.domain
        func worstCodes(_ findings: [Finding]) -> [FindingCode] {
            guard let worst = findings.map(\.severity).max() else { return [] }
            var seen = Set<FindingCode>()
            return findings.filter { $0.severity == worst && seen.insert($0.code).inserted }.map(\.code)
        }
        let open = report.findings.filter(\.isOpen)
        let openVerdict = Verdict(findings: open)
        var found: [StoredCause] = []
        for finding in open where finding.isHeadline {
            if let index = found.firstIndex(where: { $0.code == finding.code }) {
                found[index].severity = max(found[index].severity, finding.severity)
            } else {
                found.append(
                    StoredCause(
                        code: finding.code, severity: finding.severity,
                        message: finding.message.components(separatedBy: report.domain),
                        platformFix: finding.platformFix))
            }
        }
        shape = ShapeBox(
            Shape(
                verdict: report.verdict, codes: worstCodes(causes), openVerdict: openVerdict,
                openCodes: openVerdict == .pass ? [] : worstCodes(open.filter { $0.causedBy == nil }), causes: found,
                acknowledged: report.findings.lazy.compactMap(\.acknowledged).first, labels: report.labels,
                notChecked: FindingCode.notChecked(headlines: causes.lazy.filter(\.isHeadline).map(\.code))))
    }

    /// Its shape stored once for all the domains that have an equal one (`pool`).
    public mutating func share(_ pool: inout SharedParts) {
        shape = pool.share(shape)
    }

    /// Equal shapes of many flagged domains, stored once: a fleet's failures mostly repeat a
    /// few (a million hosts refusing connections say the same thing).
    public struct SharedParts: Sendable {
        private var shapes = SharedValues<ShapeBox>()

        public init() {}

        fileprivate mutating func share(_ value: ShapeBox) -> ShapeBox { shapes.share(value) }
    }

    public static func == (a: FlaggedDomain, b: FlaggedDomain) -> Bool {
        a.domain == b.domain && a.storedPosition == b.storedPosition && a.shape == b.shape
    }
}

/// Equal values stored once (Swift's arrays and strings share their storage when copied): at
/// most `limit` distinct values are pooled, so that values that never repeat (a message that
/// names its host) cost no more than without the pool.
public struct SharedValues<Value: Hashable & Sendable>: Sendable {
    public static var limit: Int { 4096 }
    private var pool: [Value: Value] = [:]

    public init() {}

    public mutating func share(_ value: Value) -> Value {
        if let shared = pool[value] { return shared }
        if pool.count < Self.limit { pool[value] = value }
        return value
    }
}
