/// One kind of association file a domain is audited for besides the AASA: every fact the rest
/// of the code names about it, stated once. Its locations and its findings' category carry it,
/// so labels, paths and the catalog read it instead of switching over kinds. A kind's own types
/// live in a folder named after it (`Android/`); the registry's one list is
/// `AssociationKinds.all` (`docs/architecture.md`, "Association files").
public struct AssociationKind: Sendable, Identifiable {
    /// Its name in reports and on the command line: the location of its fetches and findings
    /// (`assetlinks`), its codes' family (`assetlinks.*`), `aasa-audit schema NAME`.
    public let id: String
    /// The word a team writes for its apps: the token in domains.txt (`android:PACKAGE`), the
    /// option (`--android`), the check form's and the API's parameter.
    public let word: String
    /// Its file's name (`assetlinks.json`): what `lint` knows it by, and a fetch's label.
    public let fileName: String
    /// Where clients fetch it on the domain's origin.
    public let path: String
    /// Its findings' category: its name (SARIF's tag) and its heading in docs/findings.md.
    public let categoryName: String
    public let categoryTitle: String
    /// What its other fetches are called (the lists `assetlinks.json` includes).
    public let linkedFetchLabel: String
    /// The folder its own types live in, in each target (`Android`).
    public let room: String
    /// The placeholder of a kind whose word takes no value (`passkeys`): its form field is a checkbox.
    public static let flagPlaceholder = "on"
    /// The check form's field: its label and an example value.
    public let formLabel: String
    public let formPlaceholder: String
    /// What serve's API description says of its check parameter (`?WORD=`), as a sentence.
    public let apiParameter: String
    /// The platform a badge names for it (Android's `app links`, `passkeys`); nil for a kind
    /// that speaks for none.
    public let platform: LinkPlatform?
    /// What a domain's line asks of it, and its section of the record.
    public let wantType: any AssociationWant.Type
    public let sectionType: any AssociationSection.Type
    /// The key of the record that says its section is there (`expectedAndroidApps`).
    public let recordKey: String
    /// What a domain that serves no AASA and names nothing else is audited for; nil when such
    /// a domain is not audited for this kind.
    public let wantAlone: (any AssociationWant)?
    /// Its codes, each with its entry in the catalog (`FindingCodeFamily`).
    public let codes: any FindingCodeFamily.Type
    /// Its file as a hosting platform's fix names it: who fetches it, and which of its codes is
    /// which problem of how it is served (`PlatformFixes`).
    public let served: ServedFile

    init(
        id: String, word: String, fileName: String, path: String, categoryName: String, categoryTitle: String,
        linkedFetchLabel: String, room: String, ownsItsWord: Bool = true, isJSON: Bool = true,
        formLabel: String, formPlaceholder: String, apiParameter: String, platform: LinkPlatform?,
        wantType: any AssociationWant.Type,
        sectionType: any AssociationSection.Type, recordKey: String, wantAlone: (any AssociationWant)?,
        alsoServes: [AlsoServedFile] = [], codes: any FindingCodeFamily.Type, fetchedBy: String, serving: ServingCodes
    ) {
        served = ServedFile(
            id: id, name: fileName, path: path, fetchedBy: fetchedBy, codes: codes,
            categories: [FindingCategory(name: categoryName, title: categoryTitle)], platform: platform,
            serving: serving)
        self.alsoServes = alsoServes
        self.id = id
        self.word = word
        self.fileName = fileName
        self.path = path
        self.categoryName = categoryName
        self.categoryTitle = categoryTitle
        self.linkedFetchLabel = linkedFetchLabel
        self.room = room
        self.ownsItsWord = ownsItsWord
        self.isJSON = isJSON
        self.formLabel = formLabel
        self.formPlaceholder = formPlaceholder
        self.apiParameter = apiParameter
        self.platform = platform
        self.wantType = wantType
        self.sectionType = sectionType
        self.recordKey = recordKey
        self.wantAlone = wantAlone
        self.codes = codes
    }

    /// Where its file and what it links to are fetched from, in fetch records.
    public var location: AASALocation { AASALocation(kind: self) }
    /// What its findings are about.
    public var findingLocation: FindingLocation { FindingLocation(location) }
    /// Its findings' category.
    public var category: FindingCategory { FindingCategory(kind: self) }
    /// The prefix of its finding codes.
    public var codePrefix: String { id + "." }
    /// What it checks beside its file (`change-password` for `passkeys`): each its own location
    /// and family of codes.
    public let alsoServes: [AlsoServedFile]
    /// Whether a code is one of its findings.
    public func owns(_ code: FindingCode) -> Bool { code.belongs(to: codes) }
    /// The location of what it checks beside its file.
    public func location(of file: AlsoServedFile) -> AASALocation { AASALocation(kind: self, file: file) }
    /// The path of the location with this name (its file's or another it checks), if it is its.
    func path(ofLocation name: String) -> String? {
        name == id ? path : alsoServes.first { $0.name == name }?.path
    }
    /// The words a source file that knows this kind uses (the seam guard's search): its name,
    /// and its word when that is its own (`android`, not `origin`).
    public var sourceWords: [String] { [id] + (ownsItsWord ? [word] : []) }
    /// Whether its word is its own, not a word other code uses.
    let ownsItsWord: Bool
    /// Whether its file is JSON (with a schema, and a `.json` copy of its name as the mistake to
    /// look for); Apple Pay's merchant file is opaque bytes.
    public let isJSON: Bool
}

/// A file a kind checks beside its own (`/.well-known/change-password` for passkeys): its
/// findings and fetches are at a location of its name, its codes are `NAME.*`.
public struct AlsoServedFile: Sendable {
    public let name: String
    public let path: String
}

/// The registry: every association kind besides the AASA, in the order reports list them. Each
/// layer reads this list and reaches a kind's part through its types (`AssociationWant`,
/// `AssociationSection`, and the protocols each layer adds to them: `LintedWant`, `AuditedWant`,
/// `RenderedSection`). A task may be given more kinds (a test's stub kind, with
/// `AssociationKinds.$all.withValue`); every run of the program reads this line.
public enum AssociationKinds {
    @TaskLocal public static var all: [AssociationKind] = registered

    /// The registry's line: the kinds every run of the program audits.
    static let registered: [AssociationKind] = [
        .androidAppLinks, .webauthn, .passkeyEndpoints, .windows, .harmony, .applePay, .webApp,
    ]

    /// Whether `all` is the registry's line (not a test's list with more kinds).
    static var isRegistered: Bool {
        let kinds = all
        return kinds.count == registered.count && zip(kinds, registered).allSatisfy { $0.id == $1.id }
    }

    /// Every file the tool audits, the AASA's first (`ServedFile.aasa`), then each kind's: the
    /// list where the AASA stands with the kinds (its codes, categories, served name, platform).
    public static var files: [ServedFile] { [.aasa] + all.map(\.served) }

    /// The AASA's name where a kind's name stands (`lint --kind aasa`, a metric's `file` label).
    public static var aasaName: String { ServedFile.aasa.id }
    /// Every file's served name, the AASA's first: what the tool audits, as its first sentence,
    /// `--help` and `lint --names` say it.
    public static var servedFileNames: [String] { files.map(\.name) }
    /// The served names of the files that are JSON (the AASA's first): the names whose `.json`
    /// copy is a mistake to look for.
    public static var jsonFileNames: [String] { [ServedFile.aasa.name] + all.filter(\.isJSON).map(\.fileName) }
    /// What the reports' and pages' titles call what is audited: every kind, not the AASA alone.
    public static let auditedTitle = "App–site associations"

    /// The file a finding at `location` is about: its kind's name, else the AASA's (the domain's
    /// own findings, such as its certificate's, go with the AASA).
    public static func file(of location: FindingLocation) -> String {
        AASALocation(rawValue: location.rawValue)?.kind?.id ?? aasaName
    }

    /// The kind whose location has this name (its file's or another it checks).
    static func kind(location name: String) -> AssociationKind? { all.first { $0.path(ofLocation: name) != nil } }

    /// The kind a finding code belongs to.
    static func kind(of code: FindingCode) -> AssociationKind? { all.first { $0.owns(code) } }
}
