/// Windows "Apps for websites" (`windows.appUriHandler`): `windows-app-web-link`, which lets an
/// MSIX app open a site's links. The registry's entry.
extension AssociationKind {
    public static let windows = AssociationKind(
        id: "windows", word: "windows", fileName: "windows-app-web-link", path: "/.well-known/windows-app-web-link",
        categoryName: "windows", categoryTitle: "Windows apps for websites: windows-app-web-link",
        linkedFetchLabel: "windows-app-web-link at the root", room: "Windows", formLabel: "Windows app",
        formPlaceholder: "Contoso.App_8wekyb3d8bbwe",
        apiParameter:
            "A Windows app (package family name, Name_PublisherId) the domain's windows-app-web-link must name (repeatable, at most 20); the file is read at /.well-known/ and the web root.",
        platform: .windows, wantType: WindowsWant.self,
        sectionType: WindowsRecord.self, recordKey: WindowsRecord.CodingKeys.expectedWindowsApps.stringValue,
        wantAlone: nil, codes: WindowsCode.self, fetchedBy: "Windows' verifier",
        serving: ServingCodes(
            status: .windows(.status), redirect: .windows(.redirect), contentType: .windows(.contentType),
            syntax: [.windows(.jsonInvalid), .windows(.notList)]))
}

/// Facts of Microsoft's "Enable apps for websites using app URI handlers".
public enum WindowsLimits {
    /// The other place Windows reads the file: the web root, without an extension.
    public static let rootPath = "/windows-app-web-link"
    /// What this audit reads of a file (Microsoft states no limit).
    public static let maximumFileBytes = 1 << 17
    /// How long Windows may take to see a changed file.
    public static let refreshNote =
        "Windows reads the file when the app is installed and checks it again every 1 to 8 days; Edge and Firefox keep the site's links in the browser."
}

/// A package family name, `Name_PublisherId`: the package's name (3 to 50 letters, digits, `.`
/// and `-`) and the 13-character publisher ID (Crockford base32, lower case).
public enum PackageFamilyName {
    static let publisherAlphabet = Set("0123456789abcdefghjkmnpqrstvwxyz")
    static let placeholders = ["<", ">", "{", "}", "YOUR", "PACKAGEFAMILYNAME", "PFN", "XXXX", "TODO", "REPLACE"]

    /// Why `name` is not a package family name, or nil when it is one.
    public static func problem(with name: String) -> String? {
        let shown = "\"\(name.prefix(120))\""
        if let marker = placeholders.first(where: { name.uppercased().contains($0) }) {
            return "\(shown) is a placeholder (it contains \"\(marker)\"), not a package family name"
        }
        guard let underscore = name.lastIndex(of: "_") else {
            return
                "\(shown) has no publisher ID: a package family name is Name_PublisherId, e.g. Contoso.App_8wekyb3d8bbwe"
        }
        let package = name[..<underscore]
        let publisher = name[name.index(after: underscore)...]
        guard (3...50).contains(package.count),
            package.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-")
            })
        else {
            return "\(shown): the package name \"\(package.prefix(60))\" must be 3 to 50 letters, digits, '.' and '-'"
        }
        guard publisher.count == 13, publisher.allSatisfy(publisherAlphabet.contains) else {
            return
                "\(shown): the publisher ID \"\(publisher.prefix(20))\" must be 13 characters of Crockford base32 in lower case (0-9, a-z without i, l, o, u)"
        }
        return nil
    }
}

/// What a domain's line asks of its `windows-app-web-link` (`windows:PACKAGE_FAMILY_NAME`).
public struct WindowsWant: AssociationWant, Equatable {
    public static var kind: AssociationKind { .windows }
    /// The apps it must name, each once (maybe none).
    public var packageFamilyNames: [String]

    public init(packageFamilyNames: [String]) { self.packageFamilyNames = packageFamilyNames }

    public static func parsing(_ values: [String]) throws(AssociationValueError) -> any AssociationWant {
        var names: [String] = []
        for value in values {
            if let problem = PackageFamilyName.problem(with: value) {
                throw AssociationValueError(value: String(value.prefix(120)), reason: problem)
            }
            if !names.contains(value) { names.append(value) }
        }
        return WindowsWant(packageFamilyNames: names)
    }

    public func merging(_ other: WindowsWant) -> WindowsWant {
        WindowsWant(
            packageFamilyNames: packageFamilyNames
                + other.packageFamilyNames.filter { !packageFamilyNames.contains($0) })
    }
}

/// What a `windows-app-web-link` declares: its entries, in order.
public struct WindowsDeclarations: Codable, Sendable, Equatable {
    public struct Entry: Codable, Sendable, Equatable {
        public var packageFamilyName: String
        public var paths: [String]
        public var excludePaths: [String]
        public var allowSubdomains: Bool

        public init(
            packageFamilyName: String, paths: [String], excludePaths: [String] = [], allowSubdomains: Bool = false
        ) {
            self.packageFamilyName = packageFamilyName
            self.paths = paths
            self.excludePaths = excludePaths
            self.allowSubdomains = allowSubdomains
        }
    }

    public var entries: [Entry]
    /// Which location's file was read: `/.well-known/windows-app-web-link` or the root's.
    public var servedAt: String?

    public init(entries: [Entry], servedAt: String? = nil) {
        self.entries = entries
        self.servedAt = servedAt
    }
}

/// `windows-app-web-link`'s section of a domain's record.
public struct WindowsRecord: ExpectedAndReadSection {
    public static var kind: AssociationKind { .windows }
    public static var fields:
        (expected: WritableKeyPath<Self, [String]?>, read: WritableKeyPath<Self, WindowsDeclarations?>)
    {
        (\.expectedWindowsApps, \.windows)
    }
    /// The package family names the input named.
    public var expectedWindowsApps: [String]?
    /// What the file declares, when it was read.
    public var windows: WindowsDeclarations?

    enum CodingKeys: String, CodingKey {
        case expectedWindowsApps, windows
    }

    public init(expectedWindowsApps: [String]? = nil, windows: WindowsDeclarations? = nil) {
        self.expectedWindowsApps = expectedWindowsApps
        self.windows = windows
    }
}

extension AASALocation {
    /// `windows-app-web-link`, at `/.well-known/` and at the root.
    public static let windows = AssociationKind.windows.location
}

extension FindingLocation {
    public static let windows = AssociationKind.windows.findingLocation
}

extension LinkPlatform {
    /// Windows' apps for websites.
    public static let windows = LinkPlatform(
        rawValue: "windows", linkName: "app links on Windows", shortName: "Windows")
}

extension AssociationRecords {
    /// `windows-app-web-link`: what it declares, when it was audited and read.
    public var windows: WindowsDeclarations? { self[WindowsRecord.self]?.windows }
}
