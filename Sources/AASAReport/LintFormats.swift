import AASAModel

extension Finding {
    /// The finding with its position, taken from its message ("at line 3, column 17") when the
    /// check gave it none as data.
    public var positioned: Finding {
        guard position == nil, let at = MessagePosition.parse(message) else { return self }
        var positioned = self
        positioned.position = FilePosition(pointer: nil, line: at.line, column: at.column)
        return positioned
    }
}

/// Where in a file a finding stands, when its message says ("at line 3, column 17"): JSON
/// syntax errors carry one.
public enum MessagePosition {
    public static func parse(_ message: String) -> (line: Int, column: Int)? {
        guard let range = message.range(of: "line ") else { return nil }
        let rest = message[range.upperBound...]
        let numbers = rest.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        guard numbers.count == 2, rest.contains(", column ") else { return nil }
        return (numbers[0], numbers[1])
    }
}

/// `lint --format`: one line per finding, for editors, CI logs and GitHub Actions.
public enum LintLineFormat: String, CaseIterable, Sendable {
    /// The human report (the default).
    case text
    /// `file:line:col: severity: code: message` (line and column when known, as compilers print).
    case compact
    /// GitHub Actions workflow commands: `::error file=F,line=L,col=C,title=CODE::message`.
    case github
    /// One SARIF 2.1.0 log for all the files (`SARIFReport`), not lines.
    case sarif

    public func lines(_ record: LintRecord) -> [String] {
        if let error = record.error {
            return [
                self == .github
                    ? "::error file=\(Self.property(record.file))::\(Self.data(error))"
                    : "\(record.file): error: \(error)"
            ]
        }
        return record.findings.map { finding in
            let position = finding.positioned.position.flatMap { at in at.line.map { ($0, at.column ?? 1) } }
            switch self {
            case .text, .compact, .sarif:
                let at = position.map { ":\($0.0):\($0.1)" } ?? ""
                return
                    "\(record.file)\(at): \(finding.severity.rawValue): \(finding.code.rawValue): \(TerminalReport(colour: false).clean(finding.message))"
            case .github:
                let command =
                    switch finding.severity {
                    case .error: "error"
                    case .warning: "warning"
                    case .info: "notice"
                    }
                let at = position.map { ",line=\($0.0),col=\($0.1)" } ?? ""
                return
                    "::\(command) file=\(Self.property(record.file))\(at),title=\(Self.property(finding.code.rawValue))::\(Self.data(finding.message))"
            }
        }
    }

    /// GitHub's escaping of a command's message, after the file's controls are made visible
    /// (a raw ESC or OSC sequence would drive the log viewer; a NUL would cut the line).
    static func data(_ text: String) -> String {
        ControlCharacters.replacing(text, keep: { $0 == "\n" }, with: ControlCharacters.visible)
            .replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub's escaping of a command's property value.
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}

extension TerminalReport {
    /// The closing line of `lint` over several files: how many, by verdict.
    public func lintSummary(_ records: [LintRecord]) -> String {
        let count = { (verdict: Verdict) in records.filter { $0.error == nil && $0.verdict == verdict }.count }
        let unreadable = records.filter { $0.error != nil }.count
        return
            "\(records.count) file\(records.count == 1 ? "" : "s"): \(count(.pass)) pass, \(count(.warn)) warn, \(count(.fail)) fail\(unreadable > 0 ? ", \(unreadable) unreadable" : "")\n"
    }
}
