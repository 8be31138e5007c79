import AASAAudit
import AASAFetch
import AASAModel
import Foundation
import TestSupport

extension TestWorld {
    /// Each host audited for `want` alone (`ios:none`: no AASA asked for), one after another by
    /// one auditor, on a loopback server that answers each request by `answer(host, path)`
    /// with a certificate for `*.aasa.test` valid until `validUntil`: a kind's world of hosts,
    /// one mistake each.
    public func auditAlone(
        _ hosts: [String], want: any AssociationWant, validUntil: Date = Date().addingTimeInterval(90 * 86_400),
        answer: @escaping @Sendable (_ host: String, _ path: String) -> RawResponse
    ) async throws -> [String: DomainReport] {
        let server = try FaultServer(
            identity: try pki.issueServerIdentity(for: ["*.aasa.test"], validUntil: validUntil),
            fault: .respond(answer))
        defer { server.shutdown() }
        var configuration = fetcherConfiguration(timeout: 30)
        configuration.connectTo = hosts.map { server.connectTo($0) }
        let fetcher = try Fetcher(configuration: configuration)
        defer { fetcher.shutdown() }
        let auditor = DomainAuditor(fetcher: fetcher)
        var reports: [String: DomainReport] = [:]
        for host in hosts {
            var target = DomainTarget(domain: host)
            target.wants.insert(want)
            target.aasa = nil
            reports[host] = await auditor.audit(target).report
        }
        return reports
    }
}
