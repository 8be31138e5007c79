/// HarmonyOS App Linking: `applinking.json`, which lets a HarmonyOS app open a site's links
/// (OpenHarmony's `app-linking-startup.md`, Huawei's App Linking guide). The registry's entry.
extension AssociationKind {
    public static let harmony = AssociationKind(
        id: "harmony", word: "harmony", fileName: "applinking.json", path: "/.well-known/applinking.json",
        categoryName: "harmony", categoryTitle: "HarmonyOS App Linking: applinking.json",
        linkedFetchLabel: "applinking.json", room: "Harmony", formLabel: "HarmonyOS app",
        formPlaceholder: "5765880207854972765",
        apiParameter:
            "A HarmonyOS app (AppGallery Connect app identifier) the domain's /.well-known/applinking.json must name (repeatable, at most 20).",
        platform: .harmony, wantType: HarmonyWant.self,
        sectionType: HarmonyRecord.self, recordKey: HarmonyRecord.CodingKeys.expectedHarmonyApps.stringValue,
        wantAlone: nil, codes: HarmonyCode.self, fetchedBy: "HarmonyOS' verifier",
        serving: ServingCodes(
            status: .harmony(.status), redirect: .harmony(.redirect), contentType: .harmony(.contentType),
            syntax: [.harmony(.jsonInvalid), .harmony(.shape)]))
}

/// Facts of HarmonyOS App Linking.
public enum HarmonyLimits {
    /// The `index` an app may be given: higher wins when several apps claim a link.
    public static let indexRange = -100...100
    /// What this audit reads of a file (no limit is documented).
    public static let maximumFileBytes = 1 << 17
    /// When a device sees the file.
    public static let verificationNote =
        "A device verifies the file after the app is installed, in the background (at least 20 s later): test a link a minute after installing."
}

/// An AppGallery Connect app identifier as `domains.txt` names it.
public enum HarmonyAppIdentifier {
    static let placeholders = [
        "<", ">", "{", "}", "APP ID", "APP_ID", "APPID", "APPIDENTIFIER", "YOUR", "XXXX", "TODO",
    ]

    /// Why `identifier` is not an app identifier, or nil when it reads as one.
    public static func problem(with identifier: String) -> String? {
        let shown = "\"\(identifier.prefix(120))\""
        if let marker = placeholders.first(where: { identifier.uppercased().contains($0) }) {
            return "\(shown) is a placeholder (it contains \"\(marker)\"), not an app identifier"
        }
        guard !identifier.isEmpty, identifier.count <= 128,
            identifier.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
        else {
            return "\(shown) is not an app identifier (AppGallery Connect's, up to 128 visible ASCII characters)"
        }
        // AppGallery Connect gives every app a number (the 32 real files we have all hold 19
        // digits); a bundle name in its place names no app HarmonyOS knows by it.
        guard identifier.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            let bundle = identifier.contains(".") ? ", it reads as a bundle name" : ""
            return
                "\(shown) is not an app identifier\(bundle): AppGallery Connect's app identifier is a number, such as 5765880207854972765 (AppGallery Connect, the app's General information)"
        }
        return nil
    }
}

/// What a domain's line asks of its `applinking.json` (`harmony:APP_IDENTIFIER`).
public struct HarmonyWant: AssociationWant, Equatable {
    public static var kind: AssociationKind { .harmony }
    /// The apps it must name (maybe none).
    public var appIdentifiers: [String]

    public init(appIdentifiers: [String]) { self.appIdentifiers = appIdentifiers }

    public static func parsing(_ values: [String]) throws(AssociationValueError) -> any AssociationWant {
        var identifiers: [String] = []
        for value in values {
            if let problem = HarmonyAppIdentifier.problem(with: value) {
                throw AssociationValueError(value: String(value.prefix(120)), reason: problem)
            }
            if !identifiers.contains(value) { identifiers.append(value) }
        }
        return HarmonyWant(appIdentifiers: identifiers)
    }

    public func merging(_ other: HarmonyWant) -> HarmonyWant {
        HarmonyWant(appIdentifiers: appIdentifiers + other.appIdentifiers.filter { !appIdentifiers.contains($0) })
    }
}

/// What an `applinking.json` declares: its apps, in order.
public struct HarmonyDeclarations: Codable, Sendable, Equatable {
    public struct App: Codable, Sendable, Equatable {
        public var appIdentifier: String
        public var index: Int?

        public init(appIdentifier: String, index: Int? = nil) {
            self.appIdentifier = appIdentifier
            self.index = index
        }
    }

    public var apps: [App]

    public init(apps: [App]) { self.apps = apps }
}

/// `applinking.json`'s section of a domain's record.
public struct HarmonyRecord: ExpectedAndReadSection {
    public static var kind: AssociationKind { .harmony }
    public static var fields:
        (expected: WritableKeyPath<Self, [String]?>, read: WritableKeyPath<Self, HarmonyDeclarations?>)
    {
        (\.expectedHarmonyApps, \.harmony)
    }
    /// The app identifiers the input named.
    public var expectedHarmonyApps: [String]?
    /// What the file declares, when it was read.
    public var harmony: HarmonyDeclarations?

    enum CodingKeys: String, CodingKey {
        case expectedHarmonyApps, harmony
    }

    public init(expectedHarmonyApps: [String]? = nil, harmony: HarmonyDeclarations? = nil) {
        self.expectedHarmonyApps = expectedHarmonyApps
        self.harmony = harmony
    }
}

extension AASALocation {
    /// `/.well-known/applinking.json`.
    public static let harmony = AssociationKind.harmony.location
}

extension FindingLocation {
    public static let harmony = AssociationKind.harmony.findingLocation
}

extension LinkPlatform {
    /// HarmonyOS App Linking.
    public static let harmony = LinkPlatform(
        rawValue: "harmony", linkName: "app linking on HarmonyOS", shortName: "HarmonyOS")
}

extension AssociationRecords {
    /// `applinking.json`: what it declares, when it was audited and read.
    public var harmony: HarmonyDeclarations? { self[HarmonyRecord.self]?.harmony }
}
