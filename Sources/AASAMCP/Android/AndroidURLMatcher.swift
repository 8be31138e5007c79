import AASAAudit
import AASAModel
import AASAReport

/// Android's App Links: assetlinks.json's dynamic rules for one package (`match --android`).
struct AndroidURLMatcher: KindURLMatcher {
    var kind: AssociationKind { .androidAppLinks }
    var valueDescription: String {
        "An Android package (com.example.app): decide with assetlinks.json's dynamic rules."
    }

    func match(_ urls: [String], app: String, against source: URLMatching.Source) async throws -> [MatchRecord] {
        let parsed = try AndroidApp.parse(app).mapError { ToolArguments.Problem(message: "\(kind.word): \($0.reason)") }
            .get()
        return try await AssetLinksMatching.run(urls, app: parsed, against: source)
    }
}
