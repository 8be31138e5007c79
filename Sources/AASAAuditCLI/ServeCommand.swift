import AASAAudit
import AASAFetch
import AASAModel
import AASAServe
import ArgumentParser
import Foundation

/// `aasa-audit serve`: the team's page and API over HTTP (docs/serve.md).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the history, the reports, one-domain checks and an API over HTTP.",
        discussion:
            "Loopback by default; put it behind nginx or Caddy for TLS (docs/serve.md). Checks refuse private addresses unless --allow-network names them. SIGTERM lets running checks finish (up to --drain-seconds)."
    )

    @Option(
        name: .customLong(OptionName.out.rawValue),
        help: ArgumentHelp("The folder the audits write to (served read-only).", valueName: "dir"))
    var out = OutputFolderLayout.defaultFolder
    @Option(
        help: ArgumentHelp(
            "The address and port to listen on (default: \(ListenAddress.loopback)).", valueName: "host:port"),
        transform: ListenAddress.parse)
    var listen = ListenAddress.loopback
    @Option(
        name: .customLong(OptionName.maximumChecks.rawValue),
        help: ArgumentHelp("Checks running at once; more are answered 503.", valueName: "n"))
    var maxChecks = ServeSettings.defaultMaximumChecks
    @Option(
        name: .customLong(OptionName.checksPerMinute.rawValue),
        help: ArgumentHelp(
            "Checks one client may start a minute (bursts of a quarter of it); more are answered 429. 0: no limit.",
            valueName: "n"))
    var checksPerMinute = Int(ServeSettings.defaultChecksPerMinute)
    @Option(
        name: .customLong(OptionName.tokenFile.rawValue),
        help: ArgumentHelp(
            "A file holding the bearer token (Authorization: Bearer TOKEN) that \(Route.tokenScope) require.",
            valueName: "file"))
    var tokenFile: String?
    @Option(
        help: ArgumentHelp(
            "The reverse proxy's address or range (CIDR): its X-Forwarded-For names the client (repeatable).",
            valueName: "address"), transform: IPNetwork.parse)
    var trustedProxy: [IPNetwork] = []
    @Option(
        name: .customLong(OptionName.serverName.rawValue),
        help: ArgumentHelp(
            "A host name this server answers to (the Host header; repeatable): others get 421, against DNS rebinding. Default: the loopback names on a loopback --listen, any name elsewhere.",
            valueName: "name"))
    var serverName: [String] = []
    @Flag(
        help:
            "Offer the acknowledge tool at /mcp, which writes an acknowledgement into --out (the only thing serve writes; off unless given; behind --token-file like the API)."
    )
    var allowAcknowledge = false
    @Option(help: ArgumentHelp("Seconds SIGTERM waits for running checks.", valueName: "seconds"))
    var drainSeconds = ServeSettings.defaultDrainSeconds
    @OptionGroup var validation: ValidationOptionGroup
    @OptionGroup var deviceView: DeviceViewOptions
    @OptionGroup var fetch: FetchOptions

    func validate() throws {
        try OptionRange.check("--max-checks", maxChecks, in: ServeSettings.maximumChecksRange, fromTo: true)
        try OptionRange.check(
            "--checks-per-minute", checksPerMinute, in: ServeSettings.checksPerMinuteRange, fromTo: true)
        try OptionRange.check("--drain-seconds", drainSeconds, in: ServeSettings.drainSecondsRange, fromTo: true)
    }

    func run() async throws {
        let console = StandardConsole()
        let address = listen
        var settings = ServeSettings(
            output: out, fetcher: fetch.configuration(concurrency: maxChecks * 4), tool: AASAAuditVersion.tool)
        (settings.host, settings.port) = (address.host, address.port)
        settings.validation = validation.options
        settings.deviceView = deviceView.settings
        settings.maximumChecks = maxChecks
        settings.checksPerMinute = Double(checksPerMinute)
        settings.checkBurst = max(1, Double(checksPerMinute) / 4)
        settings.trustedProxies = trustedProxy
        settings.drainSeconds = drainSeconds
        settings.serverNames = serverName
        settings.mcpAllowsAcknowledging = allowAcknowledge
        if let tokenFile { settings.token = try ServeToken.read(tokenFile) }
        try await ServeRun.run(settings, console: console)
    }
}

/// `--listen HOST:PORT` (`[::1]:8080` for IPv6).
