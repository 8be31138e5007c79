import AASAModel
import Foundation
import Testing

@testable import AASAAudit

/// The history's domain states kept on disk (`HistoryStateStore`, what `audit` uses) read the
/// same as kept in memory: since when, flapping, stale CDN copies, previous verdicts, over more
/// runs than a state's 64-run window, with domains missing, unchecked and listed twice.
@Suite struct HistoryStateStoreTests {
    /// A seeded sequence (SplitMix64): the same history on every run of the test.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func runs() -> [HistoryRun] {
        var random = Seeded(state: 38)
        let start = Date(timeIntervalSince1970: 1_793_502_000)
        let names = (0..<300).map { "d\($0).example" }
        return (0..<70).map { number in
            var domains: [HistoryDomain] = []
            for (index, name) in names.enumerated() {
                // Some domains steady, some flapping, some often missing.
                let roll = Int.random(in: 0..<100, using: &random)
                if index % 7 == 0, roll < 30 { continue }
                let verdict: Verdict = index % 5 == 0 ? [.pass, .fail, .warn][roll % 3] : roll < 85 ? .pass : .fail
                var codes = verdict == .fail ? ["http.status"] : verdict == .warn ? ["http.content-type"] : []
                if index % 11 == 0, roll < 60 { codes.append("cdn.stale") }
                if index % 13 == 0, roll < 20 { codes = ["audit.unchecked"] }
                domains.append(
                    HistoryDomain(domain: name, verdict: codes == ["audit.unchecked"] ? .fail : verdict, codes: codes))
            }
            domains.append(domains[0])
            let started = start.addingTimeInterval(Double(number) * 86_400)
            return HistoryRun(
                run: "run-\(number)", startedAt: started, finishedAt: started.addingTimeInterval(60), domains: domains,
                auditorProblems: number == 40 ? ["this machine's DNS is not working"] : nil)
        }
    }

    @Test func statesOnDiskReadAsStatesInMemory() throws {
        let runs = Self.runs()
        let inMemory = RunHistory(runs: runs)
        let store = try HistoryStateStore()
        var onDisk = RunHistory(store: store)
        for run in runs { onDisk.add(run) }
        #expect(store.failure == nil)
        let expected = inMemory.standings()
        #expect(onDisk.standings() == expected)
        // What the comparison above rests on: the history says something of every kind.
        #expect(expected.contains { $0.flapping } && expected.contains { $0.cdnStaleSince != nil })
        #expect(
            expected.contains { $0.notPassingSince?.runs ?? 0 > 1 } && expected.contains { $0.previousVerdict != nil })
        #expect(expected.contains { $0.lastPassed != nil } && expected.contains { $0.changes == 0 })
    }

    /// An audit goes through the kept runs' lines a domain at a time, from the file in pieces
    /// (`HistoryLineFile`), never holding a line or a run's list: the history reads the same as
    /// from whole runs, with pieces of 7 bytes (every element straddles pieces), a line of
    /// another layout (read the slow way) and an empty line included; a damaged line throws.
    @Test func linesGoneThroughFromTheFileReadAsWholeRuns() throws {
        let runs = Self.runs()
        let whole = RunHistory(runs: runs)
        var text = Data()
        var slow = 0
        for (index, run) in runs.dropLast().enumerated() {
            var line = RunHistoryStore.line(run)
            if index % 10 == 3 {
                let spaced = String(decoding: line, as: UTF8.self).replacingOccurrences(
                    of: #""domains":"#, with: #""domains" :"#)
                line = Data(spaced.utf8)
                slow += 1
            }
            text.append(line)
            if index == 5 { text.append(Data("\n".utf8)) }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("history.json")
        try text.write(to: url)
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let file = HistoryLineFile(handle: handle, pieceBytes: 7)
        var lean = RunHistory(store: try HistoryStateStore())
        var (read, empty) = (0, 0)
        let complete = try file.forEachSpan(maximumLineBytes: 1 << 20) { span in
            guard span.length > 0 else {
                empty += 1
                return true
            }
            let line = HistoryLineFile.Line(file: file, span: span)
            // Streamed, but for the lines of the other layout.
            let streamed = try file.read(span) { _ in } != nil
            #expect(streamed == (read % 10 != 3))
            let header = try line.header()
            #expect(header.domains.isEmpty && header.verdicts == runs[read].verdicts && header.run == runs[read].run)
            try lean.add(header) { each in try line.forEachDomain(each) }
            read += 1
            return true
        }
        lean.add(runs[runs.count - 1])
        #expect(complete && read == runs.count - 1 && empty == 1 && slow == 7)
        #expect(lean.runs == whole.runs)
        #expect(lean.standings() == whole.standings())

        // A damaged line, and a list cut short, are not lines.
        for damaged in [#"{"domains":[["a","pass"],3]}"#, #"{"domains":[["a","pass"],["b","#] {
            try Data(damaged.utf8).write(to: url)
            let broken = try FileHandle(forReadingFrom: url)
            defer { try? broken.close() }
            let brokenFile = HistoryLineFile(handle: broken, pieceBytes: 5)
            #expect(try brokenFile.read(.init(offset: 0, length: damaged.utf8.count)) { _ in } == nil)
            #expect(throws: (any Error).self) {
                try HistoryLineFile.Line(file: brokenFile, span: .init(offset: 0, length: damaged.utf8.count)).header()
            }
        }
    }
}
