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

    /// An audit goes through the kept runs' lines a domain at a time (`HistoryRun.header`,
    /// `RunHistory.add(_:line:)`), never holding a run's list: the history reads the same as
    /// from whole runs, a line of another layout (read the slow way) included.
    @Test func linesGoneThroughOneDomainAtATimeReadAsWholeRuns() throws {
        let runs = Self.runs()
        let whole = RunHistory(runs: runs)
        var lean = RunHistory(store: try HistoryStateStore())
        var slow = 0
        for (index, run) in runs.dropLast().enumerated() {
            var line = RunHistoryStore.line(run).dropLast()
            if index % 10 == 3 {
                let spaced = String(decoding: line, as: UTF8.self).replacingOccurrences(
                    of: #""domains":"#, with: #""domains" :"#)
                line = Data(spaced.utf8)
                slow += 1
            }
            let header = try HistoryRun.header(line: line)
            #expect(header.domains.isEmpty && header.verdicts == run.verdicts)
            lean.add(header, line: line)
        }
        lean.add(runs[runs.count - 1])
        #expect(slow == 7)
        #expect(lean.runs == whole.runs)
        #expect(lean.standings() == whole.standings())
        #expect(throws: (any Error).self) { try HistoryRun.header(line: Data(#"{"domains":[["a","pass"],3]}"#.utf8)) }
    }
}
