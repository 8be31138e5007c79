import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// The environment's proxy is not used: through a proxy the address policy would see only the
/// proxy, and the proxy would connect wherever a name leads (issue 25, item 12).
@Suite(.live, .tags(.live)) struct ProxyPolicyTests {
    @Test func aProxyInTheEnvironmentCarriesNothing() async throws {
        let world = try TestWorld()
        // A "proxy" on loopback that logs connections and never answers.
        let proxy = try FaultServer(identity: nil, fault: .silent)
        defer { proxy.shutdown() }
        var environment = ["NO_COLOR": "1"]
        for name in ["https_proxy", "HTTPS_PROXY", "http_proxy", "all_proxy", "ALL_PROXY"] {
            environment[name] = "http://127.0.0.1:\(proxy.port)"
        }
        // Loopback is allowed (for the test world and the proxy); the refused destinations are
        // a metadata address and a name --resolve'd to one.
        let arguments =
            [
                "check", "metadata.google.internal", "refused.aasa.test", "good.aasa.test", "--app-id", TestWorld.appID,
                "--resolve", "metadata.google.internal:443:169.254.169.254", "--resolve",
                "refused.aasa.test:443:169.254.169.254",
                "--connect-to", "good.aasa.test:443:127.0.0.1:\(world.server.port)", "--cacert", world.caFile,
                "--timeout", "5", "--no-cdn",
            ]
            + LoopbackNetworks.allowArguments
        let result = try await ProcessRunner.run(
            CommandLineTests.binary, arguments, in: world.directory.url, environment: environment)
        #expect(proxy.connectionCount == 0, "the proxy was asked to connect")
        #expect(result.stdout.contains("metadata.google.internal  FAIL"), "\(result.stdout)")
        #expect(result.stdout.contains("169.254.169.254 is link-local"), "\(result.stdout)")
        // Allowed hosts are reached directly.
        #expect(result.stdout.contains("good.aasa.test  PASS"), "\(result.stdout)")
    }
}
