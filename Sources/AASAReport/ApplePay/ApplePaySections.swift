import AASAModel

/// Apple Pay's merchant file in the terminal and the HTML report: what was served (its size,
/// SHA-256 and type) and the hash the input names. The file is opaque, so it has no schema.
extension ApplePayRecord: RenderedSection {
    static var schema: AssociationSchema? { nil }

    func terminalRows(in report: TerminalReport) -> [(String, String)] {
        var rows: [(String, String)] = []
        if let expected = expectedApplePaySHA256, !expected.isEmpty {
            rows.append(("Apple Pay SHA-256", report.clean(expected.joined(separator: ", "))))
        }
        if let applePay { rows.append(("Apple Pay", report.clean(line(applePay)))) }
        return rows
    }

    func lintTerminalRows(in report: TerminalReport) -> [(String, String)] {
        applePay.map { [("Apple Pay", report.clean(line($0)))] } ?? []
    }

    var htmlParagraph: String? { applePay.map { "Apple Pay merchant file: \(line($0))" } }

    func line(_ file: ApplePayFile) -> String {
        let type =
            (file.contentType.map { ", served as \($0.prefix(80))" } ?? "")
            + (file.tls.map { " over \($0.version.prefix(20)) \($0.suite.prefix(60))" } ?? "")
        return
            "\(file.bytes) bytes\(type), SHA-256 \(file.sha256.prefix(64)) (applepay:\(file.sha256.prefix(64)) in domains.txt holds the site to these bytes)"
    }
}
