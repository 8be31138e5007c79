/// `/.well-known/webauthn` (WebAuthn Level 3, "Using Web Authentication across related origins"):
/// the origins other than the RP ID's own that may use its passkeys. The registry's entry.
extension AssociationKind {
    public static let webauthn = AssociationKind(
        id: "webauthn", word: "origin", fileName: "webauthn", path: "/.well-known/webauthn",
        categoryName: "webauthn", categoryTitle: "Passkeys: /.well-known/webauthn (related origins)",
        linkedFetchLabel: "webauthn after a redirect", room: "Passkeys", ownsItsWord: false,
        formLabel: "Related origin",
        formPlaceholder: "https://shop.example",
        apiParameter:
            "An origin the domain's /.well-known/webauthn must allow for its passkeys, https://HOST[:PORT] (repeatable, at most 20); the file is then audited as Chromium and Firefox read it.",
        platform: .passkeys, wantType: WebAuthnWant.self,
        sectionType: WebAuthnRecord.self, recordKey: WebAuthnRecord.CodingKeys.expectedOrigins.stringValue,
        wantAlone: nil, codes: WebAuthnCode.self, fetchedBy: "browsers",
        serving: ServingCodes(
            status: .webAuthn(.status), redirect: .webAuthn(.redirect), contentType: .webAuthn(.contentType),
            syntax: [.webAuthn(.jsonInvalid), .webAuthn(.shape)]))
}

/// What clients of the file read: limits from Chromium's `webauth_request_security_checker.cc`
/// and Firefox's `WebAuthnRelatedOriginFetcher.sys.mjs`.
public enum WebAuthnLimits {
    /// The body a client reads (Chromium's `kRpIdMaxBodyBytes`); a longer file is not read.
    public static let maximumBodyBytes = 1 << 18
    /// Distinct registrable-domain labels counted; later new labels are dropped.
    public static let maximumLabels = 5
    /// Redirects this audit follows (over https only) before it stops.
    public static let maximumRedirects = 5
}

/// What a domain's line asks of its `/.well-known/webauthn`: the origins that must be able to use
/// its passkeys (`origin:https://shop.example`).
public struct WebAuthnWant: AssociationWant, Equatable {
    public static var kind: AssociationKind { .webauthn }
    /// Serialized origins (`https://shop.example`, a port only when not 443), each once.
    public var origins: [String]

    public init(origins: [String]) { self.origins = origins }

    /// Each value an https origin (`https://HOST[:PORT]`, nothing after it).
    public static func parsing(_ values: [String]) throws(AssociationValueError) -> any AssociationWant {
        guard !values.isEmpty else {
            throw AssociationValueError(value: "", reason: "names no origin: write origin:https://HOST")
        }
        var origins: [String] = []
        for value in values {
            guard let origin = WebOrigin(value), origin.scheme == "https", origin.isBare else {
                let shown = String(value.prefix(200))
                throw AssociationValueError(
                    value: shown, reason: "\"\(shown)\" is not an https origin (https://HOST or https://HOST:PORT)")
            }
            if !origins.contains(origin.serialized) { origins.append(origin.serialized) }
        }
        return WebAuthnWant(origins: origins)
    }

    public func merging(_ other: WebAuthnWant) -> WebAuthnWant {
        WebAuthnWant(origins: origins + other.origins.filter { !origins.contains($0) })
    }
}

/// `/.well-known/webauthn`'s section of a domain's record.
public struct WebAuthnRecord: ExpectedAndReadSection {
    public static var kind: AssociationKind { .webauthn }
    public static var fields:
        (expected: WritableKeyPath<Self, [String]?>, read: WritableKeyPath<Self, WebAuthnDeclarations?>)
    {
        (\.expectedOrigins, \.webauthn)
    }
    /// The origins the input expects the file to allow.
    public var expectedOrigins: [String]?
    /// What the file allows, as clients read it, when it was read.
    public var webauthn: WebAuthnDeclarations?

    enum CodingKeys: String, CodingKey {
        case expectedOrigins, webauthn
    }

    public init(expectedOrigins: [String]? = nil, webauthn: WebAuthnDeclarations? = nil) {
        self.expectedOrigins = expectedOrigins
        self.webauthn = webauthn
    }
}

/// What a `/.well-known/webauthn` allows, read as Chromium reads it.
public struct WebAuthnDeclarations: Codable, Sendable, Equatable {
    /// The origins a passkey request may come from, in the file's order.
    public var origins: [String]
    /// The registrable-domain labels counted (at most five).
    public var labels: [String]
    /// Entries dropped because their label came after the fifth.
    public var dropped: [String]

    public init(origins: [String] = [], labels: [String] = [], dropped: [String] = []) {
        self.origins = origins
        self.labels = labels
        self.dropped = dropped
    }
}

extension AASALocation {
    /// `/.well-known/webauthn`, and the https redirects a client follows from it.
    public static let webauthn = AssociationKind.webauthn.location
}

extension FindingLocation {
    /// `/.well-known/webauthn`.
    public static let webauthn = AssociationKind.webauthn.findingLocation
}

extension AssociationWants {
    /// `/.well-known/webauthn`: the origins it must allow; nil when it is not audited.
    public var webauthnOrigins: [String]? { self[WebAuthnWant.self]?.origins }
}

extension AssociationRecords {
    /// `/.well-known/webauthn`: what it allows, when it was audited and read.
    public var webauthn: WebAuthnDeclarations? { self[WebAuthnRecord.self]?.webauthn }
}
