import AASAModel
import DomainList

extension AppProjectFile {
    /// `--android-manifest FILE`: the hosts its verified intent filters name, each audited for
    /// `apps` (`--android-package`; the manifest's own package when none is given).
    public static func androidManifest(_ path: String, apps: [AndroidApp]) -> AppProjectFile {
        AppProjectFile(path: path, role: "the Android manifest") { bytes, fileName in
            AndroidManifestParser.parse(bytes, fileName: fileName, apps: apps)
        }
    }
}
