import AASAModel

/// The seam's list in the checks: `lint` hands each other association file to its own kind
/// (`Android/AssetLinksLint.swift`), known by its name or the option that asks for it (`--android`)
/// when they say, and by its content only when nothing does.
public enum AssociationFileLint {
    /// The names that say which file it is.
    static let aasaNames: Set<String> = ["apple-app-site-association", "apple-app-site-association.json"]
    static let assetLinksName = AssociationKind.androidAppLinks.fileName

    /// The lint of `bytes` as another association file than the AASA, when they are one.
    /// - Parameter path: the file's path, whose name (`assetlinks.json`,
    ///   `apple-app-site-association`) says its kind before its content does.
    public static func lint(_ bytes: [UInt8], size: Int, wants: AssociationWants, path: String? = nil)
        -> FileLint.Result?
    {
        let name = path.map { String($0.split(separator: "/").last ?? "") }
        if let name, aasaNames.contains(name) { return nil }
        if name == assetLinksName || wants.android != nil || FileLint.isAssetLinks(bytes) {
            return FileLint.lintAssetLinks(bytes, size: size, expected: wants.android ?? [])
        }
        return nil
    }
}
