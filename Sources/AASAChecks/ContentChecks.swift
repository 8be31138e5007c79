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
            let message = "The file has no applinks section\(note): it opens no universal links."
            // A file of other services is what Apple asks of a domain that serves only those.
            findings.append(
                others.isEmpty || options.expectsUniversalLinks
                    ? Finding(.aasa(.applinksMissing), location, message)
                    : Finding(.aasa(.applinksMissing), .servicesOnly, location, message))
        case .object(let applinks)?:
            appIDs.applinks = applinksAppIDs(applinks)
        case let other?:
            findings.append(
                Finding(
                    .aasa(.applinksMissing), location,
                    "applinks is \(article(other.typeName)), not an object: it opens no universal links."))
        }
        appIDs.webcredentials = serviceApps(file[AssociatedDomainService.webcredentials.rawValue])
        appIDs.appclips = serviceApps(file[AssociatedDomainService.appclips.rawValue])
        appIDs.activitycontinuation = serviceApps(file[AssociatedDomainService.activitycontinuation.rawValue])

        // Each malformed app ID where it stands (a path `FindingPositions` reads back into a line
        // and column), once per ID and service.
        var reported = Set<String>()
        for (path, service, id) in appIDPlaces(file) where reported.insert("\(service)\u{0}\(id)").inserted {
            if let problem = AppIDFormat.problem(with: id) {
                findings.append(Finding(.aasa(.appIDMalformed), location, "\(path): \(problem)."))
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

    /// Every app ID of the file with the path to it, in the file's order: `applinks.details[0].appIDs[1]`,
    /// `applinks.details["ID"]` (the legacy dictionary's keys), `webcredentials.apps[0]`.
    static func appIDPlaces(_ file: JSONObject) -> [(path: String, service: String, id: String)] {
        var places: [(path: String, service: String, id: String)] = []
        let applinks = AssociatedDomainService.applinks.rawValue
        switch file[applinks]?.objectValue?["details"] {
        case .array(let entries)?:
            for (index, value) in entries.enumerated() {
                guard case .object(let entry) = value else { continue }
                if let single = entry["appID"]?.stringValue {
                    places.append(("\(applinks).details[\(index)].appID", applinks, single))
                }
                for (position, item) in (entry["appIDs"]?.arrayValue ?? []).enumerated() {
                    if case .string(let id) = item {
                        places.append(("\(applinks).details[\(index)].appIDs[\(position)]", applinks, id))
                    }
                }
            }
        case .object(let legacy)?:
            for key in legacy.keys {
                places.append(("\(applinks).details[\(JSONValue.string(key).prettyPrinted())]", applinks, key))
            }
        default:
            break
        }
        for service in AssociatedDomainService.appListServices {
            let name = service.rawValue
            for (index, item) in (file[name]?.objectValue?["apps"]?.arrayValue ?? []).enumerated() {
                if case .string(let id) = item { places.append(("\(name).apps[\(index)]", name, id)) }
            }
        }
        return places
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
