/// `assetlinks.json` (Digital Asset Links), Android's App Links: the registry's entry.
extension AssociationKind {
    public static let androidAppLinks = AssociationKind(
        id: "assetlinks", word: "android", fileName: "assetlinks.json", path: "/.well-known/assetlinks.json",
        categoryName: "assetLinks", categoryTitle: "Android App Links: assetlinks.json",
        linkedFetchLabel: "included list", room: "Android",
        formLabel: "Android app", formPlaceholder: "com.example.app or com.example.app@SHA256",
        apiParameter:
            "An Android app the domain's assetlinks.json must declare: PACKAGE or PACKAGE@SHA256 (repeatable, at most 20).",
        platform: .android, wantType: AndroidWant.self, sectionType: AndroidRecord.self,
        recordKey: AndroidRecord.CodingKeys.expectedAndroidApps.stringValue, wantAlone: AndroidWant(apps: []),
        codes: AssetLinksCode.self,
        fetchedBy: "Android's verifier (Google's Digital Asset Links service)",
        serving: ServingCodes(
            status: .assetLinks(.status), redirect: .assetLinks(.redirect), contentType: .assetLinks(.contentType),
            syntax: [.assetLinks(.jsonInvalid), .assetLinks(.notList)]))
}

/// What a domain's line asks of its `assetlinks.json`.
public struct AndroidWant: AssociationWant, Equatable {
    public static var kind: AssociationKind { .androidAppLinks }
    /// The apps it must declare (maybe none).
    public var apps: [AndroidApp]
    /// The scope the app's manifest gives the host (`--android-manifest`).
    public var manifestScope: AndroidManifest.HostScope?

    public init(apps: [AndroidApp], manifestScope: AndroidManifest.HostScope? = nil) {
        self.apps = apps
        self.manifestScope = manifestScope
    }

    /// `PACKAGE` or `PACKAGE@FINGERPRINT`, each.
    public static func parsing(_ values: [String]) throws(AssociationValueError) -> any AssociationWant {
        AndroidWant(
            apps: try values.map { value throws(AssociationValueError) in
                switch AndroidApp.parse(value) {
                case .success(let app): return app
                case .failure(let error): throw AssociationValueError(value: value, reason: error.reason)
                }
            })
    }

    /// Apps kept per domain, as many as app IDs.
    public static let maximumApps = 100

    /// Each app once, up to `maximumApps`.
    public func merging(_ other: AndroidWant) -> AndroidWant {
        var merged = apps
        for app in other.apps where !merged.contains(app) && merged.count < Self.maximumApps { merged.append(app) }
        return AndroidWant(apps: merged, manifestScope: other.manifestScope ?? manifestScope)
    }
}

/// `assetlinks.json`'s section of a domain's record.
public struct AndroidRecord: ExpectedAndReadSection {
    public static var kind: AssociationKind { .androidAppLinks }
    public static var fields:
        (expected: WritableKeyPath<Self, [String]?>, read: WritableKeyPath<Self, AndroidDeclarations?>)
    {
        (\.expectedAndroidApps, \.android)
    }
    /// The apps the input named (`PACKAGE` or `PACKAGE@FINGERPRINT`).
    public var expectedAndroidApps: [String]?
    /// What the file declares, when it was parsed.
    public var android: AndroidDeclarations?

    enum CodingKeys: String, CodingKey {
        case expectedAndroidApps, android
    }
}

extension AssociationWants {
    /// `assetlinks.json`: the apps it must declare (maybe none); nil when it is not audited.
    public var android: [AndroidApp]? {
        get { self[AndroidWant.self]?.apps }
        set { self[AndroidWant.self] = newValue.map { AndroidWant(apps: $0, manifestScope: androidManifestScope) } }
    }

    /// `assetlinks.json`: the scope the app's manifest gives the host (`--android-manifest`).
    public var androidManifestScope: AndroidManifest.HostScope? { self[AndroidWant.self]?.manifestScope }

    public init(android: [AndroidApp]?, androidManifestScope: AndroidManifest.HostScope? = nil) {
        self.init()
        self[AndroidWant.self] = android.map { AndroidWant(apps: $0, manifestScope: androidManifestScope) }
    }
}

extension AssociationRecords {
    /// `assetlinks.json`: the apps the input named, when it was audited.
    public var expectedAndroidApps: [String]? {
        get { self[AndroidRecord.self]?.expectedAndroidApps }
        set { update { $0.expectedAndroidApps = newValue } }
    }

    /// `assetlinks.json`: what it declares, when it was audited and parsed.
    public var android: AndroidDeclarations? {
        get { self[AndroidRecord.self]?.android }
        set { update { $0.android = newValue } }
    }

    public init(expectedAndroidApps: [String]? = nil, android: AndroidDeclarations?) {
        self.init()
        self.expectedAndroidApps = expectedAndroidApps
        self.android = android
    }

    public init(expectedAndroidApps: [String]?) {
        self.init(expectedAndroidApps: expectedAndroidApps, android: nil)
    }

    private mutating func update(_ change: (inout AndroidRecord) -> Void) {
        var section = self[AndroidRecord.self] ?? AndroidRecord()
        change(&section)
        self[AndroidRecord.self] = section.expectedAndroidApps == nil && section.android == nil ? nil : section
    }
}

extension AASALocation {
    /// `/.well-known/assetlinks.json`, when a domain's line asks for it, and the lists it includes.
    public static let assetlinks = AssociationKind.androidAppLinks.location
}

extension FindingLocation {
    /// `assetlinks.json` and the lists it includes.
    public static let assetlinks = AssociationKind.androidAppLinks.findingLocation
}

extension FindingCategory {
    /// `assetlinks.json`'s findings: their entries are in `FindingCatalog+AssetLinks.swift`.
    static let assetLinks = AssociationKind.androidAppLinks.category
}

extension LinkPlatform {
    /// Android's App Links.
    public static let android = LinkPlatform(rawValue: "android", linkName: "app links", shortName: "Android")
}

/// The Android kind's options besides its word: an app's manifest, and its package when the
/// manifest names none (`OptionName`'s counterpart in the kind's room).
public enum AndroidOption: String, Sendable, CaseIterable, CustomStringConvertible {
    case manifest = "android-manifest"
    case package = "android-package"

    /// As a user types it: `--android-manifest`.
    public var description: String { "--" + rawValue }
}
