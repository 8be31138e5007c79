import AASAJSON
import AASAModel

/// What a parsed association file says: the app IDs per service, and the findings about its
/// content (at their natural severity).
public struct ContentAssessment: Sendable, Equatable {
    public var appIDs: ServiceAppIDs
    public var findings: [Finding]
}

/// The checks on the content of a file that parsed as a JSON object.
public enum ContentChecks {
    public static func assess(
        _ file: JSONObject, at location: FindingLocation, options: ValidationOptions = ValidationOptions()
    ) -> ContentAssessment {
        var findings: [Finding] = []
        var appIDs = ServiceAppIDs()

        switch file["applinks"] {
        case nil:
            let others = AssociatedDomainService.appListServices.map(\.rawValue).filter { file[$0] != nil }
            let note = others.isEmpty ? "" : " (it has \(others.joined(separator: ", ")) only)"
            findings.append(
                Finding(
                    .applinksMissing, location, "The file has no applinks section\(note): it opens no universal links.")
            )
        case .object(let applinks)?:
            appIDs.applinks = applinksAppIDs(applinks)
        case let other?:
            findings.append(
                Finding(
                    .applinksMissing, location,
                    "applinks is \(article(other.typeName)), not an object: it opens no universal links."))
        }
        appIDs.webcredentials = serviceApps(file[AssociatedDomainService.webcredentials.rawValue])
        appIDs.appclips = serviceApps(file[AssociatedDomainService.appclips.rawValue])
        appIDs.activitycontinuation = serviceApps(file[AssociatedDomainService.activitycontinuation.rawValue])

        for (service, ids) in appIDs.byService {
            for id in ids ?? [] {
                if let problem = AppIDFormat.problem(with: id) {
                    findings.append(Finding(.appIDMalformed, location, "In \(service.rawValue): \(problem)."))
                }
            }
        }
        var validator = FileValidator(location: location, options: options)
        validator.validate(file)
        findings += validator.findings
        return ContentAssessment(appIDs: appIDs, findings: findings)
    }

    /// App IDs named by `applinks.details`: `appID` and `appIDs` of each entry, or the keys of
    /// the legacy dictionary form. Order of first appearance, without repeats.
    static func applinksAppIDs(_ applinks: JSONObject) -> [String] {
        var ids: [String] = []
        switch applinks["details"] {
        case .array(let entries)?:
            for case .object(let entry) in entries {
                if let single = entry["appID"]?.stringValue { ids.append(single) }
                for case .string(let id) in entry["appIDs"]?.arrayValue ?? [] { ids.append(id) }
            }
        case .object(let legacy)?:
            ids = legacy.keys
        default:
            break
        }
        return unique(ids)
    }

    /// The `apps` array of a webcredentials / appclips / activitycontinuation section.
    static func serviceApps(_ section: JSONValue?) -> [String]? {
        guard let section else { return nil }
        return unique(section.objectValue?["apps"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }

    static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }

    static func article(_ typeName: String) -> String {
        ["array", "object"].contains(typeName) ? "an \(typeName)" : "a \(typeName)"
    }
}
