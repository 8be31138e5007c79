/// Failures of the machine running the audit rather than of the sites, judged from a run's
/// evidence once it is over, for any fleet down to one domain:
///
/// - **This machine's DNS down, or cut off from the internet,** makes the run unsound
///   (`ReportSummary.auditorProblems`): no name of the run resolved to an address through the
///   resolver (a pinned name, `--resolve` or `/etc/hosts`, is no evidence; nor is an answer that
///   a name does not exist, which such a resolver gives for every name) and no canary did either;
///   or Apple's CDN host, which exists for everyone, got "no such name". Names that do not exist
///   while the resolver gives addresses for others are the sites' failures, however many.
/// - **A DNS sinkhole** makes it unsound too: many sites resolving to one address no public
///   site uses (`net.blocked-address`) is this machine's resolver answering every name with it.
/// - **Apple's CDN out of reach** from here is a part of the run not checked
///   (`ReportSummary.partlyChecked`): the origin verdicts stand (latest.*, history, changes and
///   alerts take them), and the CDN copies were not checked, as with `--no-cdn`.
///
/// Either makes the run exit 3 and say why first, so that a nightly job can tell "the audit
/// could not check" from "domains fail".
public enum AuditorProblems {
    /// At least this share of the domains for Apple's CDN to count as out of reach.
    public static let share = 0.5
    /// The canary `--canary` defaults to: Apple's CDN host, which any machine auditing
    /// universal links must resolve.
    public static let defaultCanary = "app-site-association.cdn-apple.com"

    /// What the run's fetches say of this machine's resolver.
    public struct ResolverEvidence: Sendable, Equatable {
        /// Some fetch of the run got an address for its host.
        public var nameResolved: Bool
        /// Whether a canary resolved, when one was asked (only when no name of the run did).
        public var canaryResolved: Bool?
        /// The canaries asked.
        public var canaries: [String]
        /// Domains whose origin resolved to an address no public site uses, by that address.
        public var blockedAddresses: [String: Int]
        /// Apple's CDN host (as `--cdn-url` names it) and what the resolver said of it, when it
        /// gave no address for it.
        public var cdnHostAnswer: NoAddress?

        public init(
            nameResolved: Bool, canaryResolved: Bool? = nil, canaries: [String] = [],
            blockedAddresses: [String: Int] = [:]
        ) {
            self.nameResolved = nameResolved
            self.canaryResolved = canaryResolved
            self.canaries = canaries
            self.blockedAddresses = blockedAddresses
        }

        /// A host the resolver gave no address for, and what it answered.
        public struct NoAddress: Sendable, Equatable {
            public var host: String
            public var answer: DNSAnswer

            public init(host: String, answer: DNSAnswer) {
                self.host = host
                self.answer = answer
            }
        }

        /// Whether the resolver sees the internet: a name of the run or a canary resolved to an
        /// address, and Apple's CDN host was not said not to exist.
        public var resolverAnswers: Bool { (nameResolved || canaryResolved == true) && cdnHostAnswer == nil }
    }

    /// Sites that share one address no public site uses, at least this many: a resolver that
    /// answers every name with it (a sinkhole, a filtering resolver's block page), not the sites.
    public static let sinkholeDomains = 3

    /// Why the run's `net.blocked-address` failures are this machine's resolver's: at least
    /// `sinkholeDomains` domains, and at least `share` of the run, resolved to one such address.
    static func sinkhole(domains: Int, blocked: [String: Int]) -> String? {
        guard let (address, count) = blocked.max(by: { $0.value < $1.value }), count >= sinkholeDomains,
            Double(count) >= share * Double(domains)
        else { return nil }
        return
            "\(count) of \(domains) domains resolved to \(address), an address no public site uses (net.blocked-address): this machine's resolver answers their names with it (a DNS sinkhole or a filtering resolver), so those failures are not the sites'. Check the resolver (/etc/resolv.conf) and run again."
    }

    /// Whether a run with these counts must ask a canary: names failed to resolve and none did.
    public static func needsCanary(_ summary: ReportSummary, nameResolved: Bool) -> Bool {
        !nameResolved && (summary.causesByCode?[FindingCode.transfer(.netDNS).rawValue] ?? 0) > 0
    }

    /// What went wrong on this side, a sentence each with what to do: `unsound` makes the run's
    /// verdicts untrustworthy; `partial` leaves them standing.
    public static func notices(_ summary: ReportSummary, resolver: ResolverEvidence) -> (
        unsound: [String], partial: [String]
    ) {
        let domains = summary.domains
        guard domains > 0 else { return ([], []) }
        let dns = summary.causesByCode?[FindingCode.transfer(.netDNS).rawValue] ?? 0
        if let missing = resolver.cdnHostAnswer {
            return (
                [
                    "Apple's CDN host \(missing.host) does not resolve on this machine (\(missing.answer.rawValue.uppercased())), though it exists for everyone: this machine's DNS cannot see the internet, so the run's failures are not the sites'. Check the resolver (/etc/resolv.conf) and run again."
                ], []
            )
        }
        if dns > 0, !resolver.resolverAnswers {
            // Apple's CDN failing too follows from the same cause: one notice, about DNS.
            let canaries = resolver.canaries.isEmpty ? "" : " nor did \(resolver.canaries.joined(separator: ", "))"
            return (
                [
                    "No host name resolved on this machine (\(dns) of \(domains) domains failed to resolve\(canaries)): its DNS is not working, so those net.dns failures are not the sites'. Check the resolver and run again."
                ], []
            )
        }
        if let sinkhole = sinkhole(domains: domains, blocked: resolver.blockedAddresses) {
            return ([sinkhole], [])
        }
        let cdn = summary.findingsByCode[FindingCode.aasa(.cdnUnchecked).rawValue] ?? 0
        guard Double(cdn) >= share * Double(domains) else { return ([], []) }
        return (
            [],
            [
                "Apple's CDN could not be reached from this machine for \(cdn) of \(domains) domains: their CDN copies were not checked (cdn.unchecked); the origins' verdicts stand. Let this machine reach app-site-association.cdn-apple.com, or pass \(OptionName.noCDN)."
            ]
        )
    }
}
