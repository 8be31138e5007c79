import AASAModel

/// `assetlinks.json` in the terminal and the HTML report.
enum AssetLinksSections {
    static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    /// "Android apps (declared: …; expected: …)"; nil when the file was not audited.
    static func htmlParagraph(_ records: AssociationRecords) -> String? {
        guard let expected = records.expectedAndroidApps else { return nil }
        let declared =
            records.android.map {
                $0.apps.map { app in
                    "\(app.package) [\(app.fingerprints.joined(separator: ", "))]"
                        + (app.dynamicRules.map { ", \($0) dynamic rule\($0 == 1 ? "" : "s")" } ?? "")
                }.joined(separator: "; ")
            } ?? "no usable assetlinks.json"
        let includes = records.android?.includes ?? []
        return "Android apps (declared: \(declared.isEmpty ? "no android_app statement" : declared)"
            + (expected.isEmpty ? "" : "; expected: \(expected.joined(separator: ", "))")
            + (includes.isEmpty ? "" : "; includes: \(includes.joined(separator: ", "))") + ")"
    }
}

extension TerminalReport {
    func assetLinksRows(_ records: AssociationRecords) -> [(String, String)] {
        guard let expected = records.expectedAndroidApps else { return [] }
        var rows = [("Android", records.android.map(androidLine) ?? "(no usable assetlinks.json)")]
        if !expected.isEmpty { rows.append(("Expected", expected.map(clean).joined(separator: ", "))) }
        if let includes = records.android?.includes, !includes.isEmpty {
            rows.append(("Includes", includes.map(clean).joined(separator: ", ")))
        }
        return rows
    }

    func assetLinksLintRows(_ records: AssociationRecords) -> [(String, String)]? {
        records.android.map { [("Android", androidLine($0))] }
    }

    /// Each declared package with its fingerprints (shortened), whether it handles links, and
    /// its dynamic rules.
    func androidLine(_ declarations: AndroidDeclarations) -> String {
        guard !declarations.apps.isEmpty else { return "(no android_app statement)" }
        return declarations.apps.map { app in
            let links = app.relations.contains(AssetLinksSections.handleAllURLs) ? "" : " (not for links)"
            let prints = app.fingerprints.map { String($0.prefix(11)) + "…" }.joined(separator: ", ")
            let rules = app.dynamicRules.map { ", \($0) dynamic rule\($0 == 1 ? "" : "s")" } ?? ""
            return clean("\(app.package) [\(prints)]\(links)\(rules)")
        }.joined(separator: "; ")
    }
}
