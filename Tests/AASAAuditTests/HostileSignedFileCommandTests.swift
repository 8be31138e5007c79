import Foundation
import TestSupport
import Testing

/// Hostile signed files through the built binary, on a pseudo-terminal: nothing prompts.
@Suite(.live, .tags(.live)) struct HostileSignedFileCommandTests {
    /// A PEM block with `Proc-Type: 4,ENCRYPTED`: OpenSSL's PEM_read_bio_CMS would ask the
    /// terminal for a pass phrase ("Enter PEM pass phrase:") and wait for ever.
    static let encryptedPEM = """
        -----BEGIN PKCS7-----
        Proc-Type: 4,ENCRYPTED
        DEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF

        MIIBkQYJKoZIhvcNAQcCoIIBgjCCAX4CAQExDTALBglghkgBZQMEAgEwEQYJKoZI
        hvcNAQcBoAQEAnt9MYIBVjCCAVICAQEwIzAXMRUwEwYDVQQDDAxleGFtcGxlLmNv
        -----END PKCS7-----

        """

    @Test(arguments: [["lint", "FILE"], ["match", "--file", "FILE", "https://example.com/x"]])
    func anEncryptedPEMBlockNeverPromptsOnATerminal(command: [String]) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("apple-app-site-association")
        try Self.encryptedPEM.write(to: file, atomically: true, encoding: .utf8)
        let arguments = command.map { $0 == "FILE" ? file.path : $0 }
        let line = ([CommandLineTests.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        // script(1) gives the command a pseudo-terminal as its controlling terminal (what
        // OpenSSL's prompt opens); standard input is a pipe left open, so a read never ends.
        let running = try ProcessRunner.start(
            URL(fileURLWithPath: "/usr/bin/timeout"), ["30", "/usr/bin/script", "-qec", line, "/dev/null"],
            environment: ["NO_COLOR": "1", "PATH": "/usr/bin:/bin", "TERM": "dumb"], openStandardInput: true)
        let result = await running.finished()
        #expect(result.status != 124, "it waited for input until timeout killed it: \(result.stdout)")
        #expect(!result.stdout.contains("Enter PEM pass phrase"), "\(result.stdout)")
        #expect(result.stdout.contains("encrypted PEM block"), "\(result.stdout)")
    }
}
