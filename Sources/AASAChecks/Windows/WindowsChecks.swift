import AASAJSON
import AASAMatching
import AASAModel

/// `windows-app-web-link` (Microsoft's "Enable apps for websites using app URI handlers"): served
/// at `/.well-known/` or the web root, a JSON array of entries, each naming an app by its package
/// family name and the paths it opens (`*` any run, `?` one character; `excludePaths` first).
public enum WindowsChecks {
    /// Entries' findings listed at most; the rest are counted in one.
    static let maximumListedProblems = 20
    static let entryKeys: Set<String> = ["packageFamilyName", "paths", "excludePaths", "allowSubdomains"]

    /// Both locations, judged together: one that serves a usable file is enough; two that differ
    /// are said; the file read is the `.well-known` one when it is usable.
    public static func assess(wellKnown: FetchedLocation, root: FetchedLocation?, expected: [String]) -> (
        findings: [Finding], declarations: WindowsDeclarations?
    ) {
        var findings: [Finding] = []
        var read: [(path: String, body: [UInt8], result: (findings: [Finding], declarations: WindowsDeclarations?))] =
            []
        let locations = [(wellKnown, AASALocation.windows.path)] + (root.map { [($0, WindowsLimits.rootPath)] } ?? [])
        for (fetched, path) in locations {
            if let body = served(fetched, path: path, findings: &findings) {
                read.append((path, body, assessContent(body, expected: expected, at: .windows)))
            }
        }
        guard let chosen = read.first(where: { $0.result.declarations != nil }) ?? read.first else {
            let errors = findings.filter { $0.severity != .info }
            findings.append(
                Finding(
                    .windows(.missing), .windows,
                    "Neither \(AASALocation.windows.path) nor \(WindowsLimits.rootPath) serves the file with 200."
                        + (errors.isEmpty ? "" : " \(errors.count == 1 ? "It" : "They") answered as said above.")))
            return (findings, nil)
        }
        if read.count == 2, read[0].body != read[1].body {
            findings.append(
                Finding(
                    .windows(.differ), .windows,
                    "\(AASALocation.windows.path) and \(WindowsLimits.rootPath) serve different files; \(chosen.path) is read here."
                ))
        }
        var declarations = chosen.result.declarations
        declarations?.servedAt = chosen.path
        return (findings + chosen.result.findings, declarations)
    }

    /// A location's body when it answered 200 (its type checked); what else it answered, said.
    static func served(_ fetched: FetchedLocation, path: String, findings: inout [Finding]) -> [UInt8]? {
        let record = fetched.record
        if let error = record.error {
            if error.kind != .skipped { findings.append(LocationChecks.transferFinding(error, at: .windows)) }
            return nil
        }
        guard let status = record.status else { return nil }
        if (300..<400).contains(status) {
            let target = record.redirectTarget ?? record.headers.location
            findings.append(
                Finding(
                    .windows(.redirect), .windows,
                    "\(path) answered HTTP \(status)\(target.map { " to \($0.prefix(300))" } ?? ""); serve the file there directly."
                ))
            return nil
        }
        guard status == 200 else {
            if status != 404 && status != 410 {
                findings.append(Finding(.windows(.status), .windows, "\(path) answered HTTP \(status)."))
            }
            return nil
        }
        if record.bodyTruncated || record.bodyBytes > WindowsLimits.maximumFileBytes {
            findings.append(
                Finding(
                    .windows(.tooLarge), .windows,
                    "\(path) is \(record.bodyTruncated ? "more than " : "")\(record.bodyBytes) bytes; this audit reads at most \(WindowsLimits.maximumFileBytes)."
                ))
            return nil
        }
        if record.headers.contentType.map(LocationChecks.mediaType(of:)) != "application/json" {
            findings.append(
                Finding(
                    .windows(.contentType), .windows,
                    "\(path): Content-Type is \(record.headers.contentType.map { String($0.prefix(200)) } ?? "missing"), not application/json."
                ))
        }
        return fetched.body
    }

    /// The file's content, wherever it came from (`lint` reads a local file at `.file`).
    public static func assessContent(_ bytes: [UInt8], expected: [String], at location: FindingLocation) -> (
        findings: [Finding], declarations: WindowsDeclarations?
    ) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            return ([Finding(.windows(.jsonInvalid), location, "Not valid JSON: \(error.description).")], nil)
        }
        guard let items = json.arrayValue else {
            return ([Finding(.windows(.notList), location, "The file is a JSON \(json.typeName), not an array.")], nil)
        }
        var problems: [Finding] = []
        var notes: [Finding] = []
        var entries: [WindowsDeclarations.Entry] = []
        for (index, item) in items.enumerated() {
            switch entry(item, index: index, at: location) {
            case .read(let entry, let entryNotes):
                entries.append(entry)
                notes += entryNotes
            case .unusable(let finding):
                problems.append(finding)
            }
        }
        var findings = bounded(problems) + bounded(notes)
        let declared = Set(entries.map(\.packageFamilyName))
        for name in expected where !declared.contains(name) {
            findings.append(
                Finding(.windows(.appMissing), location, missingMessage(name, declared: declared, items: items)))
        }
        return (FindingPositions.place(findings, in: bytes), WindowsDeclarations(entries: entries))
    }

    /// Why an expected app is not verified: an entry names it but cannot be used (its problem
    /// is said above), or none does (a near miss in case named), with the entry to add.
    static func missingMessage(_ name: String, declared: Set<String>, items: [JSONValue]) -> String {
        if let unusable = items.firstIndex(where: { $0.objectValue?["packageFamilyName"]?.stringValue == name }) {
            return
                "Entry [\(unusable)] names \(name) but Windows cannot use it (its problem is above): \(name) is not verified."
        }
        let nearMiss = declared.first { $0.lowercased() == name.lowercased() }
        return
            "No entry names \(name)\(nearMiss.map { " (\($0) differs only in case)" } ?? ""). Add {\"packageFamilyName\": \"\(name.prefix(120))\", \"paths\": [\"*\"]}."
    }

    /// An entry read, with its notes; or the finding that makes it unusable.
    enum EntryReading {
        case read(WindowsDeclarations.Entry, notes: [Finding])
        case unusable(Finding)
    }

    static func entry(_ item: JSONValue, index: Int, at location: FindingLocation) -> EntryReading {
        func problem(_ code: FindingCode, _ message: String) -> EntryReading {
            .unusable(Finding(code, location, "[\(index)] \(message)").at(.index(index)))
        }
        guard let object = item.objectValue else {
            return problem(.windows(.entry), "is a \(item.typeName), not an object.")
        }
        guard let name = object["packageFamilyName"]?.stringValue else {
            return problem(.windows(.entry), "has no packageFamilyName string.")
        }
        if let reason = PackageFamilyName.problem(with: name) { return problem(.windows(.packageName), reason + ".") }
        func strings(_ key: String) -> [String]?? {
            guard let value = object[key] else { return .some(nil) }
            guard let array = value.arrayValue else { return nil }
            let texts = array.compactMap(\.stringValue)
            return texts.count == array.count ? .some(texts) : nil
        }
        guard let paths = strings("paths"), let excluded = strings("excludePaths") else {
            return problem(.windows(.entry), "(\(name.prefix(120))): paths and excludePaths must be arrays of strings.")
        }
        let allow = object["allowSubdomains"]
        if let allow, allow.boolValue == nil {
            return problem(
                .windows(.entry), "(\(name.prefix(120))): allowSubdomains is a \(allow.typeName), not true or false.")
        }
        var notes: [Finding] = []
        if (paths ?? []).isEmpty {
            notes.append(
                Finding(
                    .windows(.pathsEmpty), location, "[\(index)] (\(name.prefix(120))) has no paths: it opens no URL."
                )
                .at(.index(index)))
        }
        notes += patternNotes(paths: paths ?? [], excluded: excluded ?? [], index: index, name: name, at: location)
        let unknown = object.keys.filter { !entryKeys.contains($0) }
        if !unknown.isEmpty {
            notes.append(
                Finding(
                    .windows(.unknownKey), location,
                    "[\(index)] has keys Windows ignores: \(unknown.prefix(10).map { "\"\($0.prefix(80))\"" }.joined(separator: ", "))."
                ).at(.index(index), .key(unknown[0])))
        }
        let entry = WindowsDeclarations.Entry(
            packageFamilyName: name, paths: paths ?? [], excludePaths: excluded ?? [],
            allowSubdomains: allow?.boolValue ?? false)
        return .read(entry, notes: notes)
    }

    /// Patterns Windows reads but that cannot do what they say: an exclusion of every path (the
    /// entry opens nothing), a pattern that cannot match a path (it does not start with `/`).
    static func patternNotes(
        paths: [String], excluded: [String], index: Int, name: String, at location: FindingLocation
    ) -> [Finding] {
        var notes: [Finding] = []
        let label = "[\(index)] (\(name.prefix(120)))"
        if !paths.isEmpty,
            let every = excluded.firstIndex(where: {
                $0 == "/*" || Pattern($0, variables: nil, caseSensitive: true).matchesEverything
            })
        {
            notes.append(
                Finding(
                    .windows(.excludesAll), location,
                    "\(label) excludes \"\(excluded[every].prefix(80))\", every path: Windows reads excludePaths first, so it opens no URL in the app."
                ).at(.index(index), .key("excludePaths"), .index(every)))
        }
        let unanchored = [("excludePaths", excluded), ("paths", paths)].flatMap { key, patterns in
            patterns.enumerated().filter { _, pattern in
                guard let first = pattern.first else { return false }
                return !["/", "*", "?"].contains(first)
            }.map { (key, $0.offset, $0.element) }
        }
        for (key, place, pattern) in unanchored.prefix(3) {
            notes.append(
                Finding(
                    .windows(.pathUnanchored), location,
                    "\(label) \(key) \"\(pattern.prefix(80))\" does not start with /: a URL's path always does, so it never matches\(key == "excludePaths" ? " (it excludes nothing)" : " (it opens nothing)")."
                ).at(.index(index), .key(key), .index(place)))
        }
        return notes
    }

    static func bounded(_ findings: [Finding]) -> [Finding] {
        guard findings.count > maximumListedProblems, let last = findings.last else { return findings }
        var summary = last
        summary.message =
            "\(findings.count - maximumListedProblems) more entries have problems like those above (the first \(maximumListedProblems) are listed)."
        return Array(findings.prefix(maximumListedProblems)) + [summary]
    }

    /// What Windows decides for `url` with `declarations` for the app `packageFamilyName`, the
    /// file read from `host`: its entries for the app, each's excludePaths first, then paths.
    public static func decide(
        _ url: MatchURL, packageFamilyName: String, declarations: WindowsDeclarations, host: String
    ) -> (outcome: MatchOutcome, entry: Int?, pattern: String?, exclude: Bool) {
        let own = declarations.entries.enumerated().filter { $0.element.packageFamilyName == packageFamilyName }
        var budget = MatchBudget()
        for (index, entry) in own {
            let sameHost = url.host == host || (entry.allowSubdomains && url.host.hasSuffix("." + host))
            guard sameHost else { continue }
            let path = url.path.isEmpty ? "/" : url.path
            if let pattern = entry.excludePaths.first(where: {
                Pattern($0, variables: nil, caseSensitive: true).matches(path, budget: &budget)
            }) {
                return (.excluded, index, pattern, true)
            }
            if let pattern = entry.paths.first(where: {
                Pattern($0, variables: nil, caseSensitive: true).matches(path, budget: &budget)
            }) {
                return (.app, index, pattern, false)
            }
        }
        return (budget.exhausted ? .undecided : .none, nil, nil, false)
    }
}
