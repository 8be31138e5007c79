import AASAChecks
import AASAFetch
import AASAModel
import AASAReport

/// `check`: one domain audited on demand, as a run would audit it.
public enum DomainCheck {
    /// Audits `domain` (any form a user types that names one host) against `appIDs`.
    /// - Parameter wants: the other association files to audit, and what they must declare.
    /// - Parameter expectsAASA: false for a domain that serves none (`--ios none`).
    public static func run(
        domain: String, appIDs: [String], wants: AssociationWants = AssociationWants(), expectsAASA: Bool = true,
        validation: ValidationOptions, deviceView: DeviceViewSettings,
        fetcher configuration: FetcherConfiguration
    ) async throws -> DomainReport {
        let host = try AuditInput.host(domain)
        try AuditInput.validateAppIDs(appIDs)
        let fetcher = try FetcherSetup.make(configuration)
        var target = DomainTarget(domain: host, expectedAppIDs: appIDs, wants: wants)
        target.expectsAASA = expectsAASA
        let outcome = await DomainAuditor(fetcher: fetcher, validation: validation, deviceView: deviceView)
            .audit(target)
        fetcher.shutdown()
        return outcome.report
    }
}

/// A domain checked for `serve`: its record and the files it served, for the page.
public struct CheckedDomain: Sendable {
    public var report: DomainReport
    public var files: [ServedFileDisplay]
}

extension DomainCheck {
    /// One domain on a fetcher shared by many checks (`serve`); the host is already read.
    public static func run(
        host: String, appIDs: [String], wants: AssociationWants, expectsAASA: Bool = true, auditor: DomainAuditor
    ) async -> CheckedDomain {
        var target = DomainTarget(domain: host, expectedAppIDs: appIDs, wants: wants)
        target.expectsAASA = expectsAASA
        let outcome = await auditor.audit(target)
        let files = outcome.served.map {
            ServedFileDisplay(location: $0.location, sha256: $0.sha256, content: .text($0.displayText))
        }
        return CheckedDomain(report: outcome.report, files: files)
    }

    /// A fetcher for many checks, or the error that says why libcurl could not be set up.
    public static func sharedFetcher(_ configuration: FetcherConfiguration) throws(FetcherSetupError) -> Fetcher {
        try FetcherSetup.make(configuration)
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
