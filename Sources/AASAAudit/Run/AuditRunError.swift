/// Why an audit run could not start or write its reports.
public enum AuditRunError: UserFacingError {
    /// libcurl could not be set up.
    case fetcherSetup(String)
    /// The output folder or a run folder in it cannot be made or written.
    case outputFolder(String)
    /// Another audit holds the output folder's lock.
    case outputBusy(String)
    /// A report could not be written.
    case reports(String)
    /// `--resume` found no interrupted run to finish, or one of another domain list.
    case resume(String)

    public var message: String {
        switch self {
        case .fetcherSetup(let text), .outputFolder(let text), .outputBusy(let text), .reports(let text),
            .resume(let text):
            text
        }
    }

    public var exitStatus: ExitStatus { .usage }
}
