import AASAChecks
import AASAModel
import ArgumentParser

/// The options that change how a file is judged.
struct ValidationOptionGroup: ParsableArguments {
    @Option(
        name: .customLong("min-ios"),
        help: ArgumentHelp(
            "The oldest iOS the app supports, e.g. 12 or 13.5: judges mixed formats and newer features against it.",
            valueName: "version"))
    var minimumIOS: String?
    @Option(
        name: .customLong("severity"),
        help: ArgumentHelp(
            "Give a finding code (or every code a prefix starts) another severity for this run, e.g. cdn.stale=warning; verdicts, exit status and reports follow (repeatable).",
            valueName: "code=level"))
    var severities: [String] = []

    func validate() throws {
        do {
            _ = try SeverityPolicy(entries: severities)
        } catch {
            throw ValidationError(error.description)
        }
        if let minimumIOS {
            guard let version = IOSVersion(minimumIOS) else {
                throw ValidationError("--min-ios '\(minimumIOS)' is not a version such as 12 or 13.5.")
            }
            // Universal links came with iOS 9 (signed files with 8); iOS went from 18 to 26.
            guard version >= IOSVersion("8")!, version <= IOSVersion("30")! else {
                throw ValidationError(
                    "--min-ios \(minimumIOS) is not an iOS version universal links know: give one from 8 to 26, e.g. 15."
                )
            }
        }
    }

    var options: ValidationOptions {
        var options = ValidationOptions(minimumIOS: minimumIOS.flatMap(IOSVersion.init))
        // Read in validate().
        options.severityPolicy = (try? SeverityPolicy(entries: severities)) ?? SeverityPolicy()
        return options
    }
}
