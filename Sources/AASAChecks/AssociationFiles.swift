import AASAModel

/// A kind's part in `lint`: its want type checks a local file of the kind, offline, and knows
/// the kind's content when no name says which file it is. A kind's own lint lives in its folder
/// (`Android/AssetLinksLint.swift`).
public protocol LintedWant: AssociationWant {
    /// The lint of a file of this kind, with what the wants ask of it.
    static func lint(_ bytes: [UInt8], size: Int, wants: AssociationWants) -> FileLint.Result
    /// Whether bytes look like this kind's file rather than another association file.
    static func looksLikeItsFile(_ bytes: [UInt8]) -> Bool
}

extension FileLint {
    /// A kind's file checked offline: over `limit` bytes it is `tooLarge` (its content not read);
    /// else `read` judges it. `section` makes its part of the record from what was read.
    public static func associationFile<Declared>(
        size: Int, limit: Int, tooLarge: FindingCode, read: () -> (findings: [Finding], declarations: Declared?),
        section: (Declared?) -> any AssociationSection
    ) -> Result {
        var findings: [Finding] = []
        var declarations: Declared?
        if size > limit {
            findings = [Finding(tooLarge, .file, "The file is \(size) bytes; this audit reads at most \(limit).")]
        } else {
            (findings, declarations) = read()
        }
        return Result(
            verdict: Verdict(findings: findings), appIDs: ServiceAppIDs(), findings: findings,
            associations: AssociationRecords(section(declarations)))
    }
}

/// The seam's list in the checks: `lint` hands each other association file to its kind, known
/// by its name (`assetlinks.json`) or the option that asks for it (`--android`) when they say,
/// and by its content only when nothing does.
public enum AssociationFileLint {
    /// The names that say which file it is.
    static let aasaNames: Set<String> = [ServedFile.aasa.name, ServedFile.aasa.name + ".json"]

    /// The names every kind's file is served under (`apple-app-site-association`, then the
    /// registry's), and the extensionless ones with `.json` added (what `misnamed` flags): what
    /// the Action, the pre-commit hook and docs/ci.md look for (`lint --names` prints them).
    public static var lintedNames: [String] {
        let json = AssociationKinds.jsonFileNames
        return AssociationKinds.servedFileNames + json.filter { !$0.hasSuffix(".json") }.map { $0 + ".json" }
    }

    /// A file published as a served name with `.json` added (`apple-app-site-association.json`,
    /// `webauthn.json`): devices and browsers ask only for the name without it, so as deployed it
    /// is never read: `location.misnamed`, as the audit says of a site that serves only that.
    public static func misnamed(_ path: String) -> Finding? {
        let name = String(path.split(separator: "/").last ?? "")
        let served = AssociationKinds.jsonFileNames
        guard name.hasSuffix(".json"), let intended = served.first(where: { name == $0 + ".json" }) else { return nil }
        return Finding(
            .aasa(.locationMisnamed), .file,
            "The file is named \(name): devices and browsers ask only for /.well-known/\(intended), so as deployed it is never read. Rename it to \(intended) (no .json), served as application/json."
        )
    }

    /// The lint of `bytes` as another association file than the AASA, when they are one.
    /// - Parameter path: the file's path, whose name (`assetlinks.json`,
    ///   `apple-app-site-association`) says its kind before its content does.
    /// - Parameter kind: the kind `lint --kind` names (`aasa`, or a kind's name), which decides.
    public static func lint(
        _ bytes: [UInt8], size: Int, wants: AssociationWants, path: String? = nil, kind named: String? = nil
    ) -> FileLint.Result? {
        let kinds = AssociationKinds.all.compactMap { kind in
            (kind.wantType as? any LintedWant.Type).map { (kind: kind, lint: $0) }
        }
        if let named { return kinds.first { $0.kind.id == named }?.lint.lint(bytes, size: size, wants: wants) }
        // A misnamed copy (`webauthn.json`) is judged as the kind it was meant to be.
        let name = path.map { String($0.split(separator: "/").last ?? "") }.map { name in
            kinds.contains { $0.kind.fileName + ".json" == name } ? String(name.dropLast(5)) : name
        }
        if let name, aasaNames.contains(name) { return nil }
        let wanted = Set(wants.all.map { type(of: $0).kind.id })
        let chosen =
            kinds.first { $0.kind.fileName == name } ?? kinds.first { wanted.contains($0.kind.id) }
            ?? kinds.first { $0.lint.looksLikeItsFile(bytes) }
        return chosen?.lint.lint(bytes, size: size, wants: wants)
    }

    /// What `lint --kind` takes: `aasa`, and each kind's name.
    public static let aasaKindName = AssociationKinds.aasaName
    public static var kindNames: [String] {
        [aasaKindName]
            + AssociationKinds.all.filter { $0.wantType is any LintedWant.Type }.map(\.id)
    }
}
