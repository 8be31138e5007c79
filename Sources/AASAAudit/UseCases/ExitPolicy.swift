import AASAModel

/// Which exit status a finished command ends with (README, "Exit status").
public enum ExitPolicy {
    /// `audit`: 130/143 when a signal interrupted it; 3 when this machine could not audit
    /// properly or could not check a part of it (Apple's CDN); 1 when a domain fails at the threshold, an input line could not be audited, or
    /// the run is incomplete; 3 when none of those and this machine could not check a domain
    /// (`audit.unchecked`); 4 when none of those and `--notify` failed; else 0.
    public static func audit(
        _ result: AuditRunResult, problems: [InputProblem], failOn: Severity, interruptedBy signal: Int32?
    ) -> ExitStatus {
        if let signal { return .interrupted(by: signal) }
        if result.summary.auditorProblems != nil || result.summary.partlyChecked != nil { return .auditorProblems }
        // An acknowledged failure fails nothing (`FlaggedDomain.openVerdict`).
        let failing = result.flaggedDomains.contains { $0.openVerdict.fails(at: failOn) && !$0.notChecked }
        if failing || problems.contains(where: { $0.severity == .error }) || !result.complete { return .failed }
        if result.flaggedDomains.contains(where: \.notChecked) { return .auditorProblems }
        if result.notification?.state == .failed || result.alertmanager?.state == .failed { return .notificationFailed }
        return .success
    }

    /// `check`, `lint`: 1 when any verdict fails at the threshold.
    public static func verdicts(_ verdicts: [Verdict], failOn: Severity) -> ExitStatus {
        verdicts.contains { $0.fails(at: failOn) } ? .failed : .success
    }
}
