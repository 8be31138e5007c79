/// Failures of the machine running the audit rather than of the sites: Apple's CDN unreachable
/// from here, or this machine's DNS down. Judged from a run's counts once it is over; when any
/// applies, the run says so first and exits 3, so that a nightly job can tell "the audit could
/// not run properly" from "domains fail".
public enum AuditorProblems {
    /// At least this share of the domains (and, for DNS, at least `minimumDomains` of them).
    public static let share = 0.5
    public static let minimumDomains = 5

    /// What went wrong on this side, a sentence each with what to do; empty when nothing did.
    public static func notices(_ summary: ReportSummary) -> [String] {
        let domains = summary.domains
        guard domains > 0 else { return [] }
        var notices: [String] = []
        let cdn = summary.findingsByCode[FindingCode.cdnUnchecked.rawValue] ?? 0
        if Double(cdn) >= share * Double(domains) {
            notices.append(
                "Apple's CDN could not be reached from this machine for \(cdn) of \(domains) domains: their CDN copies were not checked (cdn.unchecked). Let this machine reach app-site-association.cdn-apple.com, or pass --no-cdn."
            )
        }
        let dns = summary.findingsByCode[FindingCode.netDNS.rawValue] ?? 0
        if dns >= minimumDomains, Double(dns) >= share * Double(domains) {
            notices.append(
                "Host names failed to resolve for \(dns) of \(domains) domains: this machine's DNS is probably not working, and those net.dns failures may not be the sites'. Check the resolver and run again."
            )
        }
        return notices
    }
}
