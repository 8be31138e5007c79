/// What an app's `AndroidManifest.xml` says about a host it verifies (`--android-manifest`):
/// the paths its `android:autoVerify="true"` intent filters accept there. Dynamic rules in
/// `assetlinks.json` can narrow that scope, never widen it.
public enum AndroidManifest {
    /// A `<data>` path attribute.
    public enum PathRule: Sendable, Equatable, Hashable, CustomStringConvertible {
        case exact(String)
        case prefix(String)
        /// `android:pathPattern` (`.` and `.*` only).
        case pattern(String)
        case suffix(String)
        /// `android:pathAdvancedPattern`: a regular-expression subset, not analysed here.
        case advancedPattern(String)

        public var description: String {
            switch self {
            case .exact(let path): "path \(path)"
            case .prefix(let path): "pathPrefix \(path)"
            case .pattern(let path): "pathPattern \(path)"
            case .suffix(let path): "pathSuffix \(path)"
            case .advancedPattern(let path): "pathAdvancedPattern \(path)"
            }
        }
    }

    public struct HostScope: Sendable, Equatable {
        public var host: String
        /// The paths accepted; nil when a filter accepts every path of the host.
        public var paths: [PathRule]?
        /// The manifest and the line of the host's first `<data>` element.
        public var file: String
        public var line: Int

        public init(host: String, paths: [PathRule]?, file: String = "AndroidManifest.xml", line: Int = 0) {
            self.host = host
            self.paths = paths
            self.file = file
            self.line = line
        }
    }
}
