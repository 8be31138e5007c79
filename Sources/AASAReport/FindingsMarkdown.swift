import AASAModel

/// `docs/findings.md`, generated from the finding catalog (`FindingCode.definition`) so that
/// the two cannot drift apart (a test compares them): a table per category, an anchor per code.
public enum FindingsMarkdown {
    public static func document() -> String {
        var lines = [
            "# Finding codes",
            "",
            "Every finding in a report has one of these codes. Codes are stable: new ones are added, none is renamed.",
            "The severity is the one a finding has at `.well-known` (the file devices read) or for the domain as a whole;",
            "a finding about the root copy (`/apple-app-site-association`) is at most a warning when the root serves a",
            "file with status 200, and only info when it does not. A domain's verdict is `fail` with any error, `warn` with",
            "any warning, else `pass`. Where a code has another severity in a named case, the severity column says when.",
            "",
            "This file is generated from the catalog (each family's codes and entries: `Sources/AASAModel/AASA/AASACode.swift`, each kind's `FindingCatalog+Kind.swift`) by",
            "`aasa-audit explain \(OptionName.markdown)`; each code's anchor is its name (`findings.md#http.redirect`).",
        ]
        for category in FindingCategory.allCases {
            let codes = FindingCode.allCases.filter { $0.definition.category == category }
            guard !codes.isEmpty else { continue }
            lines += [
                "", "## \(category.title)", "", "| code | severity | what it means | how to fix it |",
                "| --- | --- | --- | --- |",
            ]
            for code in codes {
                let entry = code.definition
                lines.append(
                    "| <a id=\"\(code.rawValue)\"></a>`\(code.rawValue)` | \(entry.severityText) | \(escape(entry.meaning)) | \(escape(entry.fix)) |"
                )
            }
        }
        lines += platformSection()
        return lines.joined(separator: "\n") + "\n"
    }

    /// The fixes by hosting platform (`PlatformFixes`): how a platform is recognised, its
    /// documentation, and its fix per code.
    static func platformSection() -> [String] {
        var lines = [
            "", "## Fixes by hosting platform", "",
            "A domain's record names the hosting platform, CDN or web server its answers came from (`platform`),",
            "recognised by the marks it leaves in the response, the first that matches in this order:",
            HostingPlatform.marks.map { "\($0.mark.description) (\($0.platform.name))" }.joined(separator: "; ") + ".",
            "For the findings below, the report gives that platform's fix beside the generic one (`platformFix`). A",
            "Firebase site on a custom domain shows only Fastly's marks, and is named Fastly: its fixes are Firebase's below.",
            "A fix is written once for each way a file can be served wrong, and every file audited gets it, naming its own",
            "path and name: each row lists the codes of every file it is for, and shows the fix as it reads for the first.",
            "A syntax finding (\(AssociationKinds.files.flatMap { $0.codes(of: .syntax) }.map { "`\($0.rawValue)`" }.joined(separator: ", "))) gets its platform's fix only when a web page answered in the file's place, never for a mistake in the file itself.",
        ]
        let files = AssociationKinds.files
        for platform in HostingPlatform.allCases {
            var seen = Set<String>()
            let rows = ServingProblem.allCases.flatMap { problem in
                [nil, 403].compactMap { status -> ([FindingCode], String)? in
                    let answer = ServedAnswer(status: status, servedAPage: true)
                    let fixed = files.filter { PlatformFixes.fix(problem, of: $0, on: platform, answer: answer) != nil }
                    guard let first = fixed.first,
                        let fix = PlatformFixes.fix(problem, of: first, on: platform, answer: answer),
                        seen.insert(fix).inserted
                    else { return nil }
                    return (fixed.flatMap { $0.codes(of: problem) }, fix)
                }
            }
            guard !rows.isEmpty else { continue }
            lines += ["", "### \(platform.name)", ""]
            let docs = PlatformFixes.documentation(platform)
            if !docs.isEmpty {
                lines += ["Documentation: " + docs.map { "<\($0)>" }.joined(separator: ", ") + ".", ""]
            }
            lines += ["| codes | the fix on \(platform.name) |", "| --- | --- |"]
            for (codes, fix) in rows {
                let links = codes.map { "[`\($0.rawValue)`](#\($0.rawValue))" }.joined(separator: " ")
                lines.append("| \(links) | \(escape(fix)) |")
            }
        }
        return lines
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }
}
