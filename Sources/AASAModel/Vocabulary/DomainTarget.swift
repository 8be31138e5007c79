import Foundation

/// One domain to audit, as the input listed it.
///
/// What few lines have (URL expectations, an entitlement's services, the other association
/// files, labels, `ios:none`) is kept in one shared box, absent for a plain line: a list of a
/// million plain hosts pays no room for it (48 bytes a target instead of about 140).
public struct DomainTarget: Sendable, Equatable {
    /// Normalised: lower case, no trailing dot, punycode.
    public var domain: String
    public var expectedAppIDs: [String]
    public var inputLine: Int?
    private var extras: Extras?

    /// URLs that must open the app, or stay in the browser (`+`/`-` lines): part of `aasa`.
    public var expectations: [URLExpectation] {
        get { fields.expectations }
        set { update { $0.expectations = newValue } }
    }
    /// The services an app's entitlements name this host for; empty when it came from a
    /// domains file only (then applinks is what matters): part of `aasa`.
    public var services: [AssociatedService] {
        get { fields.services }
        set { update { $0.services = newValue } }
    }
    /// What it asks of the other association files (`AssociationFiles.swift`).
    public var wants: AssociationWants {
        get { fields.wants }
        set { update { $0.wants = newValue } }
    }
    /// `label:KEY=VALUE` tokens (`DomainLabels`): whose it is, for routing alerts.
    public var labels: [String: String] {
        get { fields.labels }
        set { update { $0.labels = newValue } }
    }
    /// False for `ios:none`: the domain serves no AASA (`aasa`, which reads this).
    var servesAASA: Bool {
        get { fields.servesAASA }
        set { update { $0.servesAASA = newValue } }
    }

    public init(
        domain: String, expectedAppIDs: [String] = [], inputLine: Int? = nil, expectations: [URLExpectation] = [],
        services: [AssociatedService] = [], wants: AssociationWants = AssociationWants()
    ) {
        self.domain = domain
        self.expectedAppIDs = expectedAppIDs
        self.inputLine = inputLine
        update {
            $0.expectations = expectations
            $0.services = services
            $0.wants = wants
        }
    }

    public static func == (a: DomainTarget, b: DomainTarget) -> Bool {
        a.domain == b.domain && a.expectedAppIDs == b.expectedAppIDs && a.inputLine == b.inputLine
            && a.fields == b.fields
    }

    private struct Fields: Sendable, Equatable {
        var expectations: [URLExpectation] = []
        var services: [AssociatedService] = []
        var wants = AssociationWants()
        var labels: [String: String] = [:]
        var servesAASA = true
    }

    /// Immutable: a change makes a new box, so copies of a target never share a change.
    private final class Extras: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private static let plain = Fields()

    private var fields: Fields { extras?.fields ?? Self.plain }

    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = fields
        change(&fields)
        extras = fields == Self.plain ? nil : Extras(fields)
    }
}

/// An associated-domains entitlement entry for a host: `applinks:example.com?mode=developer`.
public struct AssociatedService: Codable, Sendable, Equatable, Hashable {
    public var service: AssociatedDomainService
    /// `developer`, `managed` or `developer+managed`; nil for the normal mode.
    public var mode: String?
    /// The entitlements file that named it.
    public var file: String

    public init(service: AssociatedDomainService, mode: String? = nil, file: String) {
        self.service = service
        self.mode = mode
        self.file = file
    }
}

/// A `+ URL` (must open one of the domain's app IDs, or any app when it lists none) or
/// `- URL` (must stay in the browser) line of the input.
public struct URLExpectation: Sendable, Equatable {
    public var url: String
    public var opensApp: Bool
    public var inputLine: Int

    public init(url: String, opensApp: Bool, inputLine: Int) {
        self.url = url
        self.opensApp = opensApp
        self.inputLine = inputLine
    }
}
