import AASAModel
import AASAReport
import Foundation

/// `history [DOMAIN]`: what the kept runs of an output folder say, read from `history.json`
/// (or from the run folders' reports when it is missing or damaged; nothing is written).
public enum HistoryQuery {
    /// The history's file in `--out`.
    public static let fileName = RunHistoryStore.fileName

    /// The history of `output`; an error when it holds no complete run.
    public static func load(output: String) throws(InputError) -> RunHistory {
        let history: RunHistory
        do {
            history = try RunHistoryStore(output: try folder(output)).load()
        } catch let error as InputError {
            throw error
        } catch let error as OutputFileError {
            throw InputError(error.message)
        } catch {
            throw InputError("cannot read the history in \(output): \(error.localizedDescription)")
        }
        guard !history.runs.isEmpty else { throw noRuns(output) }
        return history
    }

    static func noRuns(_ output: String) -> InputError {
        InputError("\(output) holds no complete run yet: run `aasa-audit audit \(OptionName.out) \(output)` first.")
    }

    static func folder(_ output: String) throws(InputError) -> URL {
        let folder = URL(fileURLWithPath: output)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw InputError(
                "\(output) is not a folder: give the \(OptionName.out) of your audits (default: \(OutputFolderLayout.defaultFolder))."
            )
        }
        return folder
    }

    /// The fleet's record; with `writingIndex`, `history.json` (when it did not match the run
    /// folders) and `index.html` are written anew, under the audits' lock.
    public static func fleet(output: String, writingIndex: Bool = false) throws(InputError) -> FleetHistoryRecord {
        guard writingIndex else { return FleetHistoryRecord(try load(output: output)) }
        let directory = try folder(output)
        let lock: OutputLock
        do throws(AuditRunError) {
            do throws(OutputFileError) {
                try OutputFolderFiles.checkKeptFiles(in: directory)
            } catch {
                throw .outputFolder(error.message)
            }
            lock = try OutputLock(directory: directory)
        } catch {
            throw InputError(error.message)
        }
        defer { withExtendedLifetime(lock) {} }
        do {
            let history = try RunHistoryStore(output: directory).repair()
            guard !history.runs.isEmpty else { throw noRuns(output) }
            try RunHistoryIndex.writeIndex(history, output: directory)
            return FleetHistoryRecord(history)
        } catch let error as InputError {
            throw error
        } catch let error as OutputFileError {
            throw InputError(error.message)
        } catch {
            throw InputError("cannot write the history in \(output): \(error.localizedDescription)")
        }
    }

    /// The newest complete run's information and summary, from `latest.json`'s last line (read
    /// from the end, not followed through a link); nil when there is none (`serve`'s `/metrics`).
    public static func latestRun(output: String) -> (run: RunInfo, summary: ReportSummary)? {
        let file = URL(fileURLWithPath: output).appendingPathComponent(OutputFolderLayout.latestJSON)
        return RunHistoryStore.lastLine(of: file).flatMap { JSONReport.runSummary(tailLine: $0) }
    }

    /// Every domain's verdict in the newest kept run that audited it soundly, read in one pass
    /// over the history: `serve` makes it once per history file and answers badges from it, so a
    /// name never audited costs a lookup, not a pass (issue 46, item 9).
    public struct SoundVerdicts: Sendable {
        /// A domain's newest sound verdict and the platforms it speaks for.
        public struct Entry: Sendable, Equatable {
            public var verdict: Verdict
            public var platforms: [LinkPlatform]
        }

        /// By a hash of the name (a fleet's million names need no strings kept); the platforms
        /// as the history spells them (few distinct ones, shared).
        private var verdicts: [Int: (verdict: Verdict, platforms: String?)] = [:]

        public static func read(output: String) throws(InputError) -> SoundVerdicts {
            var index = SoundVerdicts()
            let directory = try folder(output)
            var runs = 0
            do {
                _ = try RunHistoryStore(output: directory).visit { run in
                    runs += 1
                    guard run.auditorProblems == nil else { return }
                    for domain in run.domains {
                        index.verdicts[Self.key(domain.domain)] = (domain.verdict, domain.platforms)
                    }
                }
            } catch {
                throw InputError("cannot read the history in \(output): \(error.localizedDescription)")
            }
            guard runs > 0 else { throw noRuns(output) }
            return index
        }

        /// The newest sound verdict of the domain `text` names (read as `check` reads it), or nil.
        public func entry(of text: String) -> Entry? {
            verdicts[Self.key((try? AuditInput.host(text)) ?? text.lowercased())].map {
                Entry(verdict: $0.verdict, platforms: LinkPlatform.platforms(historyKey: $0.platforms) ?? [.ios])
            }
        }

        private static func key(_ domain: String) -> Int {
            var hasher = Hasher()
            hasher.combine(domain)
            return hasher.finalize()
        }
    }

    /// One domain's timeline; an error naming close names when no kept run audited it.
    public static func timeline(of text: String, output: String) throws(InputError) -> DomainTimelineRecord {
        var entries: [DomainTimelineRecord.Entry] = []
        var latestNames: [String] = []
        let domain = try forEachRun(of: text, output: output) { run, domain in
            entries.append(DomainTimelineRecord.entry(run, domain: domain))
            latestNames = run.domains.map(\.domain)
        }
        guard entries.contains(where: { $0.verdict != nil }) else {
            let close = latestNames.filter { $0.contains(domain) || domain.contains($0) }.sorted().prefix(5)
            let hint = close.isEmpty ? "" : " Did you mean \(close.joined(separator: ", "))?"
            throw InputError("No kept run in \(output) audited \(domain).\(hint)")
        }
        return DomainTimelineRecord(domain: domain, runs: entries)
    }

    /// Hands each kept run to `body`, oldest first, with the domain `text` names (read as
    /// `check` reads it); returns that domain. No kept run is an error.
    @discardableResult
    private static func forEachRun(
        of text: String, output: String, _ body: (HistoryRun, String) -> Void
    ) throws(InputError) -> String {
        let directory = try folder(output)
        let domain = (try? AuditInput.host(text)) ?? text.lowercased()
        var runs = 0
        do {
            _ = try RunHistoryStore(output: directory).visit { run in
                runs += 1
                body(run, domain)
            }
        } catch {
            throw InputError("cannot read the history in \(output): \(error.localizedDescription)")
        }
        guard runs > 0 else { throw noRuns(output) }
        return domain
    }

    /// What the newest sound run is compared with (`mcp`'s `what_changed`).
    public enum Baseline: Sendable, Equatable {
        /// The sound run before it.
        case previous
        /// The last sound run that started before this moment (the state then); the first kept
        /// one when none did.
        case before(Date)
        /// The kept run of this folder name, when it was sound.
        case run(String)
    }

    /// The newest sound run and the run it is compared with, read one run at a time (two kept
    /// at most); nil when there is no such pair. Runs this machine could not check properly are
    /// never either.
    public static func comparedRuns(output: String, baseline: Baseline) throws(InputError) -> (
        from: HistoryRun, to: HistoryRun
    )? {
        let directory = try folder(output)
        var newest: HistoryRun?
        var chosen: HistoryRun?
        var first: HistoryRun?
        do {
            _ = try RunHistoryStore(output: directory).visit { run in
                guard run.auditorProblems == nil else { return }
                first = first ?? run
                switch baseline {
                case .previous: chosen = newest
                case .before(let date): if run.startedAt < date { chosen = run }
                case .run(let name): if run.run == name { chosen = run }
                }
                newest = run
            }
        } catch {
            throw InputError("cannot read the history in \(output): \(error.localizedDescription)")
        }
        if case .before = baseline, chosen == nil { chosen = first }
        guard let newest, let chosen, chosen.run != newest.run || baseline != .previous else { return nil }
        return (chosen, newest)
    }

    /// A domain's record in the newest complete run of `output` (`latest.json`), as the report
    /// holds it: read one record at a time, so a report of any size costs one record. Nil when
    /// that run did not audit it.
    public static func latestRecord(of text: String, output: String) throws(InputError) -> Data? {
        let directory = try folder(output)
        guard let domain = try? AuditInput.host(text) else { return nil }
        guard
            let handle = OutputFolderFiles.openRegularIfAny(
                directory.appendingPathComponent(OutputFolderLayout.latestJSON))
        else { throw noRuns(output) }
        defer { try? handle.close() }
        struct Named: Decodable { var domain: String }
        let needle = Array(#""domain":"\#(domain)""#.utf8)
        var found: Data?
        _ = JSONReport.records(
            lines: LineReader(handle: handle, maximumLineBytes: RunHistoryStore.maximumReportLineBytes)
        ) {
            record in
            guard record.firstRange(of: needle) != nil,
                (try? JSONDecoder().decode(Named.self, from: record))?.domain == domain
            else { return true }
            found = Data(record)
            return false
        }
        return found
    }
}
