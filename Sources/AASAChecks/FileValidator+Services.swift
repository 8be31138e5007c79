import AASAJSON
import AASAModel

/// The top level and the sections of the other services (`{"apps": [...]}`).
extension FileValidator {

    mutating func validate(_ file: JSONObject) {
        reportDuplicateKeys(.object(file), at: "")
        for member in file.members {
            switch AssociatedDomainService(rawValue: member.key) {
            case .applinks:
                if case .object(let applinks) = member.value { validateApplinks(applinks, file: file) }
            case .webcredentials?, .appclips?, .activitycontinuation?:
                validateService(member.key, member.value)
            case nil:
                report(
                    .aasa(.fileUnknownKey),
                    "Unknown top-level key \"\(member.key)\"\(hint(member.key, among: Self.services)); iOS ignores it.")
            }
        }
    }

    mutating func validateService(_ name: String, _ value: JSONValue) {
        guard case .object(let section) = value else {
            report(.aasa(.serviceInvalid), "\(name) is \(Self.a(value)), not an object of the form {\"apps\": [...]}.")
            return
        }
        if section.members.isEmpty {
            report(
                .aasa(.serviceInvalid), .emptySection,
                "\(name) is an empty object, a stub: iOS reads no apps from it and ignores it; the rest of the file works."
            )
            return
        }
        for key in section.keys where key != "apps" {
            report(.aasa(.fileUnknownKey), "Unknown key \"\(key)\" in \(name); only apps is read.")
        }
        guard case .array(let apps)? = section["apps"] else {
            let found = section["apps"].map { "is \(Self.a($0))" } ?? "is missing"
            report(.aasa(.serviceInvalid), "\(name).apps \(found); it must be an array of app IDs.")
            return
        }
        for (index, app) in apps.enumerated() {
            guard case .string(let id) = app else {
                report(.aasa(.serviceInvalid), "\(name).apps[\(index)] is \(Self.a(app)), not an app ID string.")
                continue
            }
            if name == AssociatedDomainService.appclips.rawValue, !id.hasSuffix(".Clip") {
                report(
                    .aasa(.appClipSuffix),
                    "\(name).apps[\(index)] \"\(id)\" does not end in .Clip, as App Clip IDs do by convention.")
            }
        }
    }
}
