/// `/.well-known/passkey-endpoints` (W3C WebAppSec "Passkey Endpoints", WD 2026-01-14): where
/// credential managers send a user to create or manage a passkey. The registry's entry.
extension AssociationKind {
    public static let passkeyEndpoints = AssociationKind(
        id: "passkey-endpoints", word: "passkeys", fileName: "passkey-endpoints",
        path: "/.well-known/passkey-endpoints",
        categoryName: "passkeyEndpoints", categoryTitle: "Passkeys: /.well-known/passkey-endpoints and change-password",
        linkedFetchLabel: "passkeys page", room: "Passkeys", ownsItsWord: false, formLabel: "Passkeys",
        formPlaceholder: AssociationKind.flagPlaceholder,
        apiParameter:
            "on: the domain declares passkeys: its AASA's webcredentials must name the app IDs, its android apps need get_login_creds, and /.well-known/passkey-endpoints (with each endpoint's page), /.well-known/webauthn and /.well-known/change-password are read (a 404 is a note).",
        platform: .passkeys, wantType: PasskeyEndpointsWant.self,
        sectionType: PasskeyEndpointsRecord.self,
        recordKey: PasskeyEndpointsRecord.CodingKeys.passkeyEndpoints.stringValue,
        wantAlone: nil, alsoServes: [.changePassword], codes: PasskeyEndpointsCode.self,
        fetchedBy: "password managers",
        serving: ServingCodes(
            status: .passkeyEndpoints(.status), redirect: .passkeyEndpoints(.redirect),
            contentType: .passkeyEndpoints(.contentType),
            syntax: [.passkeyEndpoints(.jsonInvalid), .passkeyEndpoints(.notObject)]))
}

/// A domain that declares passkeys (`passkeys` in domains.txt, `check --passkeys`): its
/// `/.well-known/passkey-endpoints` is audited when it serves one.
public struct PasskeyEndpointsWant: AssociationWant, Equatable {
    public static var kind: AssociationKind { .passkeyEndpoints }

    public init() {}

    /// The bare token, or a parameter that says yes (`passkeys=on`).
    public static func parsing(_ values: [String]) throws(AssociationValueError) -> any AssociationWant {
        if let other = values.first(where: { !["", "1", "on", "yes", "true"].contains($0.lowercased()) }) {
            throw AssociationValueError(
                value: String(other.prefix(80)),
                reason: "passkeys takes no value (\"\(other.prefix(80))\"): write passkeys")
        }
        return PasskeyEndpointsWant()
    }

    public func merging(_ other: PasskeyEndpointsWant) -> PasskeyEndpointsWant { self }
}

/// The endpoints a `/.well-known/passkey-endpoints` advertises (each an absolute https URL).
public struct PasskeyEndpoints: Codable, Sendable, Equatable {
    /// Whether the site serves the file (200 and a JSON object); false when it serves none.
    public var served: Bool
    public var enroll: String?
    public var manage: String?
    public var prfUsageDetails: String?

    public init(served: Bool, enroll: String? = nil, manage: String? = nil, prfUsageDetails: String? = nil) {
        self.served = served
        self.enroll = enroll
        self.manage = manage
        self.prfUsageDetails = prfUsageDetails
    }

    /// The endpoints' names in the specification, in its order.
    public static let names = ["enroll", "manage", "prfUsageDetails"]

    /// The advertised endpoints, by name, in the specification's order.
    public var advertised: [(name: String, url: String)] {
        zip(Self.names, [enroll, manage, prfUsageDetails]).compactMap { name, url in url.map { (name, $0) } }
    }
}

/// `/.well-known/passkey-endpoints`' section of a domain's record.
public struct PasskeyEndpointsRecord: AssociationSection, Equatable {
    public static var kind: AssociationKind { .passkeyEndpoints }
    public var passkeyEndpoints: PasskeyEndpoints?

    enum CodingKeys: String, CodingKey {
        case passkeyEndpoints
    }

    public init(passkeyEndpoints: PasskeyEndpoints?) { self.passkeyEndpoints = passkeyEndpoints }

    public func merging(_ other: PasskeyEndpointsRecord) -> PasskeyEndpointsRecord {
        PasskeyEndpointsRecord(passkeyEndpoints: other.passkeyEndpoints ?? passkeyEndpoints)
    }

    public static func decodeIfPresent(from decoder: any Decoder) throws -> PasskeyEndpointsRecord? {
        let section = try PasskeyEndpointsRecord(from: decoder)
        return section.passkeyEndpoints == nil ? nil : section
    }
}

extension AASALocation {
    /// `/.well-known/passkey-endpoints`, and the endpoint pages it names.
    public static let passkeyEndpoints = AssociationKind.passkeyEndpoints.location
    /// `/.well-known/change-password`, and the page it redirects to.
    public static let changePassword = AssociationKind.passkeyEndpoints.location(of: .changePassword)
}

extension FindingLocation {
    /// `/.well-known/passkey-endpoints` and the pages it names.
    public static let passkeyEndpoints = AssociationKind.passkeyEndpoints.findingLocation
    /// `/.well-known/change-password` and the page it leads to.
    public static let changePassword = FindingLocation(.changePassword)
}

extension LinkPlatform {
    /// Passkeys (and the passwords iOS shares through `webcredentials`): named by a badge of a
    /// domain that declares passkeys or lists an origin, or whose AASA is held for webcredentials
    /// only.
    public static let passkeys = LinkPlatform(rawValue: "passkeys", linkName: "passkeys", shortName: "passkeys")
}

extension AlsoServedFile {
    /// `/.well-known/change-password` (W3C "A Well-Known URL for Changing Passwords"), read for a
    /// domain that declares passkeys.
    public static let changePassword = AlsoServedFile(name: "change-password", path: "/.well-known/change-password")
}

extension AssociationWants {
    /// Whether the domain declares passkeys (`passkeys`): its app IDs must be named in the AASA's
    /// webcredentials and its Android apps given `get_login_creds`; `webauthn`,
    /// `passkey-endpoints` and `change-password` are read when served.
    public var declaresPasskeys: Bool { self[PasskeyEndpointsWant.self] != nil }
}
