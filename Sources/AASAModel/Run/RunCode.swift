/// The run's own codes: a domain the run did not check (interrupted, unchecked, crashed). Each
/// its case and its entry, in one exhaustive switch.
public enum RunCode: String, FindingCodeFamily {
    case auditInterrupted = "audit.interrupted"
    case auditUnchecked = "audit.unchecked"
    case auditCrashed = "audit.crashed"

    // One entry per code: a table, which reads better whole.
    public var definition: FindingDefinition {
        switch self {
        case .auditInterrupted:
            FindingDefinition(
                .run, .error,
                meaning:
                    "The run was interrupted (SIGINT or SIGTERM) before this domain was audited; the report says nothing else about it.",
                fix: "Run the audit again; nothing is wrong with the domain as far as this report knows.")
        case .auditUnchecked:
            FindingDefinition(
                .run, .error,
                meaning:
                    "This machine could not make the request (out of memory, a CA bundle or network interface it cannot use): the domain was not checked. History counts it as not checked, not as a failure.",
                fix: "Mend what the message names on the machine running the audit, then run it again.")
        case .auditCrashed:
            FindingDefinition(
                .run, .error,
                meaning:
                    "The audit process crashed while this domain was being audited (a fault of this tool, not of the site), so it was not fetched again in the run that resumed, nor by later runs of the same version: one domain costs the night no more than itself. A domain in flight with others at a crash is audited alone first the next night, to find which one crashes it. History counts it as not checked, not as a failure.",
                fix:
                    "Report the crash (the audit's standard error names the run) with the domain's files. A new version of aasa-audit audits it again; so does the run after a week."
            )
        }
    }
}

extension FindingCode {
    /// A code of the run's own.
    public static func run(_ code: RunCode) -> FindingCode { FindingCode(code) }
}
