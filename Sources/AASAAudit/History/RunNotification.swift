import AASAFetch
import AASAModel
import AASAReport
import Foundation

/// `--notify URL` and `--notify-on`: what to send after a complete run, and where.
public struct NotificationSettings: Sendable {
    public var url: String
    public var trigger: AlertTrigger
    public var poster: WebhookPoster.Settings
    /// `--report-url`: where `--out` is served over HTTP, so that the alert links the run's
    /// report (BASE/RUN/report.html) instead of naming a path on this machine.
    public var reportBaseURL: String?
    /// `--alert-after` and `--remind-every`.
    public var policy = AlertPolicy()

    public init(
        url: String, trigger: AlertTrigger = .failures, poster: WebhookPoster.Settings = WebhookPoster.Settings()
    ) {
        self.url = url
        self.trigger = trigger
        self.poster = poster
    }

    /// The URL as reports and logs show it: scheme, host and port only, since a chat webhook's
    /// path or query is its secret.
    public var displayURL: String {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host
        else { return "(a webhook)" }
        let port = components.port.map { ":\($0)" } ?? ""
        let rest = components.path.isEmpty || components.path == "/" ? "" : "/…"
        return "\(scheme)://\(host)\(port)\(rest)"
    }

    /// Checks a URL option before a run: http or https with a host.
    /// - Parameter secret: the URL came from a file (`--notify-url-file`) and is not repeated.
    public static func validate(_ url: String, option: String = "\(OptionName.notify)", secret: Bool = false) -> String?
    {
        let named = secret ? "\(option)'s URL" : "\(option) '\(TerminalReport.clean(url))'"
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            return "\(named) is not an http or https URL."
        }
        if let problem = WebhookPoster.problem(with: url) {
            return "\(named) \(problem)."
        }
        return nil
    }

    /// The run's report under `reportBaseURL`, when given.
    func reportURL(runFolder: String) -> String? {
        reportBaseURL.map { base in
            (base.hasSuffix("/") ? base : base + "/") + runFolder + "/" + OutputFolderLayout.runHTML
        }
    }
}

/// What became of a run's notification, for the summary, the metrics and the exit status.
public struct NotificationResult: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Nothing the trigger asks for happened.
        case notNeeded = "not-needed"
        case sent
        case failed
    }

    public var state: State
    /// Attempts made, with what each ended with.
    public var attempts: [WebhookPoster.Attempt]
    /// What was sent (or tried).
    public var alert: RunAlert?

    /// A line for the terminal.
    public func summary(_ settings: NotificationSettings) -> String {
        switch state {
        case .notNeeded: "Notification: nothing to send on \(settings.trigger.rawValue) (\(settings.displayURL))."
        case .sent: "Notification sent (\(settings.displayURL))."
        case .failed:
            "Notification (\(settings.displayURL)) failed after \(attempts.count) attempt\(attempts.count == 1 ? "" : "s"): "
                + WebhookPoster.Attempt.summary(attempts)
                + ". The reports are written; the exit status is 4 unless another applies."
        }
    }
}

/// Sends a complete run's alert when its trigger says so.
enum RunNotification {
    static func send(_ alert: RunAlert, settings: NotificationSettings) async -> NotificationResult {
        guard alert.isSent(on: settings.trigger) else {
            return NotificationResult(state: .notNeeded, attempts: [], alert: alert)
        }
        let body = (try? JSONReport.makeEncoder().encode(alert)) ?? Data()
        let outcome = await WebhookPoster(settings: settings.poster).post(body, to: settings.url)
        return NotificationResult(state: outcome.delivered ? .sent : .failed, attempts: outcome.attempts, alert: alert)
    }
}
