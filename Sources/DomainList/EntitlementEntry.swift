import AASAModel

/// An associated-domains entry as entitlements (and people pasting from Xcode) write it:
/// `SERVICE:HOST[?mode=MODE]`, split into its parts; the host is as written, not yet checked.
struct EntitlementEntry: Equatable {
    var service: AssociatedDomainService
    var host: String
    var mode: String?

    static let modes = ["developer", "managed", "developer+managed"]

    enum Failure: Error, Equatable {
        /// No `SERVICE:` in front.
        case notAnEntry
        /// `NAME:` names no associated-domains service.
        case unknownService(String)
        /// A parameter other than `mode=` one of `modes`.
        case badParameter
    }

    static func split(_ text: String) -> Result<EntitlementEntry, Failure> {
        guard let colon = text.firstIndex(of: ":") else { return .failure(.notAnEntry) }
        let name = String(text[..<colon])
        guard let service = AssociatedDomainService(rawValue: name) else { return .failure(.unknownService(name)) }
        var host = String(text[text.index(after: colon)...])
        var mode: String?
        if let query = host.firstIndex(of: "?") {
            let parameter = host[host.index(after: query)...]
            guard parameter.hasPrefix("mode="), modes.contains(String(parameter.dropFirst(5))) else {
                return .failure(.badParameter)
            }
            mode = String(parameter.dropFirst(5))
            host = String(host[..<query])
        }
        return .success(EntitlementEntry(service: service, host: host, mode: mode))
    }
}
