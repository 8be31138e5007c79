/// Why an audit run could not start or write its reports.
public enum AuditRunError: UserFacingError {
    /// libcurl could not be set up.
    case fetcherSetup(String)
    /// The output folder or a run folder in it cannot be made or written.
    case outputFolder(String)
    /// Another audit holds the output folder's lock.
    case outputBusy(String)
    /// A report could not be opened before the run (a usage error: the path is wrong).
    case reports(String)
    /// A report could not be written once the run had begun (a full disk): this machine's
    /// trouble, not the sites', nor the command line's.
    case writing(String)
    /// `--resume` found no interrupted run to finish, or one of another domain list.
    case resume(String)

    public var message: String {
        switch self {
        case .fetcherSetup(let text), .outputFolder(let text), .outputBusy(let text), .reports(let text),
            .writing(let text), .resume(let text):
            text
        }
    }

    public var exitStatus: ExitStatus {
        if case .writing = self { return .auditorProblems }
        return .usage
    }
}
