import AASAModel

/// The seam's list in the checks: `lint` recognises the other association files by their
/// content and hands each to its own kind (`Android/AssetLinksLint.swift`).
public enum AssociationFileLint {
    /// The lint of `bytes` as another association file than the AASA, when they are one.
    public static func lint(_ bytes: [UInt8], size: Int, wants: AssociationWants) -> FileLint.Result? {
        if FileLint.isAssetLinks(bytes) {
            return FileLint.lintAssetLinks(bytes, size: size, expected: wants.android ?? [])
        }
        return nil
    }
}
