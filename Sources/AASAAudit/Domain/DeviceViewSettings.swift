import AASAChecks
import AASAModel

/// What an audit fetches besides the two origin locations.
public struct DeviceViewSettings: Sendable {
    /// Apple's CDN, as the base its URL starts with (the host is appended); nil: not fetched.
    public var cdnBase: String?
    /// The user agents of the bot-blocking comparison at `.well-known`; nil: not compared.
    public var botUserAgent: String?
    public var browserUserAgent: String?
    /// How many days ahead an expiring TLS certificate of the host is warned about
    /// (`--cert-warn-days`; `tls.expiring`).
    public var certificateWarningDays = CertificateExpiry.standardWarningDays

    public static let safari =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15"

    /// Only the two origin locations.
    public static let originOnly = DeviceViewSettings(cdnBase: nil, botUserAgent: nil, browserUserAgent: nil)

    public init(
        cdnBase: String? = AppleLimits.cdnBase, botUserAgent: String? = AppleLimits.botUserAgent,
        browserUserAgent: String? = safari
    ) {
        self.cdnBase = cdnBase
        self.botUserAgent = botUserAgent
        self.browserUserAgent = browserUserAgent
    }
}
