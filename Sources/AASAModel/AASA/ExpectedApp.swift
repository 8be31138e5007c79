/// An app the input expects the AASA to name, and the service whose section must name it,
/// spelled as an entitlement entry spells a service: `webcredentials:TEAMID.bundle`,
/// `appclips:TEAMID.bundle.Clip`. A bare app ID (or `applinks:ID`) means applinks. The one
/// reader of that spelling: domains.txt, `check --app-id`, serve's form and API, records.
public struct ExpectedApp: Sendable, Hashable {
    public var service: AssociatedDomainService
    public var appID: String

    public init(service: AssociatedDomainService = .applinks, appID: String) {
        self.service = service
        self.appID = appID
    }

    /// Reads `spelled`; a bare app ID, or one after a prefix that names no service, is applinks'.
    public init(spelled: String) {
        if let colon = spelled.firstIndex(of: ":"),
            let service = AssociatedDomainService(rawValue: spelled[..<colon].lowercased())
        {
            self.init(service: service, appID: String(spelled[spelled.index(after: colon)...]))
        } else {
            self.init(appID: spelled)
        }
    }

    /// As the input writes it, and records keep it: the bare ID for applinks.
    public var spelled: String { service == .applinks ? appID : "\(service.rawValue):\(appID)" }

    /// Why `spelled` is not an expected app, or nil when it reads as one.
    public static func problem(with spelled: String) -> String? {
        if let colon = spelled.firstIndex(of: ":"),
            AssociatedDomainService(rawValue: spelled[..<colon].lowercased()) == nil
        {
            let names = AssociatedDomainService.allCases.map(\.rawValue).joined(separator: ", ")
            return
                "\"\(spelled.prefix(80))\" names no service before its colon (\(names)); a bare app ID means applinks"
        }
        return AppIDFormat.problem(with: ExpectedApp(spelled: spelled).appID)
    }
}

extension [ExpectedApp] {
    /// The app IDs one service's section must name, each once, in the input's order.
    public func appIDs(of service: AssociatedDomainService) -> [String] {
        var seen: Set<String> = []
        return filter { $0.service == service && seen.insert($0.appID).inserted }.map(\.appID)
    }
}

extension DomainTarget {
    /// The expected apps with their services (`expectedAppIDs` as the input spelled them).
    public var expectedApps: [ExpectedApp] { expectedAppIDs.map(ExpectedApp.init(spelled:)) }
}
