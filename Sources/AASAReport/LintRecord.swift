import AASAModel

/// One file's result in `aasa-audit lint --json` (an array of these, in argument order).
public struct LintRecord: Codable, Sendable, Equatable {
    public var file: String
    public var verdict: Verdict
    /// Absent when the file could not be read.
    public var appIDs: ServiceAppIDs?
    public var findings: [Finding]
    /// Why the file could not be read, when it could not.
    public var error: String?
    /// For another association file (recognised by its content): its section
    /// (`AssociationFiles.swift`), at the top level of the record.
    public var associations = AssociationRecords()

    private enum CodingKeys: String, CodingKey {
        case file, verdict, appIDs, findings, error
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        file = try container.decode(String.self, forKey: .file)
        verdict = try container.decode(Verdict.self, forKey: .verdict)
        appIDs = try container.decodeIfPresent(ServiceAppIDs.self, forKey: .appIDs)
        findings = try container.decode([Finding].self, forKey: .findings)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        associations = try AssociationRecords(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(verdict, forKey: .verdict)
        try container.encodeIfPresent(appIDs, forKey: .appIDs)
        try container.encode(findings.map(\.positioned), forKey: .findings)
        try container.encodeIfPresent(error, forKey: .error)
        try associations.encode(to: encoder)
    }

    public init(
        file: String, verdict: Verdict, appIDs: ServiceAppIDs?, findings: [Finding], error: String? = nil,
        associations: AssociationRecords = AssociationRecords()
    ) {
        self.file = file
        self.verdict = verdict
        self.appIDs = appIDs
        self.findings = findings
        self.error = error
        self.associations = associations
    }
}
