import AASAAudit
import AASAChecks
import AASAFetch
import AASAModel
import AASAReport
import AASAServe
import AuditTestSupport
import DomainList
import Foundation
import TestSupport
import Testing

/// One judge over every real file (issue 55, item 4): each file under `../shared/corpus`, of
/// each of the six kinds, is served on a loopback host of its own at its kind's path and audited
/// as the nightly run audits it (a domains.txt line with the kind's expectations), and `lint`
/// is given the same expectations (the target that line makes), and so is serve's check API.
/// Their codes and severities for
/// that file's section must be equal, the findings about where and how it was served aside:
/// `Differences` lists each, with why.
@Suite(.live, .tags(.live)) struct OneJudgeCorpusTests {
    static let corpus = Repository.shared.appendingPathComponent("corpus")

    /// Each kind's domains.txt tokens (as `Scripts/sanitize.sh` expects of the same files).
    static let tokens: [String: String] = [
        "aasa": "ABCDE12346.com.example.app passkeys",
        "assetlinks": "ios:none android:com.example.app passkeys",
        "webauthn": "ios:none origin:https://login.an-ordinary-shop-name.com",
        "passkey-endpoints": "ios:none passkeys",
        "windows": "ios:none windows:Contoso.ExampleApp_8wekyb3d8bbwe",
        "harmony": "ios:none harmony:5765880207854649689",
    ]

    /// What the two judges say differently on purpose: the findings about the place and the
    /// answer (a local file has neither), and what only one of them can see.
    enum Differences {
        /// The last part of a kind's code about its answer, not its content: status, redirects,
        /// content type, a copy elsewhere, absence.
        static let answerParts: Set<String> = [
            "status", "redirect", "redirect-insecure", "content-type", "differ", "absent",
        ]
        /// The AASA's codes lint never gives, or gives of a file's name: where it is served.
        static let aasaPlaces: Set<FindingCode> = [
            .aasa(.locationRootAbsent), .aasa(.locationRootOnly), .aasa(.locationNone), .aasa(.locationMisnamed),
            .aasa(.locationCatchAll),
        ]
        /// What the audit fetches and lint, offline, does not: an assetlinks.json include (lint
        /// says so: `assetlinks.include` at info), the pages passkey-endpoints names.
        static let followedOnlyByTheAudit: Set<FindingCode> = [
            .assetLinks(.include), .assetLinks(.includeFailed), .passkeyEndpoints(.unreachable),
        ]

        static func aside(_ finding: Finding, kind: String) -> Bool {
            if aasaPlaces.contains(finding.code) || followedOnlyByTheAudit.contains(finding.code) { return true }
            if kind == AssociationKinds.aasaName {
                // The AASA's answer (transfer, serving) and the device views are the audit's.
                return ![.content, .expectations].contains(finding.code.definition.category)
                    && finding.code != .aasa(.bodyEmpty) && finding.code != .aasa(.bodyTooLarge)
            }
            return answerParts.contains(String(finding.code.rawValue.split(separator: ".").last ?? ""))
        }
    }

    struct File: Sendable {
        var url: URL
        var kind: String
        var host: String
        var path: String
        var bytes: [UInt8]
    }

    static func files() -> [File] {
        var files: [File] = []
        let enumerator = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil)
        var urls: [URL] = []
        while let url = enumerator?.nextObject() as? URL { urls.append(url) }
        for url in urls.sorted(by: { $0.path < $1.path }) {
            // KIND/NAME, or KIND/NNNN/SERVED-NAME (wild3).
            guard let folder = url.pathComponents.dropLast().suffix(2).reversed().first(where: { tokens[$0] != nil }),
                (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                !["md", "tsv"].contains(url.pathExtension), let data = try? Data(contentsOf: url)
            else { continue }
            let path =
                folder == AssociationKinds.aasaName
                ? AASALocation.wellKnown.path : AssociationKinds.all.first { $0.id == folder }?.path ?? ""
            files.append(
                File(
                    url: url, kind: folder, host: "corpus-file-\(files.count).aasa.test", path: path,
                    bytes: Array(data.prefix(LocalLint.readLimit))))
        }
        return files
    }

    /// serve's check parameters for a domains.txt line's tokens (`ios:none` → `ios=none`, a bare
    /// word → `word=on`, an app ID → `app-id=ID`).
    static func query(_ tokens: String) -> String {
        var safe = CharacterSet.alphanumerics
        safe.insert(charactersIn: "-._~")
        let pairs: [(String, String)] = tokens.split(separator: " ").map { token in
            let text = String(token)
            if text.hasPrefix("origin:") || (text.contains(":") && !text.contains(".")) || text.hasPrefix("windows:")
                || text.hasPrefix("android:") || text.hasPrefix("harmony:")
            {
                let colon = text.firstIndex(of: ":")!
                return (String(text[..<colon]), String(text[text.index(after: colon)...]))
            }
            return text.contains(".") ? ("app-id", text) : (text, "on")
        }
        return pairs.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: safe)!)" }.joined(separator: "&")
    }

    static func judged(_ findings: [Finding], kind: String) -> [String] {
        findings.filter { !Differences.aside($0, kind: kind) }.map { "\($0.code.rawValue) \($0.severity)" }.sorted()
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: corpus.path),
            "../shared/corpus is absent (a user's clone has none): skipping"))
    func lintAndTheNightlyAuditJudgeEveryRealFileAlike() async throws {
        let files = Self.files()
        #expect(Set(files.map(\.kind)) == Set(Self.tokens.keys), "every kind has real files")
        #expect(files.count > 900, "\(files.count) files")
        let byHost = Dictionary(uniqueKeysWithValues: files.map { ($0.host, $0) })
        let world = try TestWorld()
        let server = try LoopbackServer(identity: try world.pki.issueServerIdentity(for: ["*.aasa.test"])) {
            host, path, _ in
            guard let file = byHost[host], file.path == path else { return .status(404) }
            return .respond(status: 200, headers: [("Content-Type", "application/json")], body: file.bytes)
        }
        defer { server.shutdown() }
        let lines = files.map { "\($0.host) \(Self.tokens[$0.kind]!)" }.joined(separator: "\n")
        let parsed = DomainListParser.parse(Array(lines.utf8), fileName: "domains.txt")
        #expect(parsed.problems.isEmpty, "\(parsed.problems.prefix(3).map(\.message))")
        let fetcher = try Fetcher(
            configuration: FetcherConfiguration(
                timeoutSeconds: 120, userAgent: "aasa-audit-tests", connectTo: [server.connectTo],
                caCertFile: world.caFile, addressPolicy: .testServers, expectedConcurrency: 32))
        defer { fetcher.shutdown() }
        let auditor = DomainAuditor(fetcher: fetcher)
        var reports: [String: DomainReport] = [:]
        await withTaskGroup(of: DomainReport.self) { group in
            var next = 0
            func add() {
                guard next < parsed.targets.count else { return }
                let target = parsed.targets[next]
                next += 1
                group.addTask { await auditor.audit(target).report }
            }
            for _ in 0..<32 { add() }
            for await report in group {
                reports[report.domain] = report
                add()
            }
        }
        // serve's check API, on the same server, for every file.
        let output = world.directory.url.appendingPathComponent("serve-out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var settings = ServeSettings(
            output: output.path, fetcher: fetcher.configuration, tool: ToolInfo(version: "test"))
        (settings.checksPerMinute, settings.checkBurst, settings.maximumChecks) = (1e9, 1e9, 64)
        let serve = try ServeApp(settings: settings)
        defer { serve.shutdown() }
        var served: [String: DomainReport] = [:]
        await withTaskGroup(of: (String, DomainReport?).self) { group in
            var next = 0
            func add() {
                guard next < files.count else { return }
                let file = files[next]
                next += 1
                group.addTask {
                    let target = "/api/v1/check?domain=\(file.host)&\(Self.query(Self.tokens[file.kind]!))"
                    let response = await serve.respond(
                        ServeRequest(target: target, client: "127.0.0.1", host: "127.0.0.1"))
                    guard case .bytes(let body) = response.body, response.status == 200 else { return (file.host, nil) }
                    return (file.host, try? JSONReport.makeDecoder().decode(DomainReport.self, from: Data(body)))
                }
            }
            for _ in 0..<16 { add() }
            for await (host, report) in group {
                served[host] = report
                add()
            }
        }
        var disagreements: [String] = []
        for (file, target) in zip(files, parsed.targets) {
            var expecting = target
            expecting.domain = ""
            let lint = LocalLint.run([file.url.path], options: .init(), expecting: expecting, kind: file.kind)[0]
            let night = reports[file.host]?.findings.filter { AssociationKinds.file(of: $0.location) == file.kind }
            let (linted, audited) = (
                Self.judged(lint.findings, kind: file.kind), Self.judged(night ?? [], kind: file.kind)
            )
            let asked = Self.judged(
                served[file.host]?.findings.filter { AssociationKinds.file(of: $0.location) == file.kind } ?? [],
                kind: file.kind)
            if linted != audited || asked != audited || served[file.host] == nil {
                let relative = file.url.path.replacingOccurrences(of: Self.corpus.path + "/", with: "")
                disagreements.append("\(relative): lint \(linted), audit \(audited), serve \(asked)")
            }
        }
        #expect(
            disagreements.isEmpty,
            "\(disagreements.count) of \(files.count):\n\(disagreements.prefix(40).joined(separator: "\n"))")
    }
}
