/// The seam in the model: what a domain's line asks of the association files besides the AASA
/// and its record's sections of them, held by kind. A kind's own types live in a folder of their
/// own (`Android/` for `assetlinks.json`) and its entry in the registry (`AssociationKind.swift`;
/// `docs/architecture.md`, "Association files").

/// What a domain's line asks of one kind's file: the kind's own type (`AndroidWant`), held in
/// `AssociationWants` under its kind.
public protocol AssociationWant: Sendable {
    /// The kind it is a want of.
    static var kind: AssociationKind { get }
    /// Also what `other` asks for (`--android` on a whole list, a host in two inputs).
    func merging(_ other: Self) -> Self
    func isEqual(to other: any AssociationWant) -> Bool
    /// What the values of the kind's parameter ask for (`serve`'s `?android=PACKAGE@FP`, each
    /// value as domains.txt's token takes it); an error names the value and why.
    static func parsing(_ values: [String]) throws(AssociationValueError) -> any AssociationWant
}

/// A value given for an association kind that says nothing it can use.
public struct AssociationValueError: Error, Sendable {
    public let value: String
    /// Why, as a phrase that names the value (`"example" is not an Android package name`).
    public let reason: String

    public init(value: String, reason: String) {
        self.value = value
        self.reason = reason
    }
}

extension AssociationWant where Self: Equatable {
    public func isEqual(to other: any AssociationWant) -> Bool { (other as? Self) == self }
}

/// What a domain's line asks of the association files besides the AASA: one want per kind it
/// is audited for.
public struct AssociationWants: Sendable, Equatable {
    private var byKind: [String: any AssociationWant] = [:]

    public init() {}

    /// A kind's want; nil when the kind is not audited.
    public subscript<Want: AssociationWant>(_ type: Want.Type) -> Want? {
        get { byKind[Want.kind.id] as? Want }
        set { byKind[Want.kind.id] = newValue }
    }

    /// Each want, in the registry's order.
    public var all: [any AssociationWant] { AssociationKinds.all.compactMap { byKind[$0.id] } }

    /// Sets its kind's want.
    public mutating func insert(_ want: any AssociationWant) { byKind[type(of: want).kind.id] = want }

    /// Also audits what `other` asks for (`--android` on a whole list, a host in two inputs).
    public mutating func merge(_ other: AssociationWants) {
        for (kind, want) in other.byKind {
            byKind[kind] = byKind[kind].map { Self.merged($0, want) } ?? want
        }
    }

    private static func merged<Want: AssociationWant>(_ mine: Want, _ other: any AssociationWant) -> any AssociationWant
    {
        (other as? Want).map(mine.merging) ?? mine
    }

    public static func == (lhs: AssociationWants, rhs: AssociationWants) -> Bool {
        lhs.byKind.count == rhs.byKind.count
            && lhs.byKind.allSatisfy { kind, want in rhs.byKind[kind].map(want.isEqual) ?? false }
    }
}

/// A kind's section of a domain's record (`AndroidRecord`). Its members stand at the top level
/// of the record (`DomainReport`, `LintRecord`): their keys are part of the versioned schema.
public protocol AssociationSection: Codable, Sendable {
    static var kind: AssociationKind { get }
    /// Takes what `other` has.
    func merging(_ other: Self) -> Self
    func isEqual(to other: any AssociationSection) -> Bool
    /// The section a record holds, read from the record's decoder; nil when it holds none.
    static func decodeIfPresent(from decoder: any Decoder) throws -> Self?
}

extension AssociationSection where Self: Equatable {
    public func isEqual(to other: any AssociationSection) -> Bool { (other as? Self) == self }
}

/// A section whose file is opaque bytes that a party issues (Apple Pay's merchant file): the
/// digest of what was served is kept from night to night, and a change of it is news
/// (`DomainChange.changedFiles`), though the file may pass both nights.
public protocol DigestedSection: AssociationSection {
    /// The served file's digest (lower-case hex SHA-256), when a file was served.
    var contentDigest: String? { get }
}

extension AssociationRecords {
    /// The digests of the files whose sections keep one, by kind (`DigestedSection`); nil when
    /// there are none.
    public var contentDigests: [String: String]? {
        let digests = all.compactMap { section -> (String, String)? in
            guard let digested = section as? any DigestedSection, let digest = digested.contentDigest else {
                return nil
            }
            return (type(of: section).kind.id, digest)
        }
        return digests.isEmpty ? nil : Dictionary(digests, uniquingKeysWith: { first, _ in first })
    }

    /// The same, read from a domain record's decoder: only the digested kinds' sections the
    /// record has (`AssociationKind.recordKey`) are decoded (a previous run of a million
    /// domains is read this way).
    public static func contentDigests(record decoder: any Decoder) throws -> [String: String]? {
        let container = try decoder.container(keyedBy: LinkPlatform.RecordKey.self)
        var records = AssociationRecords()
        for kind in AssociationKinds.all
        where kind.sectionType is any DigestedSection.Type && container.contains(LinkPlatform.RecordKey(kind.recordKey))
        {
            if let section = try kind.sectionType.decodeIfPresent(from: decoder) {
                records.merge(AssociationRecords(section))
            }
        }
        return records.contentDigests
    }
}

/// A section of what the input expects of a file and what the file was read to say, each absent
/// until known (Android's, Windows', HarmonyOS', WebAuthn's): merged field by field, the other's
/// winning, and absent from a record that holds neither. A kind names its two members, whose
/// keys are its own in the schema.
public protocol ExpectedAndReadSection: AssociationSection, Equatable {
    associatedtype Read: Sendable
    static var fields: (expected: WritableKeyPath<Self, [String]?>, read: WritableKeyPath<Self, Read?>) { get }
}

extension ExpectedAndReadSection {
    /// What the input expects, when the file was audited.
    public var expected: [String]? { self[keyPath: Self.fields.expected] }
    /// What the file says, when it was read.
    public var read: Read? { self[keyPath: Self.fields.read] }

    public func merging(_ other: Self) -> Self {
        var merged = self
        merged[keyPath: Self.fields.expected] = other.expected ?? expected
        merged[keyPath: Self.fields.read] = other.read ?? read
        return merged
    }

    public static func decodeIfPresent(from decoder: any Decoder) throws -> Self? {
        let section = try Self(from: decoder)
        return section.expected == nil && section.read == nil ? nil : section
    }
}

/// A domain record's sections for those files, one per kind audited.
public struct AssociationRecords: Codable, Sendable, Equatable {
    private var byKind: [String: any AssociationSection] = [:]

    public init() {}

    /// A record of one section.
    public init(_ section: any AssociationSection) {
        byKind[type(of: section).kind.id] = section
    }

    /// A kind's section; nil when the record has none.
    public subscript<Section: AssociationSection>(_ type: Section.Type) -> Section? {
        get { byKind[Section.kind.id] as? Section }
        set { byKind[Section.kind.id] = newValue }
    }

    /// The kinds whose sections the record has, in the registry's order.
    public var kinds: [AssociationKind] { AssociationKinds.all.filter { byKind[$0.id] != nil } }

    /// Each section, in the registry's order.
    public var all: [any AssociationSection] { AssociationKinds.all.compactMap { byKind[$0.id] } }

    /// Takes the sections `other` has.
    public mutating func merge(_ other: AssociationRecords) {
        for (kind, section) in other.byKind {
            byKind[kind] = byKind[kind].map { Self.merged($0, section) } ?? section
        }
    }

    private static func merged<Section: AssociationSection>(_ mine: Section, _ other: any AssociationSection)
        -> any AssociationSection
    {
        (other as? Section).map(mine.merging) ?? mine
    }

    public init(from decoder: any Decoder) throws {
        for kind in AssociationKinds.all {
            if let section = try kind.sectionType.decodeIfPresent(from: decoder) { byKind[kind.id] = section }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        for section in all { try section.encode(to: encoder) }
    }

    public static func == (lhs: AssociationRecords, rhs: AssociationRecords) -> Bool {
        lhs.byKind.count == rhs.byKind.count
            && lhs.byKind.allSatisfy { kind, section in rhs.byKind[kind].map(section.isEqual) ?? false }
    }
}

/// The platforms a domain's verdict speaks for: iOS's universal links unless the domain serves no
/// AASA (`ios:none`), or passkeys when its AASA is held for `webcredentials` only; and each
/// kind's (`AssociationKind.platform`: Android's App Links, passkeys). A badge names them; the
/// history keeps them.
public struct LinkPlatform: Sendable, Hashable {
    /// Its name in the history: `ios`, `passkeys`, or the kind's (`android`).
    public let rawValue: String
    /// What teams call what it opens, when a badge names it alone (`universal links`).
    public let linkName: String
    /// Its name among others (`iOS`).
    public let shortName: String

    public static let ios = LinkPlatform(rawValue: "ios", linkName: "universal links", shortName: "iOS")

    init(rawValue: String, linkName: String, shortName: String) {
        self.rawValue = rawValue
        self.linkName = linkName
        self.shortName = shortName
    }

    /// A platform by its name in the history.
    init?(rawValue: String) {
        guard
            let platform = AssociationKinds.files.compactMap(\.platform).first(where: {
                $0.rawValue == rawValue
            })
        else { return nil }
        self = platform
    }

    /// The platforms of a record: `ios` its `ios` field (`"none"` or absent), `audited` the kinds
    /// whose sections it has, `services` the entitlements that named it (nil: the AASA is held for
    /// universal links).
    public static func of(ios: String?, audited: [AssociationKind], services: [AssociatedService]? = nil)
        -> [LinkPlatform]
    {
        var platforms: [LinkPlatform] = []
        if ios != AASAWant.iosNone {
            let webCredentialsOnly =
                services.map { !$0.isEmpty && $0.allSatisfy { $0.service == .webcredentials } } ?? false
            platforms.append(webCredentialsOnly ? .passkeys : .ios)
        }
        for platform in audited.compactMap(\.platform) where !platforms.contains(platform) {
            platforms.append(platform)
        }
        return platforms
    }

    /// The history's spelling of a set (`android`, `ios+android`); nil for iOS alone, what a
    /// domain is unless its line says otherwise (and what every run before this was kept is).
    public static func historyKey(_ platforms: [LinkPlatform]) -> String? {
        platforms == [.ios] ? nil : platforms.map(\.rawValue).joined(separator: "+")
    }

    /// A history key read back; iOS alone for nil, nil for a key that names no platform.
    public static func platforms(historyKey key: String?) -> [LinkPlatform]? {
        guard let key else { return [.ios] }
        let platforms = key.split(separator: "+").compactMap { LinkPlatform(rawValue: String($0)) }
        return platforms.isEmpty ? nil : platforms
    }

    /// A badge's label: one platform's links (`universal links`), or several platforms' short
    /// names (`iOS+Android`), the last counted when they would not fit
    /// (`iOS+Android+passkeys+Windows+2 more`), so that a domain of every kind still has a badge
    /// of README width.
    public static func label(_ platforms: [LinkPlatform]) -> String {
        guard platforms.count > 1 else { return platforms.first?.linkName ?? "" }
        let whole = platforms.map(\.shortName).joined(separator: "+")
        guard whole.count > maximumLabelCharacters else { return whole }
        for named in stride(from: platforms.count - 1, to: 0, by: -1) {
            let label =
                platforms.prefix(named).map(\.shortName).joined(separator: "+") + "+\(platforms.count - named) more"
            if label.count <= maximumLabelCharacters { return label }
        }
        return "\(platforms.count) platforms"
    }

    /// The longest label a badge of README width holds beside its verdict (320 px).
    static let maximumLabelCharacters = 38
}

extension DomainReport {
    /// The platforms its verdict speaks for.
    public var linkPlatforms: [LinkPlatform] {
        LinkPlatform.of(ios: ios, audited: associations.kinds, services: entitlements)
    }
}

extension LinkPlatform {
    /// The platforms of a domain's record as the report writes it (its `ios` and its other
    /// files' sections, at the top level), read by a decoder of that record without decoding the
    /// sections: a kind's section is there when its key is (`AssociationKind.recordKey`).
    public static func of(record decoder: any Decoder) throws -> [LinkPlatform] {
        let container = try decoder.container(keyedBy: RecordKey.self)
        return of(
            ios: try container.decodeIfPresent(String.self, forKey: RecordKey("ios")),
            audited: AssociationKinds.all.filter { container.contains(RecordKey($0.recordKey)) },
            services: try container.decodeIfPresent([AssociatedService].self, forKey: RecordKey("entitlements")))
    }

    struct RecordKey: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

extension AssociationWants {
    /// What a domain that serves no AASA (`ios:none`) is audited for when its line names no
    /// other file: the kinds audited alone (`AssociationKind.wantAlone`), for any app.
    public var withoutAASA: AssociationWants {
        guard self == AssociationWants() else { return self }
        var wants = AssociationWants()
        for kind in AssociationKinds.all { kind.wantAlone.map { wants.byKind[kind.id] = $0 } }
        return wants
    }
}
