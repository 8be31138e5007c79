import AASAChecks
import AASAFetch
import AASAModel
import AASAReport
import AASAServe
import ArgumentParser

/// Option values parsed once, at the edge: each type reads its text and says why it cannot,
/// and ArgumentParser shows that at parse time ("The value '…' is invalid for '--listen
/// <host:port>': …"). The commands use the parsed values, never the text.
struct OptionValueError: Error, CustomStringConvertible {
    let description: String
}

/// A type read from an option's text, with the reason it was refused.
protocol ParsedOptionValue: ExpressibleByArgument {
    init(parsing text: String) throws(OptionValueError)
}

extension ParsedOptionValue {
    init?(argument: String) { try? self.init(parsing: argument) }

    /// For `@Option(transform:)`, so that the refusal's reason is shown.
    static func parse(_ text: String) throws -> Self { try Self(parsing: text) }
}

/// `lint --format`: one of the line formats, listed by ArgumentParser when another is given.
extension LintLineFormat: ExpressibleByArgument {}

/// `serve --listen HOST:PORT`, `[::1]:8080` for IPv6.
struct ListenAddress: ParsedOptionValue, CustomStringConvertible {
    var host: String
    var port: Int

    static let loopback = ListenAddress(host: ServeSettings.defaultHost, port: ServeSettings.defaultPort)

    init(host: String, port: Int) {
        (self.host, self.port) = (host, port)
    }

    init(parsing text: String) throws(OptionValueError) {
        let why = OptionValueError(description: "give HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080")
        guard let colon = text.lastIndex(of: ":") else { throw why }
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw OptionValueError(description: "the port must be a number from 0 to 65535")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw why }
        (self.host, self.port) = (host, port)
    }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    var defaultValueDescription: String { description }
}

/// `--min-ios VERSION`: an iOS version universal links know.
struct MinimumIOS: ParsedOptionValue {
    let version: IOSVersion

    init(parsing text: String) throws(OptionValueError) {
        guard let version = IOSVersion(text) else {
            throw OptionValueError(description: "not a version such as 12 or 13.5")
        }
        let known = IOSVersion.knownToUniversalLinks
        guard known.contains(version) else {
            throw OptionValueError(
                description:
                    "not an iOS version universal links know: give one from \(known.lowerBound) to \(known.upperBound), e.g. 15"
            )
        }
        self.version = version
    }
}

/// `--severity CODE=LEVEL`: one entry, read as `SeverityPolicy` reads entries.
struct SeverityEntry: ParsedOptionValue {
    let policy: SeverityPolicy

    init(parsing text: String) throws(OptionValueError) {
        do {
            policy = try SeverityPolicy(entries: [text])
        } catch {
            throw OptionValueError(description: error.description)
        }
    }

    /// The entries in the order given: a later one wins for the same code.
    static func policy(_ entries: [SeverityEntry]) -> SeverityPolicy {
        SeverityPolicy(entries.reduce(into: [:]) { merged, entry in merged.merge(entry.policy.overrides) { $1 } })
    }
}

/// `--allow-network` and `--trusted-proxy`: an address or a CIDR range.
extension IPNetwork: ExpressibleByArgument, ParsedOptionValue {
    public init?(argument: String) { self.init(argument) }

    init(parsing text: String) throws(OptionValueError) {
        guard let network = IPNetwork(text) else {
            throw OptionValueError(
                description: "not an address or a network in CIDR notation (e.g. 10.0.0.5, 10.1.0.0/16, fd00::/8)")
        }
        self = network
    }
}

/// An option's value held to its settings type's range (which owns it), the refusal naming both.
enum OptionRange {
    /// `--name must be between LOW and HIGH UNIT.` (`from LOW to HIGH` with `fromTo`).
    static func check<Value: Comparable & Numeric>(
        _ name: String, _ value: Value, in range: ClosedRange<Value>, unit: String = "", fromTo: Bool = false
    ) throws {
        guard !range.contains(value) else { return }
        let (low, high) = (shown(range.lowerBound), shown(range.upperBound))
        let span = fromTo ? "from \(low) to \(high)" : "between \(low) and \(high)"
        throw ValidationError("\(name) must be \(span)\(unit.isEmpty ? "" : " " + unit).")
    }

    /// A bound as people write it: 600, not 600.0; 0.001 as is.
    static func shown<Value: Numeric>(_ value: Value) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
