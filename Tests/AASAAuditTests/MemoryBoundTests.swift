import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// Memory is bounded by concurrency, not by body sizes: a run against gzip bombs and endless
/// bodies peaks no higher than a run against normal files, beyond a small allowance.
@Suite(.live, .tags(.live)) struct MemoryBoundTests {
    struct Stats: Decodable {
        var peakResidentBytes: Int
        var domains: Int
    }

    func peak(of response: RawResponse, domains: Int, in world: TestWorld) async throws -> Int {
        let pki = try TestPKI()
        let caFile = try pki.writeCACertificate(in: world.directory.url.appendingPathComponent("."))
        let server = try FaultServer(
            identity: try pki.issueServerIdentity(for: ["*.aasa.test"]), fault: .respond { _, _ in response })
        defer { server.shutdown() }
        let hosts = (1...domains).map { "d\($0).aasa.test" }
        let input = world.directory.url.appendingPathComponent("mem-\(UUID().uuidString).txt")
        try hosts.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        let statsFile = world.directory.url.appendingPathComponent("stats-\(UUID().uuidString).json")
        let result = try await ProcessRunner.run(
            CommandLineTests.binary,
            [
                "audit", input.path, "--out", world.directory.url.appendingPathComponent("out").path, "--concurrency",
                "16",
                "--timeout", "20", "--no-cdn", "--no-ua-check", "--cacert", caFile, "--connect-to",
                "::127.0.0.1:\(server.port)", "--allow-network", "127.0.0.0/8", "--stats", statsFile.path,
            ], in: world.directory.url)
        #expect(result.status <= 1, "\(result.stderr)")
        let stats = try JSONDecoder().decode(Stats.self, from: Data(contentsOf: statsFile))
        #expect(stats.domains == domains)
        return stats.peakResidentBytes
    }

    @Test func bombsAndEndlessBodiesCostNoMoreThanNormalFiles() async throws {
        let world = try TestWorld()
        let normal = try await peak(of: .http(body: FaultMatrixTests.valid), domains: 48, in: world)
        let bomb = try await peak(
            of: .http(
                headers: ["Content-Type: application/json", "Content-Encoding: gzip"],
                body: try await Gzip.compress(Array(repeating: 0x20, count: 50_000_000))), domains: 48, in: world)
        let endless = try await peak(
            of: .endlessChunks(head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"), domains: 48, in: world)
        // 16 transfers in flight keep at most 128 KB each; allow that and allocator slack.
        let allowance = 16 * 131_073 + 12 << 20
        #expect(bomb <= normal + allowance, "normal \(normal >> 20) MiB, gzip bombs \(bomb >> 20) MiB")
        #expect(endless <= normal + allowance, "normal \(normal >> 20) MiB, endless bodies \(endless >> 20) MiB")
        print("peak RSS: normal \(normal >> 10) KiB, gzip bombs \(bomb >> 10) KiB, endless bodies \(endless >> 10) KiB")
    }
}
