import AASAJSON
import AASAModel
import Foundation
import TestSupport
import Testing

@testable import AASAChecks

/// The tool's reading of an app's manifest (`webapp:ID@MANIFEST_URL`) held to Chromium's own
/// (issue 58): a real headless Chromium loads a page linking each manifest below, and DevTools'
/// `Page.getAppManifest` says which origins its `scope_extensions` extend to and what its id is;
/// the tool must read the same, case for case. Every name resolves to the loopback server, whose
/// key Chromium trusts; nothing leaves the machine.
///
/// DevTools exposes the manifest's side only: the association file is fetched and parsed in the
/// browser process when an app is installed (`WebAppOriginAssociationManager`), and no DevTools
/// command or event reports that result, so the file's own verdicts are held to Chromium's
/// parser by `WebAppChecksTests` instead.
@Suite(.live, .tags(.live)) struct ChromiumScopeExtensionsTests {
    static let app = "webapp-chromium.test"
    /// The origins asked about: the shop, and a subdomain a wildcard would cover.
    static let asked = [("shop.example.com", nil as Int?), ("a.example.org", nil), ("shop.example.com", 8443)]

    static let cases: [String] = [
        #"{"id": "/app", "start_url": "/", "scope_extensions": [{"type": "origin", "origin": "https://shop.example.com"}]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": ["https://shop.example.com/any/path"]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": [{"type": "origin", "origin": "https://*.example.org"}]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": ["https://*.example.org"]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": ["https://other.example", {"origin": "https://shop.example.com"}]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": [\#((0..<10).map { "\"https://o\($0).example\"" }.joined(separator: ",")), "https://shop.example.com"]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": ["http://shop.example.com"]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": [{"origin": 5}, {"origin": "https://shop.example.com"}]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": {"origin": "https://shop.example.com"}}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": ["shop.example.com"]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": ["https://shop.example.com:8443"]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": [null, "https://shop.example.com"]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": [5, "https://shop.example.com"]}"#,
        #"{"start_url": "/start?x=1#top", "scope_extensions": []}"#,
        #"{"id": "https://evil.example/app", "start_url": "/go", "scope_extensions": []}"#,
        #"{"id": "", "start_url": "/go", "scope_extensions": []}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": [{"origin": "https://shop.example.com"}]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": [{"type": "origin", "origin": "https://shop.example.com/path"}]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": [{"type": "origin", "origin": "https://shop.example.com:8443"}]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": [{"type": "site", "origin": "https://shop.example.com"}]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": [\#((0..<10).map { "{\"type\": \"origin\", \"origin\": \"https://o\($0).example\"}" }.joined(separator: ",")), {"type": "origin", "origin": "https://shop.example.com"}]}"#,
        #"{"id": "/app", "start_url": "/", "scope_extensions": [5, {"type": "origin", "origin": "https://shop.example.com"}]}"#,
    ]

    static func answer(host: String, path: String) -> ScriptedResponse {
        if path.hasPrefix("/page-"), let number = Int(path.dropFirst(6).prefix { $0.isNumber }) {
            return .respond(
                status: 200, headers: [("Content-Type", "text/html")],
                body: Array(
                    "<!doctype html><link rel=manifest href=/manifest-\(number).json><title>\(number)</title>".utf8))
        }
        if path.hasPrefix("/manifest-"), let number = Int(path.dropFirst(10).prefix { $0.isNumber }),
            cases.indices.contains(number)
        {
            return .json(cases[number], contentType: "application/manifest+json")
        }
        return .status(404)
    }

    struct ChromiumManifest: Decodable {
        struct Extension: Decodable {
            var origin: String
            var hasOriginWildcard: Bool
        }
        var id: String?
        var scopeExtensions: [Extension]
    }

    @Test func theToolReadsEachManifestAsChromiumDoes() async throws {
        guard BrowserDriver.isAvailable else {
            print(BrowserDriver.unavailableMessage)
            return
        }
        let ca = try TrustedTestCA()
        defer { ca.directory.remove() }
        let identity = try ca.pki.issueServerIdentity(for: [Self.app])
        let server = try LoopbackServer(identity: identity, script: Self.answer)
        defer { server.shutdown() }
        let pages = Self.cases.indices.map { "https://\(Self.app)/page-\($0).html" }
        let answers = try JSONDecoder().decode(
            [String: ChromiumManifest].self,
            from: try await BrowserDriver.appManifests(
                pages: pages, port: server.port, publicKeySHA256: identity.publicKeySHA256))
        var agreed = 0
        for (index, text) in Self.cases.enumerated() {
            let chromium = try #require(answers[pages[index]], "no answer for case \(index)")
            let manifest = try #require(try JSONParser.parse(Array(text.utf8)).objectValue)
            let ours = WebAppManifestChecks.scopeExtensions(of: manifest)
            let theirs = chromium.scopeExtensions.compactMap { entry -> WebAppManifestChecks.Extension? in
                guard let components = URLComponents(string: entry.origin), let host = components.host?.lowercased()
                else { return nil }
                return WebAppManifestChecks.Extension(
                    host: host, port: components.port, wildcard: entry.hasOriginWildcard)
            }
            for (host, port) in Self.asked {
                let mine = ours.contains { $0.covers(host: host, port: port) }
                let chromiums = theirs.contains { $0.covers(host: host, port: port) }
                #expect(
                    mine == chromiums,
                    "case \(index) \(text): https://\(host)\(port.map { ":\($0)" } ?? "") tool \(mine), Chromium \(chromiums) (\(chromium.scopeExtensions.map(\.origin)))"
                )
                if mine == chromiums { agreed += 1 }
            }
            let id = WebAppManifestChecks.manifestID(
                of: manifest, manifestURL: "https://\(Self.app)/manifest-\(index).json")
            #expect(
                id == chromium.id.flatMap(WebAppManifestID.canonical),
                "case \(index) \(text): id \(id ?? "none"), Chromium \(chromium.id ?? "none")")
        }
        #expect(agreed == Self.cases.count * Self.asked.count)
    }
}
