import AASAModel
import AASAReport
import Foundation

/// The previous complete run in an output folder, as far as changes go: read from
/// `latest.json` line by line (one domain record a line), keeping only each domain's verdict
/// and findings.
struct PreviousRun {
    var startedAt: Date
    var domains: [String: DomainSnapshot]
    /// In the previous run's order.
    var order: [String]

    static func load(from url: URL) -> PreviousRun? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        let decoder = JSONReport.makeDecoder()
        var domains: [String: DomainSnapshot] = [:]
        var order: [String] = []
        var startedAt: Date?
        var inDomains = false
        var reader = LineReader(handle: handle)
        while let line = reader.next() {
            if !inDomains {
                inDomains = line.reversed().starts(with: #""domains":["#.utf8.reversed())
                continue
            }
            if line.first == UInt8(ascii: "]") {
                // The tail: `],"input":…,"run":{…},…}`.
                struct Tail: Decodable { var run: RunInfo }
                startedAt = try? decoder.decode(Tail.self, from: Data("{".utf8) + line.dropFirst(2)).run.startedAt
                break
            }
            var record = line
            if record.last == UInt8(ascii: ",") { record = record.dropLast() }
            guard let snapshot = try? decoder.decode(DomainSnapshot.self, from: record) else { continue }
            if domains[snapshot.domain] == nil { order.append(snapshot.domain) }
            domains[snapshot.domain] = snapshot
        }
        guard let startedAt else { return nil }
        return PreviousRun(startedAt: startedAt, domains: domains, order: order)
    }
}

/// Lines of a file, read in chunks.
struct LineReader {
    let handle: FileHandle
    private var buffer = Data()
    private var finished = false

    init(handle: FileHandle) { self.handle = handle }

    mutating func next() -> Data? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = buffer[(newline + 1)...]
                return Data(line)
            }
            if finished {
                guard !buffer.isEmpty else { return nil }
                defer { buffer = Data() }
                return Data(buffer)
            }
            let chunk = (try? handle.read(upToCount: 1 << 16)) ?? nil
            if let chunk, !chunk.isEmpty { buffer.append(chunk) } else { finished = true }
        }
    }
}

/// One audit at a time per output folder: an exclusive `flock` on `<out>/.lock`, held for the
/// run and released by the system if the process dies.
final class OutputLock {
    private let descriptor: Int32

    init(directory: URL) throws(AuditRunError) {
        let path = directory.appendingPathComponent(".lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw AuditRunError(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var holder = ""
            if let text = try? String(contentsOfFile: path, encoding: .utf8), !text.isEmpty {
                holder = " (\(text.trimmingCharacters(in: .whitespacesAndNewlines)))"
            }
            close(descriptor)
            throw AuditRunError(description: "another audit is writing to \(directory.path)\(holder); wait for it to finish")
        }
        let note = "pid \(getpid()), started \(ISO8601DateFormatter().string(from: Date()))\n"
        _ = ftruncate(descriptor, 0)
        _ = note.withCString { write(descriptor, $0, strlen($0)) }
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

/// `--keep N`: removes the oldest run folders beyond the newest N.
enum RunPruning {
    static func prune(_ output: URL, keep: Int) {
        let fileManager = FileManager.default
        let names = (try? fileManager.contentsOfDirectory(atPath: output.path)) ?? []
        let runs = names.filter { $0.wholeMatch(of: /\d{4}-\d\d-\d\dT\d{6}Z(-\d+)?/) != nil }.sorted { RunDirectory.precedes($0, $1) }
        for name in runs.dropLast(max(keep, 1)) {
            try? fileManager.removeItem(at: output.appendingPathComponent(name))
        }
    }
}
