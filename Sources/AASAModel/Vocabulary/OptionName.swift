/// The command line's options that other layers' messages name ("give the --out of your
/// audits"): each spelled once, here. The CLI declares them with these names
/// (`.customLong(OptionName.out.rawValue)`); `OneOwnerTests` finds a name spelled elsewhere, and
/// `CommandLineTests` holds every case to be an option of the program. A kind's option is its
/// word (`AssociationKind.word`), and its other options are in its room.
public enum OptionName: String, Sendable, CaseIterable, CustomStringConvertible {
    case out
    case json
    case markdown
    case until
    case reason
    case code
    case severity
    case minimumIOS = "min-ios"
    case appID = "app-id"
    case entitlements
    case resume
    case stats
    case junit
    case metrics
    case notify
    case timeout
    case concurrency
    case resolve
    case connectTo = "connect-to"
    case allowNetwork = "allow-network"
    case noCDN = "no-cdn"
    case certificateWarningDays = "cert-warn-days"
    case perAddress = "per-address"
    case perAddressRate = "per-address-rate"
    case dnsRate = "dns-rate"
    case listen
    case serverName = "server-name"
    case tokenFile = "token-file"
    case checksPerMinute = "checks-per-minute"
    case maximumChecks = "max-checks"

    /// As a user types it: `--out`.
    public var description: String { "--" + rawValue }
}
