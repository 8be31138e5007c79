import AASAChecks
import ArgumentParser

/// The options that change how a file is judged.
struct ValidationOptionGroup: ParsableArguments {
    @Option(name: .customLong("min-ios"), help: ArgumentHelp("The oldest iOS the app supports, e.g. 12 or 13.5: judges mixed formats and newer features against it.", valueName: "version"))
    var minimumIOS: String?

    func validate() throws {
        if let minimumIOS, IOSVersion(minimumIOS) == nil {
            throw ValidationError("--min-ios '\(minimumIOS)' is not a version such as 12 or 13.5.")
        }
    }

    var options: ValidationOptions {
        ValidationOptions(minimumIOS: minimumIOS.flatMap(IOSVersion.init))
    }
}
