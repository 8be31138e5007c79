/// One file the tool audits, as the registry lists it (`AssociationKinds.files`: the AASA's
/// first, then each kind's): where it is, what it is called, who fetches it, its codes and their
/// categories, the platform it opens links on, and which of its codes is which problem of how it
/// is served (`ServingProblem`, which `PlatformFixes` writes its fixes for, so every file gets
/// its platform's fix, naming its own path).
public struct ServedFile: Sendable {
    /// Its name where the tool names a file: `aasa`, or the kind's (`AssociationKind.id`).
    public let id: String
    /// Its served name (`AssociationKind.fileName`).
    public let name: String
    /// Where clients fetch it on the domain's origin.
    public let path: String
    /// Who fetches it, as a fix names it (`Apple's bot (AASA-Bot)`).
    public let fetchedBy: String
    /// Its codes, and the categories they are catalogued under (`docs/findings.md`).
    public let codes: any FindingCodeFamily.Type
    public let categories: [FindingCategory]
    /// The platform whose links it opens (a badge names it); nil for a file that speaks for none.
    public let platform: LinkPlatform?
    /// Each code of the file's that is a problem of how it is served.
    let problems: [FindingCode: ServingProblem]

    public init(
        id: String, name: String, path: String, fetchedBy: String, codes: any FindingCodeFamily.Type,
        categories: [FindingCategory], platform: LinkPlatform?, serving: ServingCodes
    ) {
        self.id = id
        self.name = name
        self.path = path
        self.fetchedBy = fetchedBy
        self.codes = codes
        self.categories = categories
        self.platform = platform
        var problems: [FindingCode: ServingProblem] = [serving.status: .status, serving.redirect: .redirect]
        serving.contentType.map { problems[$0] = .contentType }
        for code in serving.syntax { problems[code] = .syntax }
        serving.blocked.map { problems[$0] = .blocked }
        serving.misnamed.map { problems[$0] = .misnamed }
        self.problems = problems
    }

    /// The problem a code of its is, if it is one.
    public func problem(_ code: FindingCode) -> ServingProblem? { problems[code] }

    /// Its codes of a problem, in a stable order.
    public func codes(of problem: ServingProblem) -> [FindingCode] {
        problems.filter { $0.value == problem }.map(\.key).sorted { $0.rawValue < $1.rawValue }
    }

    /// Whether its name ends in an extension (`.json`), by which servers type it.
    public var hasExtension: Bool { name.contains(".") }

    /// The file a code is about, and which problem it is; nil for a code that is no problem of
    /// how a file is served.
    /// - Parameter files: the registry's files (`AssociationKinds.files`), read once by a caller
    ///   that asks for many codes.
    public static func file(of code: FindingCode, in files: [ServedFile] = AssociationKinds.files)
        -> (file: ServedFile, problem: ServingProblem)?
    {
        for file in files { if let problem = file.problem(code) { return (file, problem) } }
        return nil
    }
}

/// A file's codes of how it is served, each the code of one `ServingProblem`.
public struct ServingCodes: Sendable {
    let status: FindingCode
    let redirect: FindingCode
    let contentType: FindingCode?
    let syntax: [FindingCode]
    let blocked: FindingCode?
    let misnamed: FindingCode?

    /// - Parameters:
    ///   - contentType: nil for a file whose client reads any type.
    ///   - syntax: the codes of a body that is not the file's JSON, which a platform explains
    ///     only when a web page answered in the file's place.
    ///   - blocked, misnamed: the codes of a file kept from its client where another is not, or
    ///     served under another name, for a file that has them.
    public init(
        status: FindingCode, redirect: FindingCode, contentType: FindingCode?, syntax: [FindingCode],
        blocked: FindingCode? = nil, misnamed: FindingCode? = nil
    ) {
        self.status = status
        self.redirect = redirect
        self.contentType = contentType
        self.syntax = syntax
        self.blocked = blocked
        self.misnamed = misnamed
    }
}

/// What goes wrong with how a file is served, the same for every file.
public enum ServingProblem: Sendable, CaseIterable {
    /// Not 200 (missing, refused).
    case status
    case redirect
    case contentType
    /// A body that is not the file's JSON (a page in its place).
    case syntax
    /// Its client refused where another is not (the AASA's `ua.blocked`).
    case blocked
    /// Served under another name (`apple-app-site-association.json`).
    case misnamed
}

/// What a file's own `.well-known` answer was: the status that tells a missing file from a
/// refusal, and whether a web page answered in its place.
public struct ServedAnswer: Sendable, Equatable {
    public var status: Int?
    public var servedAPage: Bool

    public init(status: Int?, servedAPage: Bool) {
        self.status = status
        self.servedAPage = servedAPage
    }
}
