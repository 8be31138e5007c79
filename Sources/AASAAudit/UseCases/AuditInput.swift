import AASAModel
import DomainList

/// Why a command's input names nothing to audit, or a value given on the command line is not
/// usable.
public struct InputError: UserFacingError, Equatable {
    public var message: String
    /// The input lines behind the error, printed before it (`file:line: message`).
    public var problems: [InputProblem] = []

    public init(_ message: String, problems: [InputProblem] = []) {
        self.message = message
        self.problems = problems
    }

    public var exitStatus: ExitStatus { .usage }

    public var context: [String] { problems.map { "\($0.file):\($0.line): \($0.message)" } }
}

/// What `audit` audits: the domains file and the entitlements files, read and merged.
public struct AuditInput: Sendable {
    /// The files read, in order (for the report).
    public var files: [String]
    public var targets: [DomainTarget]
    public var problems: [InputProblem]

    /// The default domains file, read when neither a file nor entitlements are named.
    public static let defaultDomainsFile = "domains.txt"
    /// Larger domains or entitlements files are refused rather than read into memory.
    public static let maximumFileBytes = 64 << 20

    /// The domains file (when given, or the default when no entitlements are), then the
    /// entitlements files, whose hosts must name `appIDs`.
    /// - Parameter projectFiles: other app project files that name hosts (`AppProjectFile`).
    public static func load(
        domainsFile: String?, entitlements: [String], appIDs: [String], projectFiles: [AppProjectFile] = []
    ) throws -> AuditInput {
        let domainsFile = domainsFile ?? (entitlements.isEmpty && projectFiles.isEmpty ? defaultDomainsFile : nil)
        let files = (domainsFile.map { [$0] } ?? []) + entitlements + projectFiles.map(\.path)
        var lists: [[DomainTarget]] = []
        var problems: [InputProblem] = []
        if let domainsFile {
            let parsed = DomainListParser.parse(try read(domainsFile, role: "the domains file"), fileName: domainsFile)
            lists.append(parsed.targets)
            problems += parsed.problems
        }
        for path in entitlements {
            let parsed = EntitlementsParser.parse(
                try read(path, role: "the entitlements file"), fileName: path, appIDs: appIDs)
            lists.append(parsed.targets)
            problems += parsed.problems
        }
        for file in projectFiles {
            let parsed = file.parse(try read(file.path, role: file.role), file.path)
            lists.append(parsed.targets)
            problems += parsed.problems
        }
        let targets = EntitlementsParser.merge(lists)
        guard !targets.isEmpty else {
            throw InputError(
                "\(files.joined(separator: ", ")) list\(files.count == 1 ? "s" : "") no domain to audit.",
                problems: problems)
        }
        return AuditInput(files: files, targets: targets, problems: problems)
    }

    static func read(_ path: String, role: String) throws(FileReadError) -> [UInt8] {
        do {
            return try BoundedFileReader.readWhole(path, limit: maximumFileBytes)
        } catch {
            var described = error
            described.role = role
            throw described
        }
    }

    /// Checks app IDs given on the command line (`--app-id`), or by another front end under its
    /// own name for them (`named`: serve's `app-id`, the MCP tool's `app_ids`).
    public static func validateAppIDs(_ appIDs: [String], named name: String = "\(OptionName.appID)") throws(InputError)
    {
        for id in appIDs {
            if let problem = ExpectedApp.problem(with: id) { throw InputError("\(name) \(problem).") }
        }
    }

    /// A host name given on the command line, normalised as the domains file's are.
    public static func host(_ text: String) throws(InputError) -> String {
        try pastedHost(text).host
    }

    /// The host of what a user typed or pasted (a host name, an entitlement entry, a URL), and
    /// a note when it was not a plain host name.
    public static func pastedHost(_ text: String) throws(InputError) -> PastedHost {
        switch HostName.normalizePasted(text) {
        case .success(let pasted): return pasted
        case .failure(let error): throw InputError("\"\(text)\" \(error.reason).")
        }
    }
}

/// An app project file that names hosts to audit, read like an entitlements file: a kind of
/// file is a path, a role for messages and a parser (each kind's in its association file's room).
public struct AppProjectFile: Sendable {
    public var path: String
    public var role: String
    public var parse: @Sendable (_ bytes: [UInt8], _ fileName: String) -> DomainListParser.Result

    public init(
        path: String, role: String, parse: @escaping @Sendable ([UInt8], String) -> DomainListParser.Result
    ) {
        self.path = path
        self.role = role
        self.parse = parse
    }
}
