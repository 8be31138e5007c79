import AASAModel

/// The table of finding codes in `docs/findings.md`, generated from the code so that the two
/// cannot drift apart (a test compares them).
public enum FindingCatalog {
    public static func markdown() -> String {
        var lines = [
            "# Finding codes",
            "",
            "Every finding in a report has one of these codes. Codes are stable: new ones are added, none is renamed.",
            "The severity is the one a finding has at `.well-known` (the file devices read) or for the domain as a whole;",
            "a finding about the root copy (`/apple-app-site-association`) is at most a warning when the root serves a",
            "file with status 200, and only info when it does not. A domain's verdict is `fail` with any error, `warn` with",
            "any warning, else `pass`.",
            "",
            "This file is generated from `Sources/AASAModel/FindingCode.swift` by `aasa-audit explain --markdown`.",
            "",
            "| code | severity | what it means | how to fix it |",
            "| --- | --- | --- | --- |",
        ]
        for code in FindingCode.allCases {
            let (meaning, fix) = code.explanation
            lines.append("| `\(code.rawValue)` | \(code.severityNote) | \(escape(meaning)) | \(escape(fix)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }
}
