import AASAModel

/// One cause, one headline: the findings of a domain that follow from another are linked to it
/// (`Finding.causedBy`), so that reports lead with causes and count by cause while the JSON
/// keeps every finding. Pure; run once over a domain's findings, after its severity policy.
///
/// - The origin's failure: a page answering every path (`location.catch-all`: the type, syntax
///   and shape findings of each file it answered for follow from it), Apple's bot refused, the
///   file only at the root or under a `.json` name, or the first error
///   that leaves `.well-known` without a usable file (a transfer failure, a status, a redirect,
///   bytes that are not a JSON object, a file too large or empty, a broken signature).
/// - What follows from it: no location serving the file, Apple's CDN without a copy, with a
///   failure or with a copy of a file the origin no longer has, and `.well-known`'s own
///   failures when the cause is one of the first two.
/// - The same transfer failure (DNS, connection, TLS, time) at another location of the host
///   (the root, another association file): the host's, reported once.
public enum FindingCauses {
    /// What follows from the origin's failure.
    static let followsFromNoFile: Set<FindingCode> = [
        .aasa(.locationNone), .aasa(.cdnMissing), .aasa(.cdnError), .aasa(.cdnStale),
    ]
    /// What leaves `.well-known` without a usable file, besides transfer and serving errors.
    static let unusableFile: Set<FindingCode> = [
        .aasa(.jsonInvalid), .aasa(.jsonNotObject), .aasa(.bodyTooLarge), .aasa(.bodyEmpty), .aasa(.signatureInvalid),
    ]

    public static func link(_ findings: [Finding]) -> [Finding] {
        var linked = findings
        let counted = findings.indices.filter { findings[$0].severity != .info }
        let headline =
            counted.first {
                [.aasa(.locationCatchAll), .aasa(.uaBlocked), .aasa(.locationRootOnly), .aasa(.locationMisnamed)]
                    .contains(findings[$0].code)
            }
            ?? counted.first { leavesNoFile(findings[$0]) }
        guard let headline else { return linked }
        let cause = FindingCause(findings[headline])
        let wellKnownFollows = findings[headline].location != .wellKnown
        for index in findings.indices where index != headline && findings[index].causedBy == nil {
            let finding = findings[index]
            let follows =
                followsFromNoFile.contains(finding.code)
                || (wellKnownFollows && leavesNoFile(finding))
                || (finding.code == cause.code && finding.code.definition.category == .transfer)
                || (cause.code == .aasa(.locationCatchAll) && answeredByThePage(finding))
            if follows { linked[index].causedBy = cause }
        }
        return linked
    }

    /// What a page answering in a file's place (`location.catch-all`) makes of that file: its
    /// type, its syntax, its shape, at any kind's location (each kind's codes end alike).
    static func answeredByThePage(_ finding: Finding) -> Bool {
        guard finding.severity != .info, finding.location != .domain else { return false }
        if [.aasa(.httpContentType), .aasa(.jsonInvalid), .aasa(.jsonNotObject)].contains(finding.code) { return true }
        let last = finding.code.rawValue.split(separator: ".").last ?? ""
        return pageAnswerParts.contains(String(last))
    }

    /// The last part of a kind's code about a body that is not its file.
    static let pageAnswerParts: Set<String> = ["content-type", "json-invalid", "not-list", "not-object", "shape"]

    /// A `.well-known` error after which there is no file to read.
    static func leavesNoFile(_ finding: Finding) -> Bool {
        guard finding.location == .wellKnown, finding.severity == .error else { return false }
        let category = finding.code.definition.category
        return category == .transfer || category == .serving || unusableFile.contains(finding.code)
    }
}
