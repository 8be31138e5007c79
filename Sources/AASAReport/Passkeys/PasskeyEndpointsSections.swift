import AASAModel

/// `/.well-known/passkey-endpoints` in the terminal and the HTML report.
extension PasskeyEndpointsRecord: RenderedSection {
    static var schema: AssociationSchema? { PasskeyEndpointsSchema.entry }

    func terminalRows(in report: TerminalReport) -> [(String, String)] {
        passkeyEndpoints.map { [("Passkey endpoints", report.clean(line($0)))] } ?? []
    }

    func lintTerminalRows(in report: TerminalReport) -> [(String, String)] { terminalRows(in: report) }

    var htmlParagraph: String? { passkeyEndpoints.map { "Passkey endpoints: \(line($0))" } }

    func line(_ endpoints: PasskeyEndpoints) -> String {
        guard endpoints.served else { return "(none served)" }
        let advertised = endpoints.advertised
        return advertised.isEmpty
            ? "{} (none advertised)" : advertised.map { "\($0.name) \($0.url)" }.joined(separator: ", ")
    }
}

/// The JSON Schema of `/.well-known/passkey-endpoints` (`schemas/`, printed by `aasa-audit schema
/// passkey-endpoints`). Its text is the repository's file, embedded by Scripts/generate-docs.sh.
public enum PasskeyEndpointsSchema {
    public static let entry = AssociationSchema(
        kind: .passkeyEndpoints, file: "passkey-endpoints.schema.json", text: text)
}
