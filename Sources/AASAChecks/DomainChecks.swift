import AASAJSON
import AASAModel

/// The verdict logic for a domain: both locations judged together, plus the expectations of
/// the input. The `.well-known` file is the one devices use, so its problems keep their
/// severity; the root copy matters only to iOS 9-era fallback, so its problems are at most a
/// warning, and its absence is only info.
public enum DomainChecks {
    public struct Result: Sendable, Equatable {
        public var findings: [Finding]
        /// The app IDs of the `.well-known` file (empty when it has no usable file).
        public var appIDs: ServiceAppIDs
        /// The file each location served, where it parsed as a JSON object.
        public var wellKnownFile: JSONObject?
        public var rootFile: JSONObject?
    }

    /// Codes that follow from the bytes of a file alone, not from how it was served.
    static let contentCodes: Set<FindingCode> = [.bodyTooLarge, .jsonInvalid, .jsonNotObject, .applinksMissing, .appIDMalformed]

    public static func assess(target: DomainTarget, wellKnown: FetchedLocation, root: FetchedLocation) -> Result {
        let primary = LocationChecks.assess(wellKnown)
        let fallback = LocationChecks.assess(root)
        var findings = primary.findings
        // A root copy with the same bytes has the same content problems: report them once.
        let sameFile = !wellKnown.body.isEmpty && wellKnown.body == root.body && primary.answered200 && fallback.answered200
        let rootFindings = sameFile ? fallback.findings.filter { !contentCodes.contains($0.code) } : fallback.findings
        findings += rootFindings.map { finding in
            var capped = finding
            capped.severity = fallback.answered200 ? min(finding.severity, .warning) : .info
            return capped
        }

        if primary.file == nil, fallback.file != nil {
            findings.append(Finding(.locationRootOnly, .error, .domain, "A valid file is served only at \(AASALocation.root.path); current iOS and Apple's CDN read only \(AASALocation.wellKnown.path)."))
        }
        if !primary.answered200, !fallback.answered200, primary.responded || fallback.responded {
            findings.append(Finding(.locationNone, .error, .domain, "Neither location served the file with status 200."))
        }

        if primary.file != nil {
            let named = primary.content?.appIDs.applinks ?? []
            for expected in target.expectedAppIDs where !named.contains(expected) {
                let nearMiss = named.first { $0.lowercased() == expected.lowercased() }
                let hint = nearMiss.map { " (it names \($0), which differs only in case)" } ?? ""
                findings.append(Finding(.appIDMissing, .error, .wellKnown, "The expected app ID \(expected) is not in the file's applinks section\(hint)."))
            }
        }
        return Result(findings: findings, appIDs: primary.content?.appIDs ?? ServiceAppIDs(), wellKnownFile: primary.file, rootFile: fallback.file)
    }
}
