/// Failures of the machine running the audit rather than of the sites, judged from a run's
/// evidence once it is over, for any fleet down to one domain:
///
/// - **This machine's DNS down** makes the run unsound (`ReportSummary.auditorProblems`): no
///   name of the run resolved and no canary did either. Names that do not exist while the
///   resolver answers (any name of the run, or a canary, resolved) are the sites' failures,
///   however many there are.
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

        public init(nameResolved: Bool, canaryResolved: Bool? = nil, canaries: [String] = []) {
            self.nameResolved = nameResolved
            self.canaryResolved = canaryResolved
            self.canaries = canaries
        }

        /// Whether the resolver answered: a name of the run or a canary resolved.
        public var resolverAnswers: Bool { nameResolved || canaryResolved == true }
    }

    /// Whether a run with these counts must ask a canary: names failed to resolve and none did.
    public static func needsCanary(_ summary: ReportSummary, nameResolved: Bool) -> Bool {
        !nameResolved && (summary.causesByCode?[FindingCode.netDNS.rawValue] ?? 0) > 0
    }

    /// What went wrong on this side, a sentence each with what to do: `unsound` makes the run's
    /// verdicts untrustworthy; `partial` leaves them standing.
    public static func notices(_ summary: ReportSummary, resolver: ResolverEvidence) -> (
        unsound: [String], partial: [String]
    ) {
        let domains = summary.domains
        guard domains > 0 else { return ([], []) }
        let dns = summary.causesByCode?[FindingCode.netDNS.rawValue] ?? 0
        if dns > 0, !resolver.resolverAnswers {
            // Apple's CDN failing too follows from the same cause: one notice, about DNS.
            let canaries = resolver.canaries.isEmpty ? "" : " nor did \(resolver.canaries.joined(separator: ", "))"
            return (
                [
                    "No host name resolved on this machine (\(dns) of \(domains) domains failed to resolve\(canaries)): its DNS is not working, so those net.dns failures are not the sites'. Check the resolver and run again."
                ], []
            )
        }
        let cdn = summary.findingsByCode[FindingCode.cdnUnchecked.rawValue] ?? 0
        guard Double(cdn) >= share * Double(domains) else { return ([], []) }
        return (
            [],
            [
                "Apple's CDN could not be reached from this machine for \(cdn) of \(domains) domains: their CDN copies were not checked (cdn.unchecked); the origins' verdicts stand. Let this machine reach app-site-association.cdn-apple.com, or pass --no-cdn."
            ]
        )
    }
}
