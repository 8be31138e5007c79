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

    /// A report file, or a run folder (its `report.json`), or an output folder (`latest.json`).
    static func load(_ given: String) throws -> AuditReport {
        var path = given
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: given, isDirectory: &isFolder), isFolder.boolValue {
            let folder = URL(fileURLWithPath: given)
            let report = folder.appendingPathComponent(OutputFolderLayout.runJSON)
            path =
                FileManager.default.fileExists(atPath: report.path)
                ? report.path : folder.appendingPathComponent(RunWorkspace.latestJSON).path
        }
        let bytes = try BoundedFileReader.readWhole(path, limit: readLimit)
        do {
            return try JSONReport.makeDecoder().decode(AuditReport.self, from: Data(bytes))
        } catch {
            throw InputError("\(path) is not an aasa-audit report: \(error)")
        }
    }
}
