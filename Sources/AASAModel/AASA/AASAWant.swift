/// What a domain's line asks of its AASA: the apps it must list (`APPID` tokens, `--app-id`),
/// the URLs that must open an app or stay in the browser (`+`/`-` lines), and the entitlements
/// that named the host. A domain that serves none (`ios:none`) has no want: `DomainTarget.aasa`
/// is nil, and neither its origin nor Apple's CDN is asked for the file.
public struct AASAWant: Sendable, Equatable {
    public var appIDs: [String]
    public var expectations: [URLExpectation]
    /// Empty when the host came from a domains file only (then applinks is what matters).
    public var services: [AssociatedService]

    public init(appIDs: [String] = [], expectations: [URLExpectation] = [], services: [AssociatedService] = []) {
        self.appIDs = appIDs
        self.expectations = expectations
        self.services = services
    }

    /// The one value of the iOS choice, which removes the want: `ios:none` in domains.txt,
    /// `--ios none` for `check`, `ios=none` for serve's form and API, `"ios": "none"` in a record.
    public static let iosNone = "none"

    /// Whether an iOS choice says the domain serves no AASA (`none`, any case).
    public static func isNone(_ choice: String) -> Bool { choice.lowercased() == iosNone }
}

extension DomainTarget {
    /// What it asks of its AASA; nil for a domain that serves none (`ios:none`). Kept in the
    /// target's compact storage (the app IDs inline, the rest in its shared box), so a plain
    /// target stays 48 bytes; nil keeps what the line listed (`expectedAppIDs`, which its
    /// record shows).
    public var aasa: AASAWant? {
        get {
            guard servesAASA else { return nil }
            return AASAWant(appIDs: expectedAppIDs, expectations: expectations, services: services)
        }
        set {
            servesAASA = newValue != nil
            guard let want = newValue else { return }
            expectedAppIDs = want.appIDs
            expectations = want.expectations
            services = want.services
        }
    }
}
