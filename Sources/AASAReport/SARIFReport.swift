import AASAModel
import Foundation

/// `lint --format sarif`: a SARIF 2.1.0 log (OASIS, "Static Analysis Results Interchange
/// Format") for code-scanning tools such as GitHub's. One run; one rule per finding code of the
/// catalog, with its meaning and its fix as help; one result per finding, at its file and, when
/// the finding has one, its line and column (and its JSON pointer as a logical location).
public enum SARIFReport {
    public static let version = "2.1.0"
    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

    public static func document(_ records: [LintRecord], tool: ToolInfo) throws -> String {
        let codes = FindingCode.allCases
        let ruleIndex = Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, $0) })
        var results: [Result] = []
        for record in records {
            let file = ArtifactLocation(uri: uri(record.file))
            if let error = record.error {
                results.append(
                    Result(
                        ruleId: nil, ruleIndex: nil, level: "error", message: Message(text: error),
                        locations: [Location(physicalLocation: PhysicalLocation(artifactLocation: file, region: nil))]))
                continue
            }
            for finding in record.findings.map(\.positioned) {
                let region = finding.position?.line.map { Region(startLine: $0, startColumn: finding.position?.column) }
                let logical = finding.position?.pointer.map {
                    [LogicalLocation(fullyQualifiedName: $0, kind: "object")]
                }
                results.append(
                    Result(
                        ruleId: finding.code.rawValue, ruleIndex: ruleIndex[finding.code],
                        level: level(finding.severity), message: Message(text: finding.message),
                        locations: [
                            Location(
                                physicalLocation: PhysicalLocation(artifactLocation: file, region: region),
                                logicalLocations: logical)
                        ]))
            }
        }
        let rules = codes.map { code in
            let definition = code.definition
            return Rule(
                id: code.rawValue, name: code.rawValue,
                shortDescription: Message(text: firstSentence(definition.meaning)),
                fullDescription: Message(text: definition.meaning),
                help: Message(text: "Fix: \(definition.fix)"),
                helpUri: ToolInfo.documentation(code.documentationAnchor),
                defaultConfiguration: Configuration(level: level(definition.severity)),
                properties: Properties(tags: [definition.category.rawValue]))
        }
        let log = Log(
            schema: schemaURI, version: version,
            runs: [
                Run(
                    tool: Tool(
                        driver: Driver(
                            name: tool.name, version: tool.version, semanticVersion: tool.version,
                            informationUri: ToolInfo.homepage, rules: rules)),
                    results: results, columnKind: "unicodeCodePoints")
            ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(log), as: UTF8.self) + "\n"
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    static func firstSentence(_ text: String) -> String {
        guard let end = text.range(of: ". ") else { return text }
        return String(text[..<end.lowerBound]) + "."
    }

    /// A relative URI reference for a path: each segment percent-encoded but for unreserved
    /// characters; standard input (`-`) as `stdin`.
    static func uri(_ path: String) -> String {
        guard path != "-" else { return "stdin" }
        var allowed = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~/")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }

    // The SARIF objects this log uses, with SARIF's property names.
    struct Log: Encodable {
        let schema: String
        let version: String
        let runs: [Run]
        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case version, runs
        }
    }
    struct Run: Encodable {
        let tool: Tool
        let results: [Result]
        let columnKind: String
    }
    struct Tool: Encodable { let driver: Driver }
    struct Driver: Encodable {
        let name: String
        let version: String
        let semanticVersion: String
        let informationUri: String
        let rules: [Rule]
    }
    struct Rule: Encodable {
        let id: String
        let name: String
        let shortDescription: Message
        let fullDescription: Message
        let help: Message
        let helpUri: String
        let defaultConfiguration: Configuration
        let properties: Properties
    }
    struct Configuration: Encodable { let level: String }
    struct Properties: Encodable { let tags: [String] }
    struct Message: Encodable { let text: String }
    struct Result: Encodable {
        let ruleId: String?
        let ruleIndex: Int?
        let level: String
        let message: Message
        let locations: [Location]
    }
    struct Location: Encodable {
        let physicalLocation: PhysicalLocation
        var logicalLocations: [LogicalLocation]? = nil
    }
    struct PhysicalLocation: Encodable {
        let artifactLocation: ArtifactLocation
        let region: Region?
    }
    struct ArtifactLocation: Encodable { let uri: String }
    struct Region: Encodable {
        let startLine: Int
        let startColumn: Int?
    }
    struct LogicalLocation: Encodable {
        let fullyQualifiedName: String
        let kind: String
    }
}
