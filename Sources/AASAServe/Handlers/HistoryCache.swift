import AASAAudit
import AASAModel
import AASAReport
import Foundation

/// `/api/v1/runs` and `/api/v1/history` without decoding `history.json` per request (29 MB at
/// 10,000 domains × 90 nights: about a second of CPU each): the answers are kept for the file's
/// identity (device, inode, size, modification time), made once per identity however many
/// requests ask at once (they wait for the one decode), off the connections' event loops. A
/// domain's timeline is kept for the newest `timelineLimit` domains asked.
actor HistoryCache {
    let output: String
    static let timelineLimit = 64

    /// The answer for a request: its bytes, or why there is none (a 404's reason).
    typealias Answer = Result<[UInt8], InputError>

    private struct Identity: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, modified: Int64
    }

    /// The fleet's record and the runs' list, encoded.
    typealias Fleet = Result<(record: [UInt8], runs: [UInt8]), InputError>

    private var identity: Identity?
    private var fleet: Task<Fleet, Never>?
    /// Makes `/api/v1/runs`' list from the fleet's record.
    let runsList: @Sendable (FleetHistoryRecord) -> any Encodable
    private var timelines: [String: Task<Answer, Never>] = [:]
    private var timelineOrder: [String] = []

    init(output: String, runsList: @escaping @Sendable (FleetHistoryRecord) -> any Encodable) {
        self.output = output
        self.runsList = runsList
    }

    /// The fleet's record (`history --json`) and the runs' list, as JSON bytes.
    func fleetAnswers() async -> Fleet {
        refresh()
        if let fleet { return await fleet.value }
        let (output, runsList) = (output, runsList)
        let task = Task.detached { () -> Fleet in
            Result { () throws(InputError) in
                let record = try HistoryQuery.fleet(output: output)
                return (Self.encode(record), Self.encode(runsList(record)))
            }
        }
        fleet = task
        return await task.value
    }

    /// One domain's timeline, as JSON bytes.
    func timeline(_ domain: String) async -> Answer {
        refresh()
        if let known = timelines[domain] { return await known.value }
        let output = output
        let task = Task.detached { () -> Answer in
            Result { () throws(InputError) in Self.encode(try HistoryQuery.timeline(of: domain, output: output)) }
        }
        timelines[domain] = task
        timelineOrder.append(domain)
        if timelineOrder.count > Self.timelineLimit { timelines[timelineOrder.removeFirst()] = nil }
        return await task.value
    }

    /// A domain's newest verdict of a run this machine checked soundly; nil when no kept run
    /// audited it soundly. From one index of every domain, made once per history file: a name
    /// never audited is a lookup, however many clients ask for made-up ones.
    func newestSoundVerdict(_ domain: String) async -> Result<HistoryQuery.SoundVerdicts.Entry?, InputError> {
        refresh()
        let index: Task<Result<HistoryQuery.SoundVerdicts, InputError>, Never>
        if let known = soundVerdicts {
            index = known
        } else {
            let output = output
            index = Task.detached {
                Result { () throws(InputError) in try HistoryQuery.SoundVerdicts.read(output: output) }
            }
            soundVerdicts = index
        }
        return await index.value.map { $0.entry(of: domain) }
    }

    private var soundVerdicts: Task<Result<HistoryQuery.SoundVerdicts, InputError>, Never>?

    /// Forgets every answer when `history.json` is not the file they were made from.
    private func refresh() {
        let now = Self.identity(of: URL(fileURLWithPath: output).appendingPathComponent(HistoryQuery.fileName))
        guard now != identity || now == nil else { return }
        identity = now
        fleet = nil
        timelines = [:]
        timelineOrder = []
        soundVerdicts = nil
    }

    private static func identity(of url: URL) -> Identity? {
        var status = stat()
        guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Identity(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }

    static func encode(_ value: some Encodable) -> [UInt8] {
        Array((try? JSONReport.makeEncoder(pretty: true).encode(value)) ?? Data()) + [0x0A]
    }
}
