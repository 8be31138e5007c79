import AASAModel
import AASAReport
import Foundation

/// `diff`: what changed between two JSON reports.
public enum ReportDiff {
    /// Reports are read whole; a larger file is refused.
    public static let readLimit = 1 << 30

    public static func changes(old: String, new: String) throws -> RunChanges {
        let before = try load(old)
        let after = try load(new)
        return RunChanges.between(
            previous: before.domains.map(DomainSnapshot.init), previousStartedAt: before.run.startedAt,
            current: after.domains.map(DomainSnapshot.init))
    }

    static func load(_ path: String) throws -> AuditReport {
        let bytes = try BoundedFileReader.readWhole(path, limit: readLimit)
        do {
            return try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(bytes))
        } catch {
            throw InputError("\(path) is not an aasa-audit report: \(error)")
        }
    }
}
