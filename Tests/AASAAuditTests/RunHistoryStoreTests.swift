import AASAModel
import AASAReport
import AuditTestSupport
import Foundation
import TestSupport
import Testing

@testable import AASAAudit

/// `history.json` against the run folders, on files: what is appended, what makes it be
/// written anew, and what a rewrite keeps. The runs are made up; their folders are empty
/// except where a test writes a report.
@Suite struct RunHistoryStoreTests {
    static let folders = ["2026-11-01T031500Z", "2026-11-02T031500Z", "2026-11-03T031500Z", "2026-11-03T031500Z-2"]

    func run(_ index: Int, verdict: Verdict = .pass) -> HistoryRun {
        let started = Date(timeIntervalSince1970: 1_793_502_900 + Double(index) * 86_400)
        return HistoryRun(
            run: Self.folders[index], startedAt: started, finishedAt: started.addingTimeInterval(60),
            domains: [
                HistoryDomain(domain: "a.example", verdict: verdict, codes: verdict == .fail ? ["http.status"] : [])
            ])
    }

    func store(_ directory: TemporaryDirectory, folders: Int, lines: [HistoryRun], extra: String = "") throws
        -> RunHistoryStore
    {
        for name in Self.folders.prefix(folders) {
            let folder = directory.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // The mark of a folder aasa-audit made (only those are runs).
            _ = FileManager.default.createFile(
                atPath: folder.appendingPathComponent(RunDirectory.marker).path, contents: nil)
        }
        let text = lines.map { String(decoding: RunHistoryStore.line($0), as: UTF8.self) }.joined() + extra
        try text.write(to: directory.url.appendingPathComponent("history.json"), atomically: true, encoding: .utf8)
        return RunHistoryStore(output: directory.url)
    }

    func fileRuns(_ store: RunHistoryStore) throws -> [String] {
        try String(contentsOf: store.file, encoding: .utf8).split(separator: "\n").map {
            try HistoryRun(line: Data($0.utf8)).run
        }
    }

    @Test func runFoldersSortByStartTimeThenAttemptAndOnlyASCIINamesAreRuns() {
        let names = ["2026-11-03T031500Z-10", "2026-11-03T031500Z-2", "2026-11-03T031500Z", "2025-12-31T235959Z"]
        let sorted = names.compactMap { name in RunFolderName(name).map { ($0, name) } }.sorted { $0.0 < $1.0 }.map(
            \.1)
        #expect(
            sorted == ["2025-12-31T235959Z", "2026-11-03T031500Z", "2026-11-03T031500Z-2", "2026-11-03T031500Z-10"])
        for name in [
            "2026-11-03T031500Z-", "2026-11-03T031500Z-1234567", "2026-11-03T031500Z-2x", "2026-11-03T031500",
            "2026-11-03 031500Z",
            "２０２６-１１-０３T０３１５００Z", "2026-11-03T031500Z-٢", "x2026-11-03T031500Z", "2026-11-03T031500Zx",
        ] {
            #expect(RunFolderName(name) == nil, "\(name)")
        }
    }

    /// The name the audit makes reads back as itself, for every attempt it may make.
    @Test func aRunFolderNameTheAuditMakesReadsBack() throws {
        let started = try Date("2026-03-09T04:05:06Z", strategy: .iso8601)
        for attempt in [1, 2, 100, 999_999] {
            let name = RunFolderName(startedAt: started, attempt: attempt)
            #expect(RunFolderName(name.description) == name)
        }
        #expect(RunFolderName(startedAt: started).description == "2026-03-09T040506Z")
    }

    /// A signal after the last domain (the run's task cancelled) stops the reading of a long
    /// history: nothing is written, and the run ends within seconds.
    @Test func aCancelledRunStopsReadingTheHistory() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try store(directory, folders: 3, lines: [run(0), run(1)])
        let before = try Data(contentsOf: store.file)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try store.record(run(2))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try Data(contentsOf: store.file) == before)
    }

    /// The line written in pieces is byte for byte JSONEncoder's encoding of the whole run.
    @Test func theLineWrittenInPiecesIsTheRunsEncoding() throws {
        let started = Date(timeIntervalSince1970: 1_793_502_900)
        for count in [0, 1, 3, 4_000] {
            let domains = (0..<count).map { index in
                HistoryDomain(
                    domain: index == 1 ? "quo\"te/é.example" : "d\(index).example",
                    verdict: index % 3 == 0 ? .fail : .pass,
                    codes: index % 3 == 0 ? ["http.status", "cdn.stale"] : [])
            }
            let run = HistoryRun(
                run: "2026-11-01T031500Z", startedAt: started, finishedAt: started.addingTimeInterval(60),
                domains: domains)
            var pieces = 0
            RunHistoryStore.writeLine(run) { _ in pieces += 1 }
            #expect(
                RunHistoryStore.line(run) == (try JSONReport.makeEncoder().encode(run)) + Data("\n".utf8),
                "\(count) domains")
            #expect(try HistoryRun(line: RunHistoryStore.line(run).dropLast()) == run)
            #expect(count < 4_000 || pieces > 1)
        }
    }

    @Test func aMatchingFileIsAppendedToAndItsBytesKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try store(directory, folders: 3, lines: [run(0), run(1)])
        let before = try Data(contentsOf: store.file)
        let history = try store.record(run(2, verdict: .fail))
        #expect(history.runs.map(\.run) == Array(Self.folders.prefix(3)))
        let after = try Data(contentsOf: store.file)
        #expect(after.prefix(before.count) == before)
        #expect(try fileRuns(store) == Array(Self.folders.prefix(3)))
        #expect(history.standings()[0].notPassingSince?.runs == 1)
    }

    @Test func anInterruptedRunsFolderIsNotAChange() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try store(directory, folders: 3, lines: [run(0), run(2)])
        // Folder 1 holds an interrupted run's report: its last line says so.
        try "{\"domains\":[\n],\"input\":{\"problems\":[]},\"run\":{\"complete\":false}}\n"
            .write(
                to: directory.url.appendingPathComponent(Self.folders[1]).appendingPathComponent("report.json"),
                atomically: true, encoding: .utf8)
        var seen: [String] = []
        let visit = try store.visit { seen.append($0.run) }
        #expect(visit.matched && seen == [Self.folders[0], Self.folders[2]])
    }

    @Test func prunedDamagedAndRepeatedLinesMakeTheFileBeWrittenAnew() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Folder 0 is gone (pruned); line 1 repeats; then half a line.
        let store = try store(
            directory, folders: 3, lines: [run(0), run(1), run(1), run(2)], extra: #"{"schemaVersion":1,"run":"#)
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent(Self.folders[0]))
        let before = try Data(contentsOf: store.file)
        var seen: [String] = []
        let readOnly = try store.visit { seen.append($0.run) }
        #expect(!readOnly.matched && readOnly.rewritten == nil)
        #expect(seen == [Self.folders[1], Self.folders[2]])
        // Reading never writes; recording writes the whole file anew, in folder order.
        #expect(try Data(contentsOf: store.file) == before)
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent(Self.folders[3]), withIntermediateDirectories: true)
        let history = try store.record(run(3))
        #expect(history.runs.map(\.run) == Array(Self.folders.suffix(3)))
        #expect(try fileRuns(store) == Array(Self.folders.suffix(3)))
        // No temporary file is left beside it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".tmp") }
                .isEmpty)
    }

    @Test func anOverlongLineIsDamageNotAllocation() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var store = try store(directory, folders: 2, lines: [run(0), run(1)])
        store.maximumLineBytes = 50
        var seen: [String] = []
        let visit = try store.visit { seen.append($0.run) }
        // Each line is longer than 50 bytes: none is read, and the (empty) folders hold no report.
        #expect(!visit.matched && seen.isEmpty)
    }

    @Test(.live, .tags(.live)) func aMissingFileIsRebuiltFromCompleteReportsOnly() async throws {
        let world = try TestWorld()
        let out = world.directory.url.appendingPathComponent("reports")
        let settings = world.auditSettings(out: out)
        var folders: [String] = []
        for hosts in [["good.aasa.test"], ["missing.aasa.test"]] {
            folders.append(
                try await AuditRun.run(
                    targets: hosts.map { DomainTarget(domain: $0) }, inputProblems: [], settings: settings
                ).runDirectory.lastPathComponent)
        }
        let store = RunHistoryStore(output: out)
        let written = try String(contentsOf: store.file, encoding: .utf8)
        try FileManager.default.removeItem(at: store.file)
        let repaired = try store.repair()
        #expect(repaired.runs.map(\.run) == folders)
        // The same lines as the runs wrote: a report read back gives what the run recorded.
        #expect(try String(contentsOf: store.file, encoding: .utf8) == written)
    }
}
