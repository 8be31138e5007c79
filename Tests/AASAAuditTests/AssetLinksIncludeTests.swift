import AASAAudit
import AASAFetch
import AASAModel
import AuditTestSupport
import Foundation
import TestSupport
import Testing

/// `include` directives followed against a real HTTPS server on loopback: a chain of two, a
/// cycle, an include that redirects, one that answers 404, one that points at an address the
/// policy refuses; each included fetch in the record, each failure a finding that names the URL
/// and the packages then missing.
@Suite(.live, .tags(.live)) struct AssetLinksIncludeTests {
    static let app = AndroidApp(package: "com.example.app")
    static let lite = AndroidApp(package: "com.example.lite")
    static func statement(_ package: String) -> String {
        AndroidAppLinksTests.statement(package, [AndroidAppLinksTests.fingerprints[0]])
    }
    static func include(_ url: String) -> String { #"{"include": "\#(url)"}"# }

    /// host and path → the list served there.
    static let lists: [String: String] = [
        "chain.aasa.test/.well-known/assetlinks.json": "[\(include("https://chain.aasa.test/one.json"))]",
        "chain.aasa.test/one.json": "[\(include("https://other.aasa.test/two.json")), \(statement("com.example.app"))]",
        "other.aasa.test/two.json": "[\(statement("com.example.lite"))]",
        "cycle.aasa.test/.well-known/assetlinks.json": "[\(include("https://cycle.aasa.test/a.json"))]",
        "cycle.aasa.test/a.json": "[\(include("https://cycle.aasa.test/b.json")), \(statement("com.example.app"))]",
        "cycle.aasa.test/b.json": "[\(include("https://cycle.aasa.test/a.json"))]",
        "redirect.aasa.test/.well-known/assetlinks.json": "[\(include("https://redirect.aasa.test/moved.json"))]",
        "missing.aasa.test/.well-known/assetlinks.json":
            "[\(include("https://missing.aasa.test/gone.json")), \(statement("com.example.lite"))]",
        "refused.aasa.test/.well-known/assetlinks.json": "[\(include("https://blocked.aasa.test/list.json"))]",
        "blocked.aasa.test/list.json": "[\(statement("com.example.app"))]",
    ]

    @Test func includesAreFollowedWithTheFileRules() async throws {
        let world = try TestWorld()
        let pki = try TestPKI()
        let caFile = try pki.writeCACertificate(in: world.directory.url)
        let server = try LoopbackServer(identity: try pki.issueServerIdentity(for: ["*.aasa.test"])) { host, path in
            if path == "/.well-known/apple-app-site-association" { return .json(TestWorld.validFile) }
            if host == "redirect.aasa.test", path == "/moved.json" {
                return .redirect(to: "https://www.redirect.aasa.test/moved.json")
            }
            guard let list = Self.lists["\(host)\(path)"] else { return .status(404) }
            return .respond(status: 200, headers: [("Content-Type", "application/json")], body: Array(list.utf8))
        }
        defer { server.shutdown() }
        // blocked.aasa.test resolves to 127.0.0.2, outside what the policy allows (127.0.0.1).
        let port = server.connectTo.split(separator: ":").last.map(String.init) ?? ""
        let configuration = FetcherConfiguration(
            timeoutSeconds: 60, userAgent: "aasa-audit-tests",
            connectTo: ["blocked.aasa.test:443:127.0.0.2:\(port)", server.connectTo], caCertFile: caFile,
            addressPolicy: AddressPolicy(allowing: [IPNetwork("127.0.0.1/32")!, IPNetwork("::1/128")!]),
            expectedConcurrency: 4)
        let fetcher = try Fetcher(configuration: configuration)
        defer { fetcher.shutdown() }
        let auditor = DomainAuditor(fetcher: fetcher)
        func audit(_ host: String, _ apps: [AndroidApp]) async -> DomainReport {
            await auditor.audit(DomainTarget(domain: host, wants: AssociationWants(android: apps))).report
        }
        func assetLinks(_ report: DomainReport) -> [Finding] { report.findings.filter { $0.location == .assetlinks } }

        // A chain of two: both lists' statements count; each fetch is in the record.
        let chain = await audit("chain.aasa.test", [Self.app, Self.lite])
        #expect(assetLinks(chain).isEmpty, "\(assetLinks(chain).map(\.message))")
        #expect(chain.android?.apps.map(\.package) == ["com.example.app", "com.example.lite"])
        #expect(
            chain.fetches.filter { $0.location == .assetlinks }.map(\.url) == [
                "https://chain.aasa.test/.well-known/assetlinks.json", "https://chain.aasa.test/one.json",
                "https://other.aasa.test/two.json",
            ])
        #expect(chain.fetches.filter { $0.location == .assetlinks }.allSatisfy { $0.status == 200 })

        // A cycle: reported (Google stops too), each list fetched once, the app still declared.
        let cycle = await audit("cycle.aasa.test", [Self.app])
        let cycleFindings = assetLinks(cycle)
        #expect(cycleFindings.map(\.code) == [.assetLinks(.includeFailed)], "\(cycleFindings.map(\.message))")
        #expect(cycleFindings.first?.message.contains("cycle") == true)
        #expect(cycle.android?.apps.map(\.package) == ["com.example.app"])
        #expect(server.requests.filter { $0.host == "cycle.aasa.test" && $0.path == "/a.json" }.count == 1)

        // A redirect, a 404, a refused address: the include fails, naming the URL and the package lost.
        let failing: [(String, String, String)] = [
            ("redirect.aasa.test", "https://redirect.aasa.test/moved.json", "redirect"),
            ("missing.aasa.test", "https://missing.aasa.test/gone.json", "HTTP 404"),
            ("refused.aasa.test", "https://blocked.aasa.test/list.json", "Only public addresses are fetched"),
        ]
        for (host, url, why) in failing {
            let report = await audit(host, [Self.app])
            let failed = assetLinks(report).filter { $0.code == .assetLinks(.includeFailed) }
            #expect(failed.count == 1, "\(host): \(assetLinks(report).map(\.message))")
            let message = failed.first?.message ?? ""
            #expect(message.contains(url) && message.contains(why), "\(host): \(message)")
            #expect(message.contains("com.example.app is then not declared"), "\(host): \(message)")
            #expect(report.verdict == .fail)
            #expect(report.fetches.contains { $0.url == url }, "\(host): the include's fetch is in the record")
        }
        #expect(server.requests.allSatisfy { $0.host != "blocked.aasa.test" }, "the refused address is not contacted")
        // The 404's sibling statement still counts.
        let missing = await audit("missing.aasa.test", [Self.lite])
        #expect(assetLinks(missing).map(\.code) == [.assetLinks(.includeFailed)])
        #expect(missing.android?.apps.map(\.package) == ["com.example.lite"])
    }

    /// The manifest names the hosts; the live file's dynamic rules (in an included list) are
    /// judged against the manifest's paths and decide URLs for `match --android`.
    @Test func manifestAndDynamicRulesEndToEnd() async throws {
        let world = try TestWorld()
        let pki = try TestPKI()
        let caFile = try pki.writeCACertificate(in: world.directory.url)
        let rules =
            #"{"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [{"/": "/shop/admin/*", "exclude": true}, {"/": "/shop/*"}, {"/": "/admin/*"}]}}"#
        let statement = Self.statement("com.example.app").replacingOccurrences(
            of: "\"target\"", with: "\"relation_extensions\": \(rules), \"target\"")
        let server = try LoopbackServer(identity: try pki.issueServerIdentity(for: ["*.aasa.test"])) { host, path in
            switch path {
            case "/.well-known/apple-app-site-association": return .json(TestWorld.validFile)
            case "/.well-known/assetlinks.json":
                let list = "[\(Self.include("https://\(host)/rules.json"))]"
                return .respond(status: 200, headers: [("Content-Type", "application/json")], body: Array(list.utf8))
            case "/rules.json":
                return .respond(
                    status: 200, headers: [("Content-Type", "application/json")], body: Array("[\(statement)]".utf8))
            default: return .status(404)
            }
        }
        defer { server.shutdown() }
        let manifest = world.directory.url.appendingPathComponent("AndroidManifest.xml")
        try """
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app">
          <application><activity android:name=".Main">
            <intent-filter android:autoVerify="true">
              <data android:scheme="https" android:host="shop.aasa.test" android:pathPrefix="/shop" />
            </intent-filter>
          </activity></application>
        </manifest>
        """.write(to: manifest, atomically: true, encoding: .utf8)
        let input = try AuditInput.load(
            domainsFile: nil, entitlements: [], appIDs: [],
            projectFiles: [.androidManifest(manifest.path, apps: [])])
        #expect(input.targets.map(\.domain) == ["shop.aasa.test"])
        let configuration = FetcherConfigurationBuilder.make(
            timeout: 60, connectTo: [server.connectTo], caFile: caFile, concurrency: 2)
        let fetcher = try Fetcher(configuration: configuration)
        defer { fetcher.shutdown() }
        let report = await DomainAuditor(fetcher: fetcher).audit(input.targets[0]).report
        let findings = report.findings.filter { $0.location == .assetlinks }
        // Rule 2 (/admin/*) can never apply: the manifest accepts /shop only.
        #expect(findings.map(\.code) == [.assetLinks(.manifestScope)], "\(findings.map(\.message))")
        #expect(findings.first?.message.contains("rule 2") == true)
        #expect(report.android?.apps.first?.dynamicRules == 3)

        let records = try await AssetLinksMatching.run(
            [
                "https://shop.aasa.test/shop/admin/x", "https://shop.aasa.test/shop/shoes",
                "https://shop.aasa.test/blog",
            ],
            app: AndroidApp(package: "com.example.app"), against: .domain("shop.aasa.test", configuration))
        #expect(
            records.map(\.result) == [.excluded, .app, .undecided], "no rule matches: the manifest decides, unseen")
        #expect(records.map { $0.rule?.index } == [0, 1, nil])
        #expect(records.allSatisfy { $0.reason.contains("manifest") })
    }
}
