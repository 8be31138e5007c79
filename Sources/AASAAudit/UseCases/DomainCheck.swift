import AASAChecks
import AASAFetch
import AASAModel
import AASAReport

/// `check`: one domain audited on demand, as a run would audit it.
public enum DomainCheck {
    /// Audits `domain` (any form a user types that names one host) for what it asks of its AASA.
    /// - Parameter aasa: the apps its AASA must list; nil for a domain that serves none (`--ios none`).
    /// - Parameter wants: the other association files to audit, and what they must declare.
    public static func run(
        domain: String, aasa: AASAWant?, wants: AssociationWants = AssociationWants(),
        validation: ValidationOptions, deviceView: DeviceViewSettings,
        fetcher configuration: FetcherConfiguration
    ) async throws -> DomainReport {
        let host = try AuditInput.host(domain)
        try AuditInput.validateAppIDs(aasa?.appIDs ?? [])
        let fetcher = try FetcherSetup.make(configuration)
        var target = DomainTarget(domain: host, wants: wants)
        target.aasa = aasa
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
        host: String, aasa: AASAWant?, wants: AssociationWants, auditor: DomainAuditor
    ) async -> CheckedDomain {
        var target = DomainTarget(domain: host, wants: wants)
        target.aasa = aasa
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

/// A check as any front end asks it (`serve`'s query, an MCP tool's arguments): the values as
/// given, read one way into what is audited, so that the same values get the same check, or
/// the same refusal, wherever they are asked.
extension DomainCheck {
    public struct Request: Sendable {
        /// Any form a user types that names one host (a URL, `applinks:host`).
        public var domain: String
        public var appIDs: [String]
        /// The domain's iOS choice (`none`: it serves no AASA); nil: an AASA is expected.
        public var ios: String?
        /// Each kind's values by its word (`AssociationKind.word`); a flag kind's word takes
        /// `AssociationKind.flagPlaceholder` when set.
        public var kinds: [String: [String]]

        public init(domain: String, appIDs: [String] = [], ios: String? = nil, kinds: [String: [String]] = [:]) {
            self.domain = domain
            self.appIDs = appIDs
            self.ios = ios
            self.kinds = kinds
        }
    }

    /// How a front end names what a check takes, for its refusals (`app-id` or `app_ids`).
    public struct Naming: Sendable {
        public var appIDs: String
        public var ios: String
        /// How it writes `ios` set to none (`ios=none`, `ios_none`).
        public var iosNone: String
        /// How it writes a kind's word with one of its values (`KIND=x`, `KIND: x`).
        public var value: @Sendable (_ word: String, _ value: String) -> String

        public init(
            appIDs: String, ios: String, iosNone: String, value: @escaping @Sendable (String, String) -> String
        ) {
            self.appIDs = appIDs
            self.ios = ios
            self.iosNone = iosNone
            self.value = value
        }
    }

    /// What a check audits, read.
    public struct Parameters: Sendable {
        public var host: String
        /// What its AASA must list; nil for a domain that serves none (the iOS choice `none`).
        public var aasa: AASAWant?
        public var wants: AssociationWants
    }

    /// Why a request does not read: the first value that does not, named as its front end names it.
    public struct Refusal: Error, Sendable, Equatable {
        public var message: String
    }

    /// Reads a request: the iOS choice, the host, the app IDs, then each kind's values.
    public static func read(_ request: Request, naming: Naming) throws(Refusal) -> Parameters {
        var servesAASA = true
        if let ios = request.ios {
            guard AASAWant.isNone(ios) else {
                throw Refusal(
                    message:
                        "\(naming.ios) takes \(AASAWant.iosNone) (the domain serves no AASA), not \(ios.prefix(80))."
                )
            }
            guard request.appIDs.isEmpty else {
                throw Refusal(
                    message:
                        "\(naming.appIDs) names apps the AASA must list; with \(naming.iosNone) no AASA is asked for.")
            }
            servesAASA = false
        }
        let host: String
        let appIDs: [String]
        do {
            let pasted = try AuditInput.pastedHost(request.domain)
            host = pasted.host
            try AuditInput.validateAppIDs(request.appIDs, named: naming.appIDs)
            appIDs = pasted.expectedApps(request.appIDs)
        } catch {
            throw Refusal(message: error.message)
        }
        var wants = AssociationWants()
        for kind in AssociationKinds.all {
            guard let values = request.kinds[kind.word], !values.isEmpty else { continue }
            do {
                wants.insert(try kind.wantType.parsing(values))
            } catch {
                throw Refusal(message: "\(naming.value(kind.word, error.value)): \(error.reason).")
            }
        }
        return Parameters(host: host, aasa: servesAASA ? AASAWant(appIDs: appIDs) : nil, wants: wants)
    }

    /// Runs a read check on a shared auditor, with the team's acknowledgements as they are now
    /// in `output` (a small file, read per check): a known failure shows as acknowledged.
    public static func run(_ parameters: Parameters, auditor: DomainAuditor, output: String?) async -> CheckedDomain {
        var auditor = auditor
        if let output {
            auditor.acknowledgements = (try? AcknowledgementStore.read(output: output)) ?? Acknowledgements()
        }
        return await run(
            host: parameters.host, aasa: parameters.aasa, wants: parameters.wants, auditor: auditor)
    }
}
