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
