import AASAAudit
import AASAModel
import Foundation
import TestSupport
import Testing

/// Where teams already are: the GitHub Action's steps run as a runner runs them (its shell
/// scripts, with a runner's environment, against a tarball laid out as the release's and served
/// from a `file://` release URL), and the pre-commit hook run by the real `pre-commit try-repo`.
@Suite(.live, .tags(.live)) struct ActionAndHookTests {
    static let binary = CommandLineTests.binary
    static let version = AASAAuditVersion.tool.version

    /// A fixture website: a valid AASA, an assetlinks.json whose fingerprint Google's parser
    /// skips, and a `webauthn` that is no JSON (a kind the Action and hook once did not look for).
    static func website(in directory: URL) throws -> (aasa: URL, assetLinks: URL, webauthn: URL) {
        let wellKnown = directory.appendingPathComponent("public/.well-known")
        try FileManager.default.createDirectory(at: wellKnown, withIntermediateDirectories: true)
        let aasa = wellKnown.appendingPathComponent("apple-app-site-association")
        try #"{"applinks": {"details": [{"appIDs": ["\#(AppIDFormat.example)"], "components": [{"/": "/shop/*"}]}]}}"#
            .write(to: aasa, atomically: true, encoding: .utf8)
        let assetLinks = wellKnown.appendingPathComponent("assetlinks.json")
        try
            #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["ab:cd"]}}]"#
            .write(to: assetLinks, atomically: true, encoding: .utf8)
        let webauthn = wellKnown.appendingPathComponent("webauthn")
        try #"{"origins": ["https://shop.example.com",]"#.write(to: webauthn, atomically: true, encoding: .utf8)
        return (aasa, assetLinks, webauthn)
    }

    static func git(_ arguments: [String], in directory: URL) async throws {
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/git"),
            ["-c", "user.name=test", "-c", "user.email=test@example.com"] + arguments, in: directory)
        #expect(result.status == 0, "git \(arguments): \(result.stderr)")
    }

    /// A release as `Scripts/release.sh` lays it out (the tarball's top folder, `bin/`, and
    /// `SHA256SUMS`), with this build's binary, under `releases/vVERSION/`.
    static func release(in directory: URL) async throws -> URL {
        let name = "aasa-audit-\(version)-linux-x86_64"
        let stage = directory.appendingPathComponent("stage/\(name)/bin")
        try FileManager.default.createDirectory(at: stage, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: binary, to: stage.appendingPathComponent("aasa-audit"))
        let releases = directory.appendingPathComponent("releases")
        let folder = releases.appendingPathComponent("v\(version)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tar = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/tar"),
            [
                "-czf", folder.appendingPathComponent("\(name).tar.gz").path, "-C",
                directory.appendingPathComponent("stage").path, name,
            ])
        #expect(tar.status == 0, "\(tar.stderr)")
        let sums = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "sha256sum -- *.tar.gz > SHA256SUMS"], in: folder)
        #expect(sums.status == 0, "\(sums.stderr)")
        return releases
    }

    /// A step as the runner runs it: `bash -e` on its script with the runner's variables and
    /// the step's env.
    static func step(
        _ script: String, env: [String: String], runner: URL, in directory: URL, path: String? = nil
    ) async throws -> ProcessRunner.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["GITHUB_ACTION_PATH"] = Repository.root.path
        environment["RUNNER_TEMP"] = runner.appendingPathComponent("temp").path
        environment["GITHUB_PATH"] = runner.appendingPathComponent("path").path
        environment["GITHUB_OUTPUT"] = runner.appendingPathComponent("output").path
        if let path { environment["PATH"] = path + ":" + (environment["PATH"] ?? "/usr/bin:/bin") }
        environment.merge(env) { $1 }
        try FileManager.default.createDirectory(
            at: runner.appendingPathComponent("temp"), withIntermediateDirectories: true)
        return try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"), ["-e", Repository.root.appendingPathComponent(script).path],
            in: directory, environment: environment)
    }

    @Test func theActionInstallsAVerifiedReleaseAndAnnotatesTheLinesAtFault() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let action = try String(contentsOf: Repository.file("action.yml"), encoding: .utf8)
        // The Action's steps are these scripts, and its default release is this version.
        #expect(action.contains(#"run: '"$GITHUB_ACTION_PATH/action/install.sh"'"#))
        #expect(action.contains(#"run: '"$GITHUB_ACTION_PATH/action/lint.sh"'"#))
        #expect(action.contains("default: \"\(Self.version)\""), "action.yml's default version is not \(Self.version)")
        #expect(action.contains("default: \(ToolInfo.homepage)/releases/download"))

        let releases = try await Self.release(in: directory.url)
        let site = directory.url.appendingPathComponent("site")
        _ = try Self.website(in: site)
        try await Self.git(["init", "-q"], in: site)
        try await Self.git(["add", "-A"], in: site)
        let runner = directory.url.appendingPathComponent("runner")
        let install = try await Self.step(
            "action/install.sh",
            env: ["AASA_AUDIT_VERSION": Self.version, "AASA_AUDIT_RELEASE_URL": "file://" + releases.path],
            runner: runner, in: site)
        #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
        let added = try String(contentsOf: runner.appendingPathComponent("path"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(FileManager.default.isExecutableFile(atPath: added + "/aasa-audit"), "GITHUB_PATH: \(added)")

        // Annotations, every tracked association file found, the step failed by the error.
        let lint = try await Self.step(
            "action/lint.sh", env: ["AASA_AUDIT_FORMAT": "github"], runner: runner, in: site, path: added)
        #expect(lint.status == 1, "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stdout.contains("::error file=public/.well-known/assetlinks.json"), "\(lint.stdout)")
        #expect(lint.stdout.contains("assetlinks.fingerprint"))
        #expect(lint.stdout.contains("::error file=public/.well-known/webauthn,"), "\(lint.stdout)")
        // SARIF for code scanning, its path an output of the step.
        let sarif = try await Self.step(
            "action/lint.sh",
            env: ["AASA_AUDIT_FORMAT": "sarif", "AASA_AUDIT_FILES": "public/.well-known/apple-app-site-association"],
            runner: runner, in: site, path: added)
        #expect(sarif.status == 0, "\(sarif.stdout)\(sarif.stderr)")
        let log = try JSONSerialization.jsonObject(
            with: Data(contentsOf: site.appendingPathComponent("aasa-audit.sarif")))
        #expect((log as? [String: Any])?["version"] as? String == "2.1.0")
        #expect(
            try String(contentsOf: runner.appendingPathComponent("output"), encoding: .utf8).contains(
                "sarif-file=aasa-audit.sarif"))

        // The app the file must name: one the file drops fails the step (appid.missing), and
        // the files input takes a path with spaces, one a line (issue 47, item 3).
        let spaced = site.appendingPathComponent("with space/.well-known")
        try FileManager.default.createDirectory(at: spaced, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: site.appendingPathComponent("public/.well-known/apple-app-site-association"),
            to: spaced.appendingPathComponent("apple-app-site-association"))
        let checked = try await Self.step(
            "action/lint.sh",
            env: [
                "AASA_AUDIT_FORMAT": "github",
                "AASA_AUDIT_FILES":
                    "public/.well-known/apple-app-site-association\nwith space/.well-known/apple-app-site-association\n",
                "AASA_AUDIT_APP_IDS": "\(AppIDFormat.example)\nQX7TM4K2RB.com.example.dropped",
                "AASA_AUDIT_ARGS": "--severity\nhttp.content-type=info",
            ], runner: runner, in: site, path: added)
        #expect(checked.status == 1, "\(checked.stdout)\(checked.stderr)")
        #expect(
            checked.stdout.components(separatedBy: "appid.missing").count == 3,
            "both files lack the dropped app: \(checked.stdout)")
        #expect(checked.stdout.contains("file=with space/.well-known/apple-app-site-association"), "\(checked.stdout)")
        let named = try await Self.step(
            "action/lint.sh",
            env: [
                "AASA_AUDIT_FORMAT": "github", "AASA_AUDIT_FILES": "public/.well-known/apple-app-site-association",
                "AASA_AUDIT_APP_IDS": AppIDFormat.example,
            ], runner: runner, in: site, path: added)
        #expect(named.status == 0, "\(named.stdout)\(named.stderr)")

        // A version with no release, or none given: an ::error:: saying which.
        for version in ["9.9.9", ""] {
            let missing = try await Self.step(
                "action/install.sh",
                env: ["AASA_AUDIT_VERSION": version, "AASA_AUDIT_RELEASE_URL": "file://" + releases.path],
                runner: directory.url.appendingPathComponent("runner-3"), in: site)
            #expect(missing.status != 0 && missing.stdout.hasPrefix("::error::"), "\(missing.stdout)\(missing.stderr)")
            #expect(missing.stdout.contains(version.isEmpty ? "the version input is empty" : "no release 9.9.9"))
        }

        // A tarball that is not the release's is refused before it is unpacked.
        let tarball = releases.appendingPathComponent("v\(Self.version)/aasa-audit-\(Self.version)-linux-x86_64.tar.gz")
        try Data("not the release".utf8).write(to: tarball)
        let tampered = try await Self.step(
            "action/install.sh",
            env: ["AASA_AUDIT_VERSION": Self.version, "AASA_AUDIT_RELEASE_URL": "file://" + releases.path],
            runner: directory.url.appendingPathComponent("runner-2"), in: site)
        #expect(tampered.status != 0 && tampered.stdout.contains("does not match the release's SHA256SUMS"))
    }

    static let preCommit = ["/usr/bin/pre-commit", "/usr/local/bin/pre-commit"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The hook of `.pre-commit-hooks.yaml`, as a website's repository runs it: `pre-commit
    /// try-repo` on this repository, with aasa-audit on the PATH.
    @Test(
        .enabled(
            if: preCommit != nil || ProcessInfo.processInfo.environment["CI"] == "true",
            "pre-commit is not installed (apt-get install pre-commit): skipping"))
    func thePreCommitHookLintsTheAssociationFiles() async throws {
        let preCommit = try #require(Self.preCommit)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let site = directory.url.appendingPathComponent("site")
        let files = try Self.website(in: site)
        try "<html></html>\n".write(to: site.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try await Self.git(["init", "-q"], in: site)
        try await Self.git(["add", "-A"], in: site)
        var environment = ProcessInfo.processInfo.environment
        environment["PRE_COMMIT_HOME"] = directory.url.appendingPathComponent("cache").path
        environment["PATH"] =
            Self.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        func run() async throws -> ProcessRunner.Result {
            try await ProcessRunner.run(
                URL(fileURLWithPath: preCommit),
                ["try-repo", Repository.root.path, "aasa-audit-lint", "--all-files"], in: site, environment: environment
            )
        }
        let failing = try await run()
        #expect(failing.status == 1, "\(failing.stdout)\(failing.stderr)")
        #expect(failing.stdout.contains("assetlinks.json:1:") && failing.stdout.contains("assetlinks.fingerprint"))
        #expect(!failing.stdout.contains("index.html"))
        #expect(failing.stdout.contains("webauthn:1:"), "\(failing.stdout)")
        try #"{"origins": ["https://shop.example.com"]}"#.write(to: files.webauthn, atomically: true, encoding: .utf8)
        let fingerprint = (0..<32).map { _ in "AB" }.joined(separator: ":")
        try String(contentsOf: files.assetLinks, encoding: .utf8).replacingOccurrences(of: "ab:cd", with: fingerprint)
            .write(to: files.assetLinks, atomically: true, encoding: .utf8)
        try await Self.git(["add", "-A"], in: site)
        let passing = try await run()
        #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
        #expect(passing.stdout.contains("aasa-audit lint") && passing.stdout.contains("Passed"))
    }
}
