import AASAAudit
import AASAModel
import AASAReport

/// Windows apps for websites: windows-app-web-link for one package family (`match --windows`).
struct WindowsURLMatcher: KindURLMatcher {
    var kind: AssociationKind { .windows }
    var valueDescription: String { "A Windows package family name: decide with windows-app-web-link." }

    func match(_ urls: [String], app: String, against source: URLMatching.Source) async throws -> [MatchRecord] {
        try await WindowsMatching.run(urls, packageFamilyName: app, against: source)
    }
}
