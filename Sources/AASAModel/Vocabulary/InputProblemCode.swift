/// The catalog of input problems: each kind of bad line or file the input can hold, with its
/// code (in the report's `input.problems`) and its severity, stated once. A problem's severity
/// comes from here, as a finding's comes from the finding catalog.
public enum InputProblemCode: String, CaseIterable, Codable, Sendable {
    // domains.txt: the file, a line, a + or - URL line, a domain line's host and its tokens.
    case notADomainsFile = "input.not-a-domains-file"
    case lineTooLong = "input.line-too-long"
    case notUTF8 = "input.not-utf8"
    case urlWithoutDomain = "input.url-without-domain"
    case urlLine = "input.url-line"
    case urlSyntax = "input.url-syntax"
    case urlHost = "input.url-host"
    case tooManyURLs = "input.too-many-urls"
    case hostName = "input.host-name"
    case duplicateDomain = "input.duplicate-domain"
    case pastedForm = "input.pasted-form"
    case appID = "input.app-id"
    case tooManyAppIDs = "input.too-many-app-ids"
    case associationValue = "input.association-value"
    case label = "input.label"
    case iosToken = "input.ios-token"
    // An app's entitlements file (--entitlements).
    case entitlementsUnreadable = "entitlements.unreadable"
    case entitlementsEntry = "entitlements.entry"
    case entitlementsNoDomains = "entitlements.no-domains"
    case entitlementsWildcard = "entitlements.wildcard"
    // An app's manifest file (its intent filters' hosts).
    case manifestUnreadable = "manifest.unreadable"
    case manifestNoPackage = "manifest.no-package"
    case manifestNoHosts = "manifest.no-hosts"
    case manifestWildcardHost = "manifest.wildcard-host"
    case manifestHostName = "manifest.host-name"
    // The team's acknowledgements file of --out.
    case acknowledgementsUnreadable = "acknowledgements.unreadable"

    /// What it costs the input: an error leaves something out of the audit; a warning is read
    /// one way of two; a note says how something was read.
    public var severity: Severity {
        switch self {
        case .duplicateDomain, .manifestNoHosts, .entitlementsNoDomains, .entitlementsWildcard: .warning
        case .pastedForm, .manifestWildcardHost: .info
        default: .error
        }
    }
}

extension InputProblem {
    /// A problem of the input, at its catalogued severity.
    public init(_ code: InputProblemCode, file: String, line: Int, text: String, message: String) {
        self.init(file: file, line: line, text: text, severity: code.severity, message: message)
        self.code = code
    }
}
