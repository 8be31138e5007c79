import AASAAudit
import AASAFetch
import AASAModel
import AuditTestSupport
import DomainList
import Foundation
import TestSupport
import Testing

/// Android's assetlinks.json audited beside the AASA, against a real HTTPS server on loopback:
/// every assetlinks code from a host that shows it, a file with two packages and several
/// fingerprints, and no request at all for a domain without Android apps.
@Suite(.live, .tags(.live)) struct AndroidAppLinksTests {
    static let fingerprints = (1...3).map { seed in
        (0..<32).map { String(format: "%02X", ($0 * seed + seed) % 256) }.joined(separator: ":")
    }
    static func statement(
        _ package: String, _ prints: [String], relation: String = "delegate_permission/common.handle_all_urls"
    ) -> String {
        #"{"relation": ["\#(relation)"], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": [\#(prints.map { "\"\($0)\"" }.joined(separator: ", "))]}}"#
    }
    static let good =
        "[" + statement("com.example.app", [fingerprints[0], fingerprints[1]]) + ", "
        + statement("com.example.lite", [fingerprints[2]]) + "]"

    /// host → (status, content type, body) of its assetlinks.json.
    static let files: [String: (Int, String, String)] = [
        "good.aasa.test": (200, "application/json", good),
        "status.aasa.test": (404, "text/html", "<h1>Not Found</h1>"),
        "type.aasa.test": (200, "text/plain", good),
        "invalid.aasa.test": (200, "application/json", "[" + statement("com.example.app", [fingerprints[0]]) + ",]"),
        "object.aasa.test": (200, "application/json", statement("com.example.app", [fingerprints[0]])),
        "relation.aasa.test": (
            200, "application/json",
            "[" + statement("com.example.app", [fingerprints[0]], relation: "handle_all_urls") + "]"
        ),
        "namespace.aasa.test": (
            200, "application/json",
            #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android"}}]"#
        ),
        "lower.aasa.test": (
            200, "application/json", "[" + statement("com.example.app", [fingerprints[0].lowercased()]) + "]"
        ),
        "short.aasa.test": (
            200, "application/json", "[" + statement("com.example.app", [String(fingerprints[0].dropLast(3))]) + "]"
        ),
        "include.aasa.test": (
            200, "application/json", #"[{"include": "https://other.example/.well-known/assetlinks.json"}]"#
        ),
        "credentials.aasa.test": (
            200, "application/json",
            "["
                + statement(
                    "com.example.app", [fingerprints[0]], relation: "delegate_permission/common.get_login_creds") + "]"
        ),
        "upload-key.aasa.test": (200, "application/json", "[" + statement("com.example.app", [fingerprints[2]]) + "]"),
        "huge.aasa.test": (
            200, "application/json",
            "[" + String(repeating: " ", count: 140_000) + statement("com.example.app", [fingerprints[0]]) + "]"
        ),
    ]

    /// An Android-only domain (`ios:none` in domains.txt): no AASA, a perfect assetlinks.json,
    /// and it passes; without the token the missing AASA fails it. An unreachable host still
    /// fails (issue 35, item 6). It is not asked for an AASA at all, nor is Apple's CDN (issue
    /// 47, item 2: four requests were made and thrown away).
    @Test func anAndroidOnlyDomainPassesWithoutAnAASA() async throws {
        let pki = try TestPKI()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let caFile = try pki.writeCACertificate(in: directory.url)
        let server = try LoopbackServer(identity: try pki.issueServerIdentity(for: ["*.aasa.test"])) { _, path in
            path == "/.well-known/assetlinks.json" ? .json(Self.good) : .status(404)
        }
        defer { server.shutdown() }
        let parsed = DomainListParser.parse(
            Array("good.aasa.test ios:none android:com.example.app\nplain.aasa.test android:com.example.app\n".utf8),
            fileName: "domains.txt")
        #expect(parsed.problems.isEmpty && parsed.targets.map { $0.aasa == nil } == [true, false])
        let fetcher = try Fetcher(
            configuration: FetcherConfigurationBuilder.make(
                timeout: 60, connectTo: [server.connectTo], caFile: caFile, concurrency: 4))
        defer { fetcher.shutdown() }
        let auditor = DomainAuditor(fetcher: fetcher, deviceView: DeviceViewSettings(cdnBase: TestWorld.cdnBase))
        let androidOnly = await auditor.audit(parsed.targets[0]).report
        #expect(androidOnly.verdict == .pass && androidOnly.findings.isEmpty, "\(androidOnly.findings)")
        #expect(androidOnly.ios == "none" && androidOnly.fetches.map(\.location) == [.assetlinks])
        #expect(server.requests.map(\.path) == ["/.well-known/assetlinks.json"])
        #expect(androidOnly.linkPlatforms == [.android])
        // A line that names no other file: its assetlinks.json is audited for any app.
        var bare = parsed.targets[0]
        bare.wants = AssociationWants()
        let anyApp = await auditor.audit(bare).report
        #expect(anyApp.verdict == .pass && anyApp.associations.expectedAndroidApps == [])
        var both = parsed.targets[0]
        both.domain = "plain.aasa.test"
        both.aasa = AASAWant()
        let expectingAASA = await auditor.audit(both).report
        #expect(expectingAASA.verdict == .fail && expectingAASA.findings.contains { $0.code == .aasa(.httpStatus) })
        // A host that cannot be reached is still a failure, with its cause.
        var unreachable = parsed.targets[0]
        unreachable.domain = "gone.aasa.invalid"
        let gone = await auditor.audit(unreachable).report
        // (Here its certificate is not for the name: a transfer failure, at the only file asked for.)
        let cause = try #require(gone.findings.first)
        #expect(gone.verdict == .fail && cause.code.definition.category == .transfer && cause.location == .assetlinks)
    }

    @Test func assetLinksAreAuditedBesideTheAASA() async throws {
        let world = try TestWorld()
        let pki = try TestPKI()
        let caFile = try pki.writeCACertificate(in: world.directory.url)
        let server = try LoopbackServer(identity: try pki.issueServerIdentity(for: ["*.aasa.test"])) { host, path in
            switch path {
            case "/.well-known/apple-app-site-association": return .json(TestWorld.validFile)
            case "/.well-known/assetlinks.json":
                if host == "redirect.aasa.test" {
                    return .redirect(to: "https://www.redirect.aasa.test/.well-known/assetlinks.json")
                }
                guard let (status, type, body) = Self.files[host] else { return .status(404) }
                return .respond(status: status, headers: [("Content-Type", type)], body: Array(body.utf8))
            default: return .status(404)
            }
        }
        defer { server.shutdown() }
        let fetcher = try Fetcher(
            configuration: FetcherConfigurationBuilder.make(
                timeout: 60, connectTo: [server.connectTo], caFile: caFile, concurrency: 4))
        defer { fetcher.shutdown() }
        let auditor = DomainAuditor(fetcher: fetcher)
        let expected = [AndroidApp(package: "com.example.app", fingerprint: Self.fingerprints[1])]
        func android(_ host: String, expecting apps: [AndroidApp] = expected) async -> (DomainReport, [String]) {
            let report = await auditor.audit(
                DomainTarget(domain: host, expectedAppIDs: [TestWorld.appID], wants: AssociationWants(android: apps))
            ).report
            return (report, report.findings.filter { $0.location == .assetlinks }.map(\.code.rawValue))
        }

        let (good, goodCodes) = await android(
            "good.aasa.test", expecting: expected + [AndroidApp(package: "com.example.lite")])
        #expect(goodCodes.isEmpty, "\(good.findings.map(\.message))")
        #expect(good.verdict == .pass)
        #expect(
            good.android?.apps.map(\.package) == ["com.example.app", "com.example.lite"],
            "\(good.fetches.map { "\($0.location.rawValue) \($0.status ?? 0) \($0.error?.message ?? "")" })")
        #expect(good.android?.apps.first?.fingerprints == [Self.fingerprints[0], Self.fingerprints[1]])
        #expect(good.expectedAndroidApps == ["com.example.app@\(Self.fingerprints[1])", "com.example.lite"])
        // On the domain's one connection, after the AASA requests (HTTP/1.1 here).
        let requests = server.requests.filter { $0.host == "good.aasa.test" }
        #expect(requests.map(\.path).last == "/.well-known/assetlinks.json")
        #expect(Set(requests.map(\.connection)).count == 1)

        let cases: [(String, String)] = [
            ("status.aasa.test", "assetlinks.status"), ("redirect.aasa.test", "assetlinks.redirect"),
            ("type.aasa.test", "assetlinks.content-type"),
            ("invalid.aasa.test", "assetlinks.json-invalid"), ("object.aasa.test", "assetlinks.not-list"),
            ("relation.aasa.test", "assetlinks.relation"),
            ("namespace.aasa.test", "assetlinks.statement"), ("lower.aasa.test", "assetlinks.fingerprint"),
            ("short.aasa.test", "assetlinks.fingerprint"),
            ("include.aasa.test", "assetlinks.include-failed"), ("credentials.aasa.test", "assetlinks.relation"),
            ("upload-key.aasa.test", "assetlinks.fingerprint-missing"), ("huge.aasa.test", "assetlinks.too-large"),
        ]
        for (host, code) in cases {
            let (report, codes) = await android(host)
            #expect(codes.contains(code), "\(host): \(codes) \(report.findings.map(\.message))")
            // An Android error fails the domain whose AASA is fine.
            #expect(report.verdict == .fail, "\(host)")
        }
        // Declared for credentials sharing only: the wrong relation, not a missing package.
        let (credentials, credentialCodes) = await android("credentials.aasa.test")
        #expect(!credentialCodes.contains("assetlinks.package-missing"))
        #expect(
            credentials.findings.contains {
                $0.message.contains("declared only for delegate_permission/common.get_login_creds")
            })
        let (upload, _) = await android("upload-key.aasa.test")
        #expect(upload.findings.contains { $0.message.contains("app signing key") })

        // A domain without Android apps costs no assetlinks.json request.
        let before = server.requests.filter { $0.path == "/.well-known/assetlinks.json" }.count
        let ios = await auditor.audit(DomainTarget(domain: "ios-only.aasa.test", expectedAppIDs: [TestWorld.appID]))
            .report
        #expect(ios.fetches.allSatisfy { $0.location != .assetlinks })
        #expect(ios.android == nil && ios.expectedAndroidApps == nil)
        #expect(server.requests.filter { $0.path == "/.well-known/assetlinks.json" }.count == before)
    }

    /// Over HTTP/2 assetlinks.json is a third stream of the domain's one connection, and closing
    /// the connection after the root does not cut it off.
    @Test func overHTTP2AssetLinksShareTheConnection() async throws {
        let world = try TestWorld()
        let server = try HTTP2LoopbackServer(
            identity: try world.pki.issueServerIdentity(for: ["*.aasa.test"]), body: TestWorld.validFile,
            hold: .seconds(10))
        defer { server.shutdown() }
        // A timeout far above any answer: on a machine busy with the other tests a first
        // handshake can take seconds, and the domain's later fetches only get what is left.
        var configuration = world.fetcherConfiguration(timeout: 60)
        configuration.connectTo = [server.connectTo]
        let fetcher = try Fetcher(configuration: configuration)
        defer { fetcher.shutdown() }
        let hosts = (1...4).map { "android\($0).aasa.test" }
        for host in hosts {
            let report = await DomainAuditor(fetcher: fetcher).audit(
                DomainTarget(domain: host, wants: AssociationWants(android: [AndroidApp(package: "com.example.app")]))
            ).report
            #expect(report.fetches.map(\.location) == [.wellKnown, .root, .assetlinks])
            #expect(
                report.fetches.allSatisfy { $0.httpVersion == "2" && $0.status == 200 },
                "\(host): \(report.fetches.map { $0.error?.message ?? "\($0.status ?? 0)" })")
        }
        #expect(server.connectionCount == hosts.count, "one connection per domain")
        #expect(server.requests.count == 3 * hosts.count)
    }

    @Test func lintRecognisesAnAssetLinksFileByItsContent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("assetlinks.json").path
        try Self.good.write(toFile: path, atomically: true, encoding: .utf8)
        let passing = LocalLint.run(
            [path], options: .init(),
            expecting: DomainTarget(
                domain: "",
                wants: AssociationWants(android: [
                    AndroidApp(package: "com.example.lite", fingerprint: Self.fingerprints[2])
                ])))[0]
        #expect(passing.verdict == .pass, "\(passing.findings.map(\.message))")
        #expect(passing.associations.android?.apps.count == 2)
        let failing = LocalLint.run(
            [path], options: .init(),
            expecting: DomainTarget(
                domain: "",
                wants: AssociationWants(android: [
                    AndroidApp(package: "com.example.lite", fingerprint: Self.fingerprints[0])
                ])))[0]
        #expect(failing.findings.map(\.code) == [.assetLinks(.fingerprintMissing)])
    }
}
