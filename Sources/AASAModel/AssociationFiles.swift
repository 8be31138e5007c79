/// The seam's list in the model: the association files a domain is audited for besides the
/// AASA, one member per kind of file. A kind's own types live in a folder of their own
/// (`Android/` for `assetlinks.json`); adding a kind is a member here, a folder there, and a
/// member in the engine's and the renderers' lists (`docs/architecture.md`, "Association files").

/// What a domain's line asks of those files.
public struct AssociationWants: Sendable, Equatable {
    /// `assetlinks.json`: the apps it must declare (maybe none); nil when it is not audited.
    public var android: [AndroidApp]?
    /// `assetlinks.json`: the scope the app's manifest gives the host (`--android-manifest`).
    public var androidManifestScope: AndroidManifest.HostScope?

    public init(android: [AndroidApp]? = nil, androidManifestScope: AndroidManifest.HostScope? = nil) {
        self.android = android
        self.androidManifestScope = androidManifestScope
    }

    /// Also audits what `other` asks for (`--android` on a whole list, a host in two inputs).
    public mutating func merge(_ other: AssociationWants) {
        if let apps = other.android {
            android = (android ?? []) + apps.filter { !(android ?? []).contains($0) }
        }
        androidManifestScope = other.androidManifestScope ?? androidManifestScope
    }
}

/// A domain record's sections for those files. Their members stand at the top level of the
/// record (`DomainReport`, `LintRecord`): their keys are part of the versioned schema.
public struct AssociationRecords: Codable, Sendable, Equatable {
    /// `assetlinks.json`: the apps the input named (`PACKAGE` or `PACKAGE@FINGERPRINT`), when it
    /// was audited.
    public var expectedAndroidApps: [String]?
    /// `assetlinks.json`: what it declares, when it was audited and parsed.
    public var android: AndroidDeclarations?

    public init(expectedAndroidApps: [String]? = nil, android: AndroidDeclarations? = nil) {
        self.expectedAndroidApps = expectedAndroidApps
        self.android = android
    }

    /// Takes the sections `other` has.
    public mutating func merge(_ other: AssociationRecords) {
        expectedAndroidApps = other.expectedAndroidApps ?? expectedAndroidApps
        android = other.android ?? android
    }
}
