/// Apple Pay on the web: `/.well-known/apple-developer-merchantid-domain-association`, the file
/// a merchant (or its payment provider) serves so that Apple verifies the domain for Apple Pay
/// (Apple's "Setting up your server" and "Maintaining your environment"). The registry's entry
/// (issue 58).
extension AssociationKind {
    public static let applePay = AssociationKind(
        id: "applepay", word: "applepay", fileName: "apple-developer-merchantid-domain-association",
        path: "/.well-known/apple-developer-merchantid-domain-association", categoryName: "applepay",
        categoryTitle: "Apple Pay on the web: apple-developer-merchantid-domain-association",
        linkedFetchLabel: "the merchant file as .txt", room: "ApplePay", isJSON: false,
        formLabel: "Apple Pay merchant file",
        formPlaceholder: "on, or the provider file's SHA-256",
        apiParameter:
            "Audits the domain's Apple Pay merchant file: `on`, or the SHA-256 (hex) its bytes must have (the payment provider's file).",
        platform: .applePay, wantType: ApplePayWant.self, sectionType: ApplePayRecord.self,
        recordKey: ApplePayRecord.CodingKeys.expectedApplePaySHA256.stringValue, wantAlone: nil,
        codes: ApplePayCode.self, fetchedBy: "Apple's domain verification",
        serving: ServingCodes(
            status: .applePay(.status), redirect: .applePay(.redirect), contentType: nil,
            syntax: [.applePay(.page)]))
}

/// Facts of Apple Pay's domain verification.
public enum ApplePayLimits {
    /// What this audit reads of the file: Apple documents no size; the files providers issue
    /// are a few kilobytes of hex.
    public static let maximumFileBytes = 1 << 16
    /// Apple verifies the domain again before its TLS certificate expires (30, 15 and 7 days
    /// before), and a lapsed certificate means registering the domain again: warned this far ahead.
    public static let certificateWarningDays = 30
    /// The suites Apple's servers offer (TLS 1.2 or later), by their OpenSSL names: TLS 1.3's
    /// two, then TLS 1.2's four (Apple's "Setting up your server").
    public static let tls13Suites = ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"]
    public static let tls12Suites = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384",
    ]
}

/// What a domain's line asks of its merchant file: `applepay` (served as Apple fetches it), or
/// `applepay:SHA256` (and its bytes must hash to that: the provider's file).
public struct ApplePayWant: AssociationWant, Equatable {
    public static var kind: AssociationKind { .applePay }
    /// The SHA-256 its bytes must have, lower-case hex; nil: any file.
    public var sha256: String?

    public init(sha256: String? = nil) { self.sha256 = sha256 }

    /// Why `value` is not a SHA-256 in hex, or nil when it is one.
    public static func problem(with value: String) -> String? {
        let hex = value.lowercased()
        guard hex.count == 64, hex.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) })
        else {
            return
                "\"\(value.prefix(80))\" is not a SHA-256 in hex (64 characters 0-9, a-f: `shasum -a 256 apple-developer-merchantid-domain-association`)"
        }
        return nil
    }

    public static func parsing(_ values: [String]) throws(AssociationValueError) -> any AssociationWant {
        var want = ApplePayWant()
        for value in values where value != AssociationKind.flagPlaceholder {
            if let problem = problem(with: value) {
                throw AssociationValueError(value: String(value.prefix(120)), reason: problem)
            }
            if let sha256 = want.sha256, sha256 != value.lowercased() {
                throw AssociationValueError(
                    value: String(value.prefix(120)),
                    reason: "a domain serves one merchant file, and \(sha256) is named")
            }
            want.sha256 = value.lowercased()
        }
        return want
    }

    /// The other's hash wins when it names one (a later line or option).
    public func merging(_ other: ApplePayWant) -> ApplePayWant { ApplePayWant(sha256: other.sha256 ?? sha256) }
}

/// What a merchant file was served as: how many bytes, their SHA-256 (kept in the history: a
/// changed file is news), and what its `Content-Type` said (Apple checks none).
public struct ApplePayFile: Codable, Sendable, Equatable {
    public var bytes: Int
    public var sha256: String
    public var contentType: String?
    /// The TLS version and suite the connection negotiated with Apple's offers.
    public var tls: NegotiatedTLS?

    public init(bytes: Int, sha256: String, contentType: String? = nil, tls: NegotiatedTLS? = nil) {
        self.bytes = bytes
        self.sha256 = sha256
        self.contentType = contentType
        self.tls = tls
    }
}

/// The merchant file's section of a domain's record.
public struct ApplePayRecord: ExpectedAndReadSection {
    public static var kind: AssociationKind { .applePay }
    public static var fields: (expected: WritableKeyPath<Self, [String]?>, read: WritableKeyPath<Self, ApplePayFile?>) {
        (\.expectedApplePaySHA256, \.applePay)
    }
    /// The SHA-256 the input named (empty: any file).
    public var expectedApplePaySHA256: [String]?
    /// What was served, when a file was.
    public var applePay: ApplePayFile?

    enum CodingKeys: String, CodingKey {
        case expectedApplePaySHA256, applePay
    }

    public init(expectedApplePaySHA256: [String]? = nil, applePay: ApplePayFile? = nil) {
        self.expectedApplePaySHA256 = expectedApplePaySHA256
        self.applePay = applePay
    }
}

/// The merchant file is issued by Apple or the provider and may change (a deploy that overwrites
/// it breaks Apple's next check): its SHA-256 is kept from night to night.
extension ApplePayRecord: DigestedSection {
    public var contentDigest: String? { applePay?.sha256 }
}

extension AASALocation {
    /// `/.well-known/apple-developer-merchantid-domain-association`.
    public static let applePay = AssociationKind.applePay.location
}

extension FindingLocation {
    public static let applePay = AssociationKind.applePay.findingLocation
}

extension LinkPlatform {
    /// Apple Pay on the web.
    public static let applePay = LinkPlatform(rawValue: "applepay", linkName: "Apple Pay", shortName: "Apple Pay")
}
