import AASAAudit
import AASAModel
import AASAReport

/// A kind whose file decides which app opens a URL (besides the AASA): `explain_url` takes its
/// word as the app to decide for, as `match --WORD` does. One file per kind, in its room.
protocol KindURLMatcher: Sendable {
    var kind: AssociationKind { get }
    /// What the app's value is (for the input schema's description).
    var valueDescription: String { get }
    /// Each URL decided for `app` by the kind's file as `source` serves it; a value that does not
    /// read is the caller's mistake.
    func match(_ urls: [String], app: String, against source: URLMatching.Source) async throws -> [MatchRecord]
}
