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
    /// For an Android `assetlinks.json` (recognised by its content): what it declares.
    public var android: AndroidDeclarations?

    public init(file: String, verdict: Verdict, appIDs: ServiceAppIDs?, findings: [Finding], error: String? = nil, android: AndroidDeclarations? = nil) {
        self.file = file
        self.verdict = verdict
        self.appIDs = appIDs
        self.findings = findings
        self.error = error
        self.android = android
    }
}
