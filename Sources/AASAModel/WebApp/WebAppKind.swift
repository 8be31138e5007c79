import Foundation

/// Chromium's `web-app-origin-association` (PWA scope extensions, Chrome and Edge 138+): the
/// file an origin serves so that an installed web app whose manifest lists the origin in
/// `scope_extensions` may treat its pages as its own (Chromium's
/// `components/webapps/services/web_app_origin_association/`). The registry's entry (issue 58).
extension AssociationKind {
    public static let webApp = AssociationKind(
        id: "webapp", word: "webapp", fileName: "web-app-origin-association",
        path: "/.well-known/web-app-origin-association", categoryName: "webapp",
        categoryTitle: "PWA scope extensions: web-app-origin-association",
        linkedFetchLabel: "web-app-origin-association", room: "WebApp", formLabel: "PWA manifest id",
        formPlaceholder: "https://app.example.com/app",
        apiParameter:
            "A web app's manifest id (an https URL) the domain's /.well-known/web-app-origin-association must associate with its origin (repeatable, at most 20).",
        platform: .webApp, wantType: WebAppWant.self, sectionType: WebAppRecord.self,
        recordKey: WebAppRecord.CodingKeys.expectedWebApps.stringValue, wantAlone: nil, codes: WebAppCode.self,
        fetchedBy: "Chromium's origin association fetcher",
        serving: ServingCodes(
            status: .webApp(.status), redirect: .webApp(.redirect), contentType: nil,
            syntax: [.webApp(.jsonInvalid), .webApp(.notObject)]))
}

/// Facts of Chromium's fetcher.
public enum WebAppLimits {
    /// What Chromium downloads at most (`kMaxJsonSize`): a larger file is no file.
    public static let maximumFileBytes = 1_000_000
    /// The keys of an associated app's object Chromium knows.
    public static let appKeys: Set<String> = ["scope", "allow_migration"]
    /// The older shapes' keys (`{"web_apps": [...]}`, URL handlers), which current Chromium reads
    /// as manifest ids that are no URLs, and so ignores.
    public static let legacyKeys: Set<String> = ["web_apps", "url_handlers", "apps"]
    /// The manifest's `scope_extensions` entries Chromium reads (`kMaxScopeExtensionsSize`).
    public static let maximumScopeExtensions = 10
    /// What this audit reads of a manifest.
    public static let maximumManifestBytes = 1 << 18
}

/// A manifest id as Chromium compares it: an absolute https URL, its scheme and host in lower
/// case, the default port and any fragment dropped, an empty path `/`.
public enum WebAppManifestID {
    /// The canonical form, or nil when `text` is not an https URL with a host.
    public static func canonical(_ text: String) -> String? {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "https",
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let port = components.port.flatMap { $0 == 443 ? nil : ":\($0)" } ?? ""
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let query = components.percentEncodedQuery.map { "?\($0)" } ?? ""
        return "https://\(host)\(port)\(path)\(query)"
    }
}

/// What a domain's line asks of its `web-app-origin-association` (`webapp:MANIFEST_ID`, or
/// `webapp:MANIFEST_ID@MANIFEST_URL` to cross-check the app's manifest): the web apps whose
/// manifest ids it must associate with the origin.
public struct WebAppWant: AssociationWant, Equatable {
    public static var kind: AssociationKind { .webApp }
    /// The manifest ids, canonical.
    public var manifestIDs: [String]
    /// The manifests to cross-check, by manifest id: their URLs.
    public var manifests: [String: String]

    public init(manifestIDs: [String], manifests: [String: String] = [:]) {
        self.manifestIDs = manifestIDs
        self.manifests = manifests
    }

    /// `ID@https://…/manifest.json` split into the id and the manifest's URL.
    static func split(_ value: String) -> (id: String, manifest: String?) {
        guard let at = value.range(of: "@https://", options: [.caseInsensitive, .backwards]) else {
            return (value, nil)
        }
        return (String(value[..<at.lowerBound]), String(value[value.index(after: at.lowerBound)...]))
    }

    public static func parsing(_ values: [String]) throws(AssociationValueError) -> any AssociationWant {
        var ids: [String] = []
        var manifests: [String: String] = [:]
        for text in values {
            let (value, manifest) = split(text)
            if let manifest {
                guard let url = WebAppManifestID.canonical(manifest) else {
                    throw AssociationValueError(
                        value: String(text.prefix(120)),
                        reason: "\"\(manifest.prefix(120))\" is not the https URL of a manifest")
                }
                if let id = WebAppManifestID.canonical(value) { manifests[id] = url }
            }
            guard let id = WebAppManifestID.canonical(value) else {
                throw AssociationValueError(
                    value: String(value.prefix(120)),
                    reason:
                        "\"\(value.prefix(120))\" is not a manifest id: an https URL, the manifest's id (or its start_url when it has none), such as https://app.example.com/app"
                )
            }
            if !ids.contains(id) { ids.append(id) }
        }
        return WebAppWant(manifestIDs: ids, manifests: manifests)
    }

    public func merging(_ other: WebAppWant) -> WebAppWant {
        WebAppWant(
            manifestIDs: manifestIDs + other.manifestIDs.filter { !manifestIDs.contains($0) },
            manifests: manifests.merging(other.manifests) { _, theirs in theirs })
    }
}

/// What a `web-app-origin-association` associates, as Chromium reads it: each app's manifest id
/// and the scope it extends to on this origin.
public struct WebAppAssociations: Codable, Sendable, Equatable {
    public struct App: Codable, Sendable, Equatable {
        public var manifestID: String
        public var scope: String

        public init(manifestID: String, scope: String) {
            self.manifestID = manifestID
            self.scope = scope
        }
    }

    public var apps: [App]

    public init(apps: [App]) { self.apps = apps }
}

/// `web-app-origin-association`'s section of a domain's record.
public struct WebAppRecord: ExpectedAndReadSection {
    public static var kind: AssociationKind { .webApp }
    public static var fields:
        (expected: WritableKeyPath<Self, [String]?>, read: WritableKeyPath<Self, WebAppAssociations?>)
    {
        (\.expectedWebApps, \.webApp)
    }
    /// The manifest ids the input named.
    public var expectedWebApps: [String]?
    /// What the file associates, when it was read.
    public var webApp: WebAppAssociations?

    enum CodingKeys: String, CodingKey {
        case expectedWebApps, webApp
    }

    public init(expectedWebApps: [String]? = nil, webApp: WebAppAssociations? = nil) {
        self.expectedWebApps = expectedWebApps
        self.webApp = webApp
    }
}

extension AASALocation {
    /// `/.well-known/web-app-origin-association`.
    public static let webApp = AssociationKind.webApp.location
}

extension FindingLocation {
    public static let webApp = AssociationKind.webApp.findingLocation
}

extension LinkPlatform {
    /// Installed web apps (PWAs) in Chrome and Edge.
    public static let webApp = LinkPlatform(rawValue: "webapp", linkName: "PWA scope extensions", shortName: "PWA")
}
