import AASAModel
import Foundation

/// What a run cost the machine, for `--stats FILE` (the benchmark reads it).
public struct RunStatistics: Codable {
    var wallSeconds: Double
    var userCPUSeconds: Double
    var systemCPUSeconds: Double
    /// The process's peak resident set size (VmHWM), in bytes.
    var peakResidentBytes: Int
    var domains: Int

    public static func measure(since start: ContinuousClock.Instant, domains: Int) -> RunStatistics {
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        let elapsed = ContinuousClock.now - start
        return RunStatistics(
            wallSeconds: elapsed.seconds,
            userCPUSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
            systemCPUSeconds: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6,
            peakResidentBytes: peakResidentBytes() ?? Self.maxRSSBytes(usage),
            domains: domains)
    }

    /// getrusage's peak: kilobytes on Linux, bytes on macOS.
    static func maxRSSBytes(_ usage: rusage) -> Int {
        #if os(Linux)
            Int(usage.ru_maxrss) * 1024
        #else
            Int(usage.ru_maxrss)
        #endif
    }

    /// VmHWM from /proc/self/status (Linux only; nil elsewhere).
    static func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }

    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try AtomicFileWriter.write(try encoder.encode(self), to: URL(fileURLWithPath: path))
    }
}
