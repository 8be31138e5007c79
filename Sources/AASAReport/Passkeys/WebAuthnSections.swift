import AASAModel

/// `/.well-known/webauthn` in the terminal and the HTML report.
extension WebAuthnRecord: RenderedSection {
    static var schema: AssociationSchema? { WebAuthnSchema.entry }

    func terminalRows(in report: TerminalReport) -> [(String, String)] {
        guard let expected = expectedOrigins else { return [] }
        var rows = [("Origins", webauthn.map { originsLine($0, report) } ?? "(no usable webauthn)")]
        if !expected.isEmpty { rows.append(("Expected", expected.map(report.clean).joined(separator: ", "))) }
        return rows
    }

    func lintTerminalRows(in report: TerminalReport) -> [(String, String)] {
        [("Origins", webauthn.map { originsLine($0, report) } ?? "(not readable)")]
    }

    /// "Related origins (allowed: …; expected: …)"; nil when the file was not audited.
    var htmlParagraph: String? {
        guard let expected = expectedOrigins else { return nil }
        let allowed =
            webauthn.map { $0.origins.isEmpty ? "none" : $0.origins.joined(separator: ", ") } ?? "no usable webauthn"
        let dropped = webauthn?.dropped ?? []
        return "Related origins (allowed: \(allowed)"
            + (expected.isEmpty ? "" : "; expected: \(expected.joined(separator: ", "))")
            + (dropped.isEmpty ? "" : "; past five labels: \(dropped.joined(separator: ", "))") + ")"
    }

    func originsLine(_ declarations: WebAuthnDeclarations, _ report: TerminalReport) -> String {
        let allowed = declarations.origins.isEmpty ? "(none)" : declarations.origins.joined(separator: ", ")
        let labels = "\(declarations.labels.count) label\(declarations.labels.count == 1 ? "" : "s")"
        let dropped =
            declarations.dropped.isEmpty
            ? "" : "; skipped past five labels: \(declarations.dropped.joined(separator: ", "))"
        return report.clean("\(allowed) (\(labels)\(dropped))")
    }
}
