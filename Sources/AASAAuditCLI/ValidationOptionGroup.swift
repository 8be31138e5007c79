import AASAChecks
import AASAModel
import ArgumentParser

/// The options that change how a file is judged.
struct ValidationOptionGroup: ParsableArguments {
    @Option(
        name: .customLong(OptionName.minimumIOS.rawValue),
        help: ArgumentHelp(
            "The oldest iOS the app supports, e.g. 12 or 13.5: judges mixed formats and newer features against it.",
            valueName: "version"), transform: MinimumIOS.parse)
    var minimumIOS: MinimumIOS?
    @Option(
        name: .customLong(OptionName.severity.rawValue),
        help: ArgumentHelp(
            "Give a finding code (or every code a prefix starts) another severity for this run, e.g. cdn.stale=warning; verdicts, exit status and reports follow (repeatable).",
            valueName: "code=level"), transform: SeverityEntry.parse)
    var severities: [SeverityEntry] = []

    var options: ValidationOptions {
        var options = ValidationOptions(minimumIOS: minimumIOS?.version)
        options.severityPolicy = SeverityEntry.policy(severities)
        return options
    }
}
