import AASAAudit
import AASAFetch
import AASAModel
import ArgumentParser

extension AlertTrigger: ExpressibleByArgument {}

/// `audit`'s alert after a complete run.
struct NotifyOptions: ParsableArguments {
    @Option(
        name: .customLong(OptionName.notify.rawValue),
        help: ArgumentHelp(
            "After each complete run, POST a JSON alert (with a `text` chat webhooks show) to this http(s) URL when --notify-on says so; retried, bounded in time, never in the way of the reports.",
            valueName: "url"))
    var notify: String?

    @Option(
        help: ArgumentHelp(
            "Read --notify's URL from this file (its one non-comment line; an empty file sends nothing), so that a webhook's secret is not on the command line. The packaged unit passes systemd's credential of /etc/aasa-audit/notify-url.",
            valueName: "file"))
    var notifyURLFile: String?

    @Option(
        help: ArgumentHelp(
            "After each complete run this machine could check, send each failing domain's causes to this Alertmanager (its v2 API; labels domain, code, severity and the domain's label: tokens), re-sent while they last, resolved on recovery or acknowledgement.",
            valueName: "url"))
    var alertmanager: String?

    @Option(
        help:
            "What sends the alert: failures (a domain started failing, has a new error, or a failure recovered), changes (also new warnings and their recoveries), or always."
    )
    var notifyOn: AlertTrigger = .failures

    @Option(
        help: ArgumentHelp(
            "Send a new failure or warning to --notify, and fire it in --alertmanager, only once it has lasted N runs (1: at once); a recovery only for one that was sent.",
            valueName: "n"))
    var alertAfter = 1

    @Option(
        help: ArgumentHelp(
            "Send --notify a reminder of each failure still standing every DAYS days of it (a number; fractions allowed).",
            valueName: "days"))
    var remindEvery: Double?

    @Option(
        help: ArgumentHelp(
            "Trust the CA certificates in this PEM file for --notify instead of the system's.", valueName: "file"))
    var notifyCacert: String?

    @Option(
        help: ArgumentHelp(
            "Where --out is served over HTTP: the alert links BASE/RUN/report.html instead of naming a path on this machine.",
            valueName: "base-url"))
    var reportURL: String?

    /// --notify's URL, from the command line or --notify-url-file.
    var url: String? {
        get throws {
            guard let notifyURLFile else { return notify }
            return try SecretFile.read(notifyURLFile, option: "--notify-url-file")
        }
    }

    func validate() throws {
        if notify != nil, notifyURLFile != nil {
            throw ValidationError("--notify and --notify-url-file: give the URL one way.")
        }
        let notify: String?
        do { notify = try url } catch let error as FileReadError { throw ValidationError(error.message + ".") }
        if let notify,
            let problem = NotificationSettings.validate(
                notify, option: notifyURLFile.map { "--notify-url-file \($0)" } ?? "--notify",
                secret: notifyURLFile != nil)
        {
            throw ValidationError(problem)
        }
        if let alertmanager, let problem = NotificationSettings.validate(alertmanager, option: "--alertmanager") {
            throw ValidationError(problem)
        }
        guard (1...AlertPolicy.maximumAlertAfter).contains(alertAfter) else {
            throw ValidationError("--alert-after must be between 1 and \(AlertPolicy.maximumAlertAfter) runs.")
        }
        if let remindEvery, !(remindEvery > 0 && remindEvery <= Double(AlertPolicy.maximumRemindDays)) {
            throw ValidationError(
                "--remind-every must be more than 0 and at most \(AlertPolicy.maximumRemindDays) days.")
        }
        let configured = notify != nil || notifyURLFile != nil || alertmanager != nil
        if let reportURL {
            guard configured else { throw ValidationError("--report-url needs --notify.") }
            if let problem = NotificationSettings.validate(reportURL, option: "--report-url") {
                throw ValidationError(problem)
            }
        }
        if let notifyCacert {
            guard configured else { throw ValidationError("--notify-cacert needs --notify.") }
            do { try CACertificateFile.check(notifyCacert) } catch {
                throw ValidationError("--notify-cacert '\(notifyCacert)' \(error.description).")
            }
        }
    }

    var alertmanagerSettings: AlertmanagerSettings? {
        guard let alertmanager else { return nil }
        var settings = AlertmanagerSettings(url: alertmanager)
        settings.poster.caFile = notifyCacert
        settings.poster.userAgent = AASAAuditVersion.defaultUserAgent
        settings.reportBaseURL = reportURL
        settings.alertAfter = alertAfter
        return settings
    }

    var settings: NotificationSettings? {
        guard let notify = try? url else { return nil }
        var settings = NotificationSettings(url: notify, trigger: notifyOn)
        settings.poster.caFile = notifyCacert
        settings.reportBaseURL = reportURL
        settings.poster.userAgent = AASAAuditVersion.defaultUserAgent
        settings.policy = AlertPolicy(alertAfter: alertAfter, remindEvery: remindEvery.map { $0 * 86_400 })
        return settings
    }
}
