import AASAAudit
import AASAChecks
import AASAModel
import ArgumentParser

/// The options of what an audit fetches besides the origin: Apple's CDN and the bot check.
struct DeviceViewOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The base of Apple's CDN URL; the host is appended.", valueName: "url"))
    var cdnURL: String = AppleLimits.cdnBase

    @Flag(name: .customLong(OptionName.noCDN.rawValue), help: "Do not fetch Apple's CDN copy.")
    var noCDN = false

    @Option(help: "The user agent of Apple's bot, for the bot-blocking check.")
    var botUserAgent: String = AppleLimits.botUserAgent

    @Option(help: "The browser user agent the bot's answer is compared with.")
    var browserUserAgent: String = DeviceViewSettings.safari

    @Flag(help: "Do not compare the answers Apple's bot and a browser get.")
    var noUACheck = false

    @Option(
        name: .customLong(OptionName.certificateWarningDays.rawValue),
        help: ArgumentHelp(
            "Warn when the host's TLS certificate expires within this many days (tls.expiring; 0: never).",
            valueName: "days"))
    var certWarnDays: Int = CertificateExpiry.standardWarningDays

    func validate() throws {
        guard cdnURL.lowercased().hasPrefix("https://") else {
            throw ValidationError("--cdn-url must be an https URL.")
        }
        guard (0...3650).contains(certWarnDays) else {
            throw ValidationError("--cert-warn-days must be a number of days from 0 to 3650.")
        }
        for agent in [botUserAgent, browserUserAgent] where agent.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw ValidationError("user agents must be one line.")
        }
    }

    var settings: DeviceViewSettings {
        var settings = DeviceViewSettings(
            cdnBase: noCDN ? nil : cdnURL, botUserAgent: noUACheck ? nil : botUserAgent,
            browserUserAgent: noUACheck ? nil : browserUserAgent)
        settings.certificateWarningDays = certWarnDays
        return settings
    }
}
