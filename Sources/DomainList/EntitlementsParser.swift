import AASAModel
import Foundation

/// The hosts an app's entitlements name: `com.apple.developer.associated-domains` entries of
/// the form `SERVICE:HOST[?mode=MODE]` (services applinks, webcredentials, appclips,
/// activitycontinuation; modes developer, managed, developer+managed). A `*.` wildcard entry
/// names no single host, so it is reported rather than audited.
public enum EntitlementsParser {
    public static let key = "com.apple.developer.associated-domains"
    public static let modes = EntitlementEntry.modes

    /// One target per host, in the order the file names them, with every service that names
    /// it and the given app IDs as the ones the host's file must name.
    public static func parse(_ bytes: [UInt8], fileName: String, appIDs: [String]) -> DomainListParser.Result {
        var problems: [InputProblem] = []
        func problem(_ code: InputProblemCode, _ text: String, _ message: String) {
            problems.append(
                InputProblem(
                    code, file: fileName, line: line(of: text, in: bytes), text: String(text.prefix(200)),
                    message: message))
        }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            problem(.entitlementsUnreadable, "", "The file is not a property list: \(error.localizedDescription)")
            return DomainListParser.Result(targets: [], problems: problems)
        }
        guard let dictionary = plist as? [String: Any] else {
            problem(.entitlementsUnreadable, "", "The property list is not a dictionary of entitlements.")
            return DomainListParser.Result(targets: [], problems: problems)
        }
        guard let entries = dictionary[key] as? [Any] else {
            problem(
                .entitlementsNoDomains, "",
                dictionary[key] == nil
                    ? "The entitlements name no associated domains (\(key))." : "\(key) is not an array of strings.")
            return DomainListParser.Result(targets: [], problems: problems)
        }

        var targets: [DomainTarget] = []
        var position: [String: Int] = [:]
        for case let entry as String in entries {
            guard let (service, host, mode) = read(entry, problem: problem) else { continue }
            let associated = AssociatedService(service: service, mode: mode, file: fileName)
            if let index = position[host] {
                if !targets[index].services.contains(associated) { targets[index].services.append(associated) }
            } else {
                position[host] = targets.count
                targets.append(DomainTarget(domain: host, expectedAppIDs: appIDs, services: [associated]))
            }
        }
        return DomainListParser.Result(targets: targets, problems: problems)
    }

    /// An entry's service, host (normalised) and mode; nil, with the problem said, for an entry
    /// that is not SERVICE:HOST[?mode=MODE], a wildcard, or a host that is not one.
    static func read(
        _ entry: String, problem: (InputProblemCode, String, String) -> Void
    ) -> (AssociatedDomainService, String, String?)? {
        let split: EntitlementEntry
        switch EntitlementEntry.split(entry) {
        case .success(let entry): split = entry
        case .failure(.notAnEntry):
            problem(.entitlementsEntry, entry, "\"\(entry)\" is not SERVICE:HOST.")
            return nil
        case .failure(.badParameter):
            problem(
                .entitlementsEntry, entry,
                "\"\(entry)\": the only parameter is mode=developer, managed or developer+managed.")
            return nil
        case .failure(.unknownService(let name)):
            let known = AssociatedDomainService.allCases.map(\.rawValue).joined(separator: ", ")
            problem(.entitlementsEntry, entry, "\"\(entry)\": \(name) is not an associated-domains service (\(known)).")
            return nil
        }
        if split.host.hasPrefix("*.") {
            problem(
                .entitlementsWildcard, entry,
                "\"\(entry)\" is a wildcard, which names no single host to fetch; it covers subdomains only, not \(split.host.dropFirst(2)) itself. List the hosts to audit in the domains file."
            )
            return nil
        }
        switch HostName.normalize(split.host) {
        case .success(let host): return (split.service, host, split.mode)
        case .failure(let error):
            problem(.entitlementsEntry, entry, "\"\(split.host)\" \(error.reason).")
            return nil
        }
    }

    /// The line of an XML property list where an entry's `<string>` stands (1 when the text is
    /// empty, not found, or the list is binary).
    static func line(of entry: String, in bytes: [UInt8]) -> Int {
        guard !entry.isEmpty, let at = bytes.firstRange(of: Array(">\(entry)<".utf8)) else { return 1 }
        return bytes[..<at.lowerBound].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    /// Targets of several inputs as one list: a host named again gets the later input's
    /// services and app IDs added.
    public static func merge(_ lists: [[DomainTarget]]) -> [DomainTarget] {
        // One list is merged already (each parser lists a host once).
        if lists.count == 1 { return lists[0] }
        var merged: [DomainTarget] = []
        var position: [String: Int] = [:]
        for target in lists.joined() {
            guard let index = position[target.domain] else {
                position[target.domain] = merged.count
                merged.append(target)
                continue
            }
            for id in target.expectedAppIDs where !merged[index].expectedAppIDs.contains(id) {
                merged[index].expectedAppIDs.append(id)
            }
            for service in target.services where !merged[index].services.contains(service) {
                merged[index].services.append(service)
            }
            merged[index].expectations += target.expectations
            merged[index].wants.merge(target.wants)
        }
        return merged
    }
}
