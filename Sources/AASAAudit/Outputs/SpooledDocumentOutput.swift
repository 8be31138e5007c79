import Foundation
import Synchronization

/// How one spooled document is made: what it keeps of each domain, and how the whole is
/// written around those pieces.
protocol SpooledDocumentFormat: Sendable {
    /// The spool file's name in the run folder.
    var spoolName: String { get }
    /// Whether the spool stays in the run folder when the document is written (or the run is
    /// cut short): the JSON report's is the run's stream of records.
    var keepsSpool: Bool { get }
    func render(_ domain: AuditedDomain) -> Data
    /// Told the run's size when it starts, before any piece is rendered.
    func start(_ run: RunStart)
    /// Writes the document: `pieces` calls its argument with each domain's piece in input order.
    func write(_ run: FinishedRun, pieces: OrderedSpool, to write: (Data) throws -> Void) throws
}

extension SpooledDocumentFormat {
    func start(_ run: RunStart) {}
    var keepsSpool: Bool { false }
}

/// Where a run output's file goes.
enum OutputDestination: Sendable {
    /// A file of the run folder, e.g. `report.json`.
    case runFile(String)
    /// A path the user named with `option` (`--junit`).
    case file(URL, option: String)

    func url(in run: RunStart) -> URL {
        switch self {
        case .runFile(let name): run.runDirectory.appendingPathComponent(name)
        case .file(let url, _): url
        }
    }

    /// As an error names it: `report.json`, `--junit FILE`.
    var name: String {
        switch self {
        case .runFile(let name): name
        case .file(let url, let option): "\(option) \(url.path)"
        }
    }
}

/// A report written as head, one piece per domain in input order, tail: the JSON and HTML
/// reports and JUnit XML. Pieces are rendered concurrently, spooled to disk as domains
/// complete, and streamed into the destination (written under a temporary name, renamed into
/// place) when the run finishes. The destination's temporary file is made at `start`, so an
/// unwritable path fails the run before it fetches anything.
final class SpooledDocumentOutput<Format: SpooledDocumentFormat>: RunOutput {
    private struct Open {
        var writer: AtomicFileWriter
        var spool: OrderedSpool
    }

    let format: Format
    let destination: OutputDestination
    var name: String { destination.name }
    private let state = Mutex<Open?>(nil)

    init(_ format: Format, to destination: OutputDestination) {
        self.format = format
        self.destination = destination
    }

    func start(_ run: RunStart) throws {
        format.start(run)
        let spoolURL = run.runDirectory.appendingPathComponent(format.spoolName)
        try state.withLock { open in
            let writer = try AtomicFileWriter(destination: destination.url(in: run))
            do {
                open = Open(writer: writer, spool: try OrderedSpool(url: spoolURL, capacity: run.domainCount))
            } catch {
                writer.abandon()
                throw error
            }
        }
    }

    func render(_ domain: AuditedDomain) -> Data? {
        format.render(domain)
    }

    func add(_ domain: AuditedDomain, rendered: Data?) throws {
        try state.withLock { open in
            guard let open, let rendered else { return }
            try open.spool.append(rendered, at: domain.index)
        }
    }

    func finish(_ run: FinishedRun) throws -> URL {
        try state.withLock { open in
            guard let current = open else { throw CocoaError(.fileWriteUnknown) }
            open = nil
            defer { format.keepsSpool ? current.spool.close() : current.spool.remove() }
            return try current.writer.complete { try format.write(run, pieces: current.spool, to: $0.write) }
        }
    }

    func discard() {
        state.withLock { open in
            open?.writer.abandon()
            if format.keepsSpool { open?.spool.close() } else { open?.spool.remove() }
            open = nil
        }
    }
}
