import AASAModel
import AASAReport
import DomainList
import Foundation

/// `acknowledgements.json` in `--out`: the team's acknowledgements (`Acknowledgements`), read
/// by `audit` and `serve` and changed by `aasa-audit ack`. Written atomically; read bounded, a
/// link or special file refused as every file of `--out` is.
public enum AcknowledgementStore {
    public static let fileName = OutputFolderLayout.acknowledgements
    /// A larger file is refused rather than read.
    public static let readLimit = 8 << 20

    /// Why the file could not be used.
    public struct Problem: UserFacingError {
        public var message: String
        public var exitStatus: ExitStatus { .usage }
    }

    static func url(_ output: String) -> URL { URL(fileURLWithPath: output).appendingPathComponent(fileName) }

    /// The acknowledgements of `output` as `ack` could have written them at `now`
    /// (`Acknowledgements.bounded`); none when it has no file.
    public static func read(output: String, now: Date = .now) throws(Problem) -> Acknowledgements {
        try readAsWritten(output: output).bounded(now: now)
    }

    /// The file's acknowledgements as they are written.
    static func readAsWritten(output: String) throws(Problem) -> Acknowledgements {
        let url = url(output)
        let handle: FileHandle?
        do { handle = try OutputFolderFiles.openForReading(url) } catch { throw Problem(message: error.message) }
        guard let handle else { return Acknowledgements() }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: readLimit + 1) ?? Data() } catch {
            throw Problem(message: "cannot read \(url.path): \(error.localizedDescription)")
        }
        guard data.count <= readLimit else { throw Problem(message: "\(url.path) is over \(readLimit >> 20) MiB") }
        do {
            let acknowledgements = try JSONReport.makeDecoder().decode(Acknowledgements.self, from: data)
            guard acknowledgements.acknowledgements.count <= Acknowledgements.maximumEntries else {
                throw Problem(
                    message: "\(url.path) holds more than \(Acknowledgements.maximumEntries) acknowledgements")
            }
            return acknowledgements
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(
                message: TerminalReport.clean(
                    "\(url.path) is not an acknowledgements file (\(error)): mend or remove it, or run aasa-audit ack again"
                ))
        }
    }

    /// Reads, changes and writes back the file, replaced atomically, under an exclusive lock of
    /// its own (`.acknowledgements.lock`): `ack`s at the same moment each see the others' and
    /// none is lost; an audit running meanwhile keeps what it read at its start.
    /// A folder that does not exist is refused, not made: a mistyped `--out` would otherwise
    /// hold an acknowledgement no audit reads (issue 56).
    public static func update(output: String, _ change: (inout Acknowledgements) throws -> Void) throws {
        let folder = URL(fileURLWithPath: output)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), isFolder.boolValue else {
            throw Problem(
                message: TerminalReport.clean(
                    "there is no folder \(output): no audit writes there. Give the \(OptionName.out) your audit writes (the Debian package's is /var/lib/aasa-audit/reports); to acknowledge before the first audit, make the folder first (mkdir \(output))."
                ))
        }
        let lock = try FileLock(folder.appendingPathComponent(lockName))
        defer { lock.release() }
        var acknowledgements = try readAsWritten(output: output)
        try change(&acknowledgements)
        try OutputFolderFiles.requireRegularOrMissing(url(output))
        try AtomicFileWriter.write(JSONReport.makeEncoder(pretty: true).encode(acknowledgements), to: url(output))
    }

    static let lockName = ".acknowledgements.lock"

    /// Why an acknowledgement of `domain` in `output` may silence nothing: no audit wrote a
    /// complete run there, or its last one did not audit the domain (a typo, another --out).
    public static func unheard(domain: String, output: String) -> String? {
        let latest = URL(fileURLWithPath: output).appendingPathComponent(RunWorkspace.latestJSON)
        guard let handle = OutputFolderFiles.openRegularIfAny(latest) else {
            return
                "no audit has written a complete run to \(output) yet: the acknowledgement silences only an audit whose \(OptionName.out) is \(output) (the Debian package's is /var/lib/aasa-audit/reports)."
        }
        defer { try? handle.close() }
        let needle = Array(#""domain":"\#(domain)""#.utf8)
        for line in LineReader(handle: handle, maximumLineBytes: RunHistoryStore.maximumReportLineBytes)
        where line.firstRange(of: needle) != nil {
            return nil
        }
        return
            "the last complete run in \(output) did not audit \(domain): check the name, and that the audit's \(OptionName.out) is \(output)."
    }

    /// Who is acknowledging: the user who ran sudo, else the user, else the process's user id.
    public static var currentUser: String {
        let environment = ProcessInfo.processInfo.environment
        if let name = environment["SUDO_USER"] ?? environment["USER"] ?? environment["LOGNAME"], !name.isEmpty {
            return String(name.prefix(64))
        }
        return "uid \(getuid())"
    }
}

/// `aasa-audit ack`: acknowledge a domain's failure until a date, list, remove.
public enum AcknowledgementCommands {
    /// Acknowledges `domain` (every finding, or `codes` and what follows from them) until the end
    /// of the day `until` (UTC), with a reason; replaces the domain's earlier acknowledgement.
    public static func acknowledge(
        domain text: String, codes: [String], until: String, reason: String, output: String, now: Date = .now
    ) throws -> Acknowledgement {
        let domain: String
        switch HostName.normalizePasted(text) {
        case .success(let pasted): domain = pasted.host
        case .failure(let error): throw InputError("'\(TerminalReport.clean(text))' \(error.reason).")
        }
        for code in codes where FindingCode(rawValue: code) == nil {
            throw InputError(
                "\(OptionName.code) '\(TerminalReport.clean(code))' is not a finding code (aasa-audit explain lists them)."
            )
        }
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            guard !reason.isEmpty, reason.count <= Acknowledgements.maximumReasonLength else {
                throw AcknowledgementError.reason
            }
            let acknowledgement = Acknowledgement(
                domain: domain, codes: codes.isEmpty ? nil : Array(Set(codes)).sorted(),
                until: try Acknowledgements.end(ofDay: until, now: now), reason: reason,
                by: AcknowledgementStore.currentUser, at: now)
            try AcknowledgementStore.update(output: output) { try $0.add(acknowledgement) }
            return acknowledgement
        } catch let error as AcknowledgementError {
            throw InputError(error.description)
        }
    }

    /// Removes a domain's acknowledgement; an error when it has none.
    public static func remove(domain text: String, output: String) throws {
        let domain = (try? HostName.normalizePasted(text).get().host) ?? text.lowercased()
        var removed = false
        try AcknowledgementStore.update(output: output) { removed = $0.remove(domain: domain) }
        guard removed else { throw InputError("\(TerminalReport.clean(domain)) has no acknowledgement in \(output).") }
    }

    /// One line per acknowledgement, in force or ended (ended ones are kept until removed).
    public static func list(output: String, now: Date = .now) throws -> String {
        let all = try AcknowledgementStore.read(output: output).acknowledgements
        guard !all.isEmpty else { return "No acknowledgements in \(output).\n" }
        return all.map { entry in
            let what = entry.codes?.joined(separator: ", ") ?? "every finding"
            let state = entry.isActive(at: now) ? "until \(entry.lastDay)" : "ended \(entry.lastDay)"
            return TerminalReport.clean(
                "\(entry.domain)  \(what)  \(state)  by \(entry.by) on \(UTCCalendar.date(Int(entry.at.timeIntervalSince1970))): \(entry.reason)"
            )
        }.joined(separator: "\n") + "\n"
    }
}
