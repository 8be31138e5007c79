import AASAAudit
import AASAFetch
import AASAModel
import ArgumentParser
import Foundation

/// The options of every command that fetches.
struct FetchOptions: ParsableArguments {
    @Option(
        name: .customLong(OptionName.timeout.rawValue),
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a domain's fetches may take together, from its first request, connections included (its deadline; this machine's own delays do not count).",
            valueName: "seconds"))
    var timeout = FetcherConfiguration.defaultTimeoutSeconds

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds allowed for DNS, TCP and TLS: what a host that never answers costs at most (capped at --timeout).",
            valueName: "seconds"))
    var connectTimeout = FetcherConfiguration.defaultConnectTimeoutSeconds

    @Option(help: "The User-Agent of the root and CDN fetches (and of .well-known with --no-ua-check).")
    var userAgent: String = AASAAuditVersion.defaultUserAgent

    @Option(
        name: .customLong(OptionName.resolve.rawValue),
        help: ArgumentHelp(
            "Like curl's --resolve: connect to ADDR for HOST:PORT (repeatable; * as HOST means any host).",
            valueName: "host:port:addr"))
    var resolve: [String] = []

    @Option(
        name: .customLong(OptionName.connectTo.rawValue),
        help: ArgumentHelp(
            "Like curl's --connect-to: connect to HOST2:PORT2 for requests to HOST:PORT (repeatable; empty HOST or PORT means any).",
            valueName: "host:port:host2:port2"))
    var connectTo: [String] = []

    @Option(
        name: .customLong(OptionName.allowNetwork.rawValue),
        help: ArgumentHelp(
            "Also connect to addresses in this network (CIDR or address; repeatable). Only public addresses are fetched otherwise: loopback, private, link-local (cloud metadata), CGNAT and unique-local ones are refused after DNS.",
            valueName: "cidr"), transform: IPNetwork.parse)
    var allowNetwork: [IPNetwork] = []

    @Option(
        help: ArgumentHelp("Trust the CA certificates in this PEM file instead of the system's.", valueName: "file"))
    var cacert: String?

    @Option(
        name: .customLong(OptionName.perAddress.rawValue),
        help: ArgumentHelp(
            "Connections open to one IP address at most: domains behind a shared host or CDN edge take turns, within --timeout.",
            valueName: "n"))
    var perAddress: Int = PolitenessLimits.defaultConnectionsPerAddress

    @Option(
        name: .customLong(OptionName.perAddressRate.rawValue),
        help: ArgumentHelp(
            "New connections a second to one IP address at most (20 is polite to hosts you do not run). Default: no limit.",
            valueName: "per-second"))
    var perAddressRate: Double?

    @Option(
        name: .customLong(OptionName.dnsRate.rawValue),
        help: ArgumentHelp(
            "DNS lookups a second at most (names looked up within the last minute are not asked again).",
            valueName: "per-second"))
    var dnsRate: Double = PolitenessLimits.defaultLookupsPerSecond

    func validate() throws {
        for (name, value) in [("--timeout", timeout), ("--connect-timeout", connectTimeout)] {
            try OptionRange.check(name, value, in: FetcherConfiguration.timeoutRange, unit: "seconds")
        }
        for entry in resolve where entry.split(separator: ":", omittingEmptySubsequences: false).count < 3 {
            throw ValidationError("--resolve '\(entry)' is not HOST:PORT:ADDR.")
        }
        for entry in connectTo where entry.split(separator: ":", omittingEmptySubsequences: false).count < 4 {
            throw ValidationError("--connect-to '\(entry)' is not HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT.")
        }
        if let cacert {
            do {
                try CACertificateFile.check(cacert)
            } catch {
                throw ValidationError("--cacert '\(cacert)' \(error.description).")
            }
        }
        try OptionRange.check(
            "--per-address", perAddress, in: PolitenessLimits.connectionsPerAddressRange, unit: "connections")
        for (name, rate) in [("--per-address-rate", perAddressRate), ("--dns-rate", dnsRate)] {
            if let rate { try OptionRange.check(name, rate, in: PolitenessLimits.rateRange, unit: "a second") }
        }
        if userAgent.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw ValidationError("--user-agent must be one line.")
        }
    }

    func configuration(concurrency: Int, threads: Int = FetcherConfiguration.defaultLoopThreads) -> FetcherConfiguration
    {
        FetcherConfiguration(
            timeoutSeconds: timeout, connectTimeoutSeconds: connectTimeout, userAgent: userAgent, resolve: resolve,
            connectTo: connectTo,
            caCertFile: cacert.map { URL(fileURLWithPath: $0).path },
            addressPolicy: AddressPolicy(allowing: allowNetwork),
            politeness: PolitenessLimits(
                connectionsPerAddress: perAddress, newConnectionsPerSecond: perAddressRate, lookupsPerSecond: dnsRate),
            expectedConcurrency: concurrency, loopThreads: threads)
    }
}
