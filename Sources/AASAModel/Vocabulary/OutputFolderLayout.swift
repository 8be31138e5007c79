/// The output folder (`--out`): the name of everything the audit writes there, which the
/// history, `serve`, the alert, `ack` and the CLI read. Run folders are named by `RunFolderName`.
public enum OutputFolderLayout {
    /// `--out`'s default, for every command that writes or reads an output folder.
    public static let defaultFolder = "reports"
    /// The newest complete run's reports.
    public static let latestJSON = "latest.json"
    public static let latestHTML = "latest.html"
    /// The runs' history, and its page.
    public static let history = "history.json"
    public static let index = "index.html"
    /// The team's acknowledgements (`aasa-audit ack`).
    public static let acknowledgements = "acknowledgements.json"
    /// Held while a run writes the folder.
    public static let lock = ".lock"
    /// The files the folder keeps beside its run folders.
    public static let kept = [lock, latestJSON, latestHTML, history, index]

    /// In a run folder: its reports, the stream its JSON report is written from, the journal
    /// `--resume` reads, and the marker that says the folder is a run's.
    public static let runJSON = "report.json"
    public static let runHTML = "report.html"
    public static let domainStream = "domains.jsonl"
    public static let journal = "journal.sqlite"
    /// The domains in flight, and what a crash left to later runs; the mark a crash writes.
    public static let inFlight = "in-flight.sqlite"
    public static let crashMarker = "crashed"
    public static let runMarker = ".aasa-audit-run"
    /// The reports of a run folder that `serve` serves.
    public static let runReports = [runHTML, runJSON]
}
