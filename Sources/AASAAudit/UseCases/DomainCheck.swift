import AASAChecks
import AASAFetch
import AASAModel

/// `check`: one domain audited on demand, as a run would audit it.
public enum DomainCheck {
    /// Audits `domain` (any form a user types that names one host) against `appIDs`.
    /// - Parameter wants: the other association files to audit, and what they must declare.
    public static func run(
        domain: String, appIDs: [String], wants: AssociationWants = AssociationWants(), validation: ValidationOptions,
        deviceView: DeviceViewSettings,
        fetcher configuration: FetcherConfiguration
    ) async throws -> DomainReport {
        let host = try AuditInput.host(domain)
        try AuditInput.validateAppIDs(appIDs)
        let fetcher = try FetcherSetup.make(configuration)
        let outcome = await DomainAuditor(fetcher: fetcher, validation: validation, deviceView: deviceView)
            .audit(DomainTarget(domain: host, expectedAppIDs: appIDs, wants: wants))
        fetcher.shutdown()
        return outcome.report
    }
}

/// libcurl could not be set up for a command that fetches.
public struct FetcherSetupError: UserFacingError {
    public var message: String
    public var exitStatus: ExitStatus { .usage }
}

enum FetcherSetup {
    static func make(_ configuration: FetcherConfiguration) throws(FetcherSetupError) -> Fetcher {
        do {
            return try Fetcher(configuration: configuration)
        } catch {
            throw FetcherSetupError(message: "\(error)")
        }
    }
}
