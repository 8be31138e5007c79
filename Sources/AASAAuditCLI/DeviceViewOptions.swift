import AASAAudit
import AASAModel
import ArgumentParser

/// The options of what an audit fetches besides the origin: Apple's CDN and the bot check.
struct DeviceViewOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The base of Apple's CDN URL; the host is appended.", valueName: "url"))
    var cdnURL: String = AppleLimits.cdnBase

    @Flag(help: "Do not fetch Apple's CDN copy.")
    var noCDN = false

    @Option(help: "The user agent of Apple's bot, for the bot-blocking check.")
    var botUserAgent: String = AppleLimits.botUserAgent

    @Option(help: "The browser user agent the bot's answer is compared with.")
    var browserUserAgent: String = DeviceViewSettings.safari

    @Flag(help: "Do not compare the answers Apple's bot and a browser get.")
    var noUACheck = false

    func validate() throws {
        guard cdnURL.lowercased().hasPrefix("https://") else {
            throw ValidationError("--cdn-url must be an https URL.")
        }
        for agent in [botUserAgent, browserUserAgent] where agent.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw ValidationError("user agents must be one line.")
        }
    }

    var settings: DeviceViewSettings {
        DeviceViewSettings(
            cdnBase: noCDN ? nil : cdnURL, botUserAgent: noUACheck ? nil : botUserAgent,
            browserUserAgent: noUACheck ? nil : browserUserAgent)
    }
}
