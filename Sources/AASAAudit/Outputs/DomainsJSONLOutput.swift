import AASAModel
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `RUN/domains.jsonl`: one domain record a line (the report schema's `domain` object, the
/// bytes `report.json` holds for it), appended as each domain finishes, in completion order, so
/// that `tail -f`, Loki or DuckDB read a run while it goes on. Written in batches (every
/// `batchBytes`, and at the end); an interrupted run keeps what it wrote. `report.json` stays the
/// run's document; this is its stream.
final class DomainsJSONLOutput: RunOutput {
    static let fileName = "domains.jsonl"
    /// Written when this much is pending: a few hundred records.
    static let batchBytes = 256 << 10

    private struct Open {
        var descriptor: Int32
        var url: URL
        var pending = Data()
    }

    private let state = Mutex<Open?>(nil)

    func start(_ run: RunStart) throws {
        let url = run.runDirectory.appendingPathComponent(Self.fileName)
        let path = url.path
        // In the folder this run made: a new regular file, never a link's target.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_APPEND, 0o644)
        guard descriptor >= 0 else {
            throw StreamError(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        state.withLock { $0 = Open(descriptor: descriptor, url: url) }
    }

    /// The JSON report's record of the domain is this output's line (`Outputs.add` hands it
    /// over): encoded once for both.
    func render(_ domain: AuditedDomain) -> Data? { nil }

    func add(_ domain: AuditedDomain, rendered: Data?) throws {
        try state.withLock { open in
            // The domains an interrupted run never reached did not finish: not streamed.
            guard open != nil, let rendered, !domain.report.findings.contains(where: { $0.code == .auditInterrupted })
            else { return }
            open!.pending.append(rendered)
            if rendered.last != 0x0A { open!.pending.append(0x0A) }
            if open!.pending.count >= Self.batchBytes { try Self.flush(&open!) }
        }
    }

    @discardableResult
    func finish(_ run: FinishedRun) throws -> URL {
        try state.withLock { open in
            guard var current = open else { throw CocoaError(.fileWriteUnknown) }
            open = nil
            defer { close(current.descriptor) }
            try Self.flush(&current)
            return current.url
        }
    }

    /// An interrupted or failed run keeps the records it streamed.
    func discard() {
        state.withLock { open in
            guard var current = open else { return }
            open = nil
            try? Self.flush(&current)
            close(current.descriptor)
        }
    }

    private static func flush(_ open: inout Open) throws {
        let written = open.pending.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = write(open.descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        open.pending.removeAll(keepingCapacity: true)
        guard written else {
            throw StreamError(
                description: "cannot write \(open.url.path): \(String(cString: strerror(errno)))")
        }
    }

    struct StreamError: Error, CustomStringConvertible {
        let description: String
    }
}
