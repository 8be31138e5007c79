import AASAModel

/// `assetlinks.json` in the terminal and the HTML report.
extension AndroidRecord: RenderedSection {
    static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    static var schema: AssociationSchema? { AssetLinksSchema.entry }

    func terminalRows(in report: TerminalReport) -> [(String, String)] { report.assetLinksRows(self) }

    func lintTerminalRows(in report: TerminalReport) -> [(String, String)] {
        android.map { [("Android", report.androidLine($0))] } ?? []
    }

    /// "Android apps (declared: …; expected: …)"; nil when the file was not audited.
    var htmlParagraph: String? {
        let records = self
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
    func assetLinksRows(_ records: AndroidRecord) -> [(String, String)] {
        guard let expected = records.expectedAndroidApps else { return [] }
        var rows = [("Android", records.android.map(androidLine) ?? "(no usable assetlinks.json)")]
        if !expected.isEmpty { rows.append(("Expected", expected.map(clean).joined(separator: ", "))) }
        if let includes = records.android?.includes, !includes.isEmpty {
            rows.append(("Includes", includes.map(clean).joined(separator: ", ")))
        }
        return rows
    }

    /// Each declared package with its fingerprints (shortened), whether it handles links, and
    /// its dynamic rules.
    func androidLine(_ declarations: AndroidDeclarations) -> String {
        guard !declarations.apps.isEmpty else { return "(no android_app statement)" }
        return declarations.apps.map { app in
            let links = app.relations.contains(AndroidRecord.handleAllURLs) ? "" : " (not for links)"
            let prints = app.fingerprints.map { String($0.prefix(11)) + "…" }.joined(separator: ", ")
            let rules = app.dynamicRules.map { ", \($0) dynamic rule\($0 == 1 ? "" : "s")" } ?? ""
            return clean("\(app.package) [\(prints)]\(links)\(rules)")
        }.joined(separator: "; ")
    }
}
