import AASAMatching
import AASAModel

/// Dynamic rules against the app's manifest (`--android-manifest`): a rule can only narrow the
/// paths the manifest's verified intent filters accept for the host, never widen them. A rule
/// that sends URLs to the app but whose path pattern can reach none of those paths never applies.
/// `pathPattern`, `pathSuffix` and `pathAdvancedPattern` are not analysed (assumed reachable).
public enum AndroidManifestScope {
    public static func findings(
        rules: DynamicAppLinkRules, package: String, scope: AndroidManifest.HostScope
    ) -> [Finding] {
        guard let paths = scope.paths else { return [] }
        return rules.components.compactMap { component in
            guard !component.exclude, let pattern = component.path,
                !paths.contains(where: { canReach(pattern, $0) })
            else { return nil }
            return Finding(
                .assetLinks(.manifestScope), .assetlinks,
                "\(package)'s dynamic rule \(component.index) \(component.summary) can never send a URL to the app: \(scope.file) (line \(scope.line)) accepts only \(paths.map(\.description).joined(separator: ", ")) on \(scope.host), and dynamic rules cannot widen the manifest's scope. The app's manifest bounds what any rule can do."
            )
        }
    }

    /// Whether a dynamic rule's path pattern can match some path the manifest rule accepts.
    static func canReach(_ pattern: String, _ rule: AndroidManifest.PathRule) -> Bool {
        let literal = String(pattern.prefix { $0 != "*" && $0 != "?" })
        let hasWildcard = literal.count < pattern.count
        switch rule {
        case .exact(let path):
            return Pattern(pattern, variables: nil, caseSensitive: true).matches(path)
        case .prefix(let prefix):
            return literal.hasPrefix(prefix) || (hasWildcard && prefix.hasPrefix(literal))
        case .pattern, .suffix, .advancedPattern:
            return true
        }
    }
}
