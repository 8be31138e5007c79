import AASAFetch
import AASAModel
import AASAReport
import Foundation

/// `--alertmanager URL`: where a sound run's alerts go (Alertmanager's v2 API).
public struct AlertmanagerSettings: Sendable {
    /// Alertmanager's base URL (`http://127.0.0.1:9093`), its API under it.
    public var url: String
    public var poster = WebhookPoster.Settings()
    /// `--report-url`: where `--out` is served, for the alerts' link to the run's report.
    public var reportBaseURL: String?
    /// Alerts POSTed in bodies of at most this many bytes (one alert alone may be larger): a
    /// fleet's 30,000 failing domains are 20 MB, which a proxy's 1 MB body limit refuses whole.
    public var maximumBodyBytes = 512 << 10
    /// `--alert-after N`: a failure fires once it has lasted N runs (1: at once), as for
    /// `--notify`, so that a domain that fails one night in two does not fire and resolve every
    /// night.
    public var alertAfter = 1

    public init(url: String) {
        self.url = url
    }

    func endpoint(_ path: String) -> String { (url.hasSuffix("/") ? url : url + "/") + path }
}

/// What became of a run's Alertmanager alerts.
public struct AlertmanagerResult: Sendable, Equatable {
    public var state: NotificationResult.State
    public var attempts: [WebhookPoster.Attempt]
    /// Alerts sent as firing, and as resolved.
    public var firing: Int
    public var resolved: Int

    public func summary(_ settings: AlertmanagerSettings) -> String {
        let display = NotificationSettings(url: settings.url).displayURL
        switch state {
        case .notNeeded: return "Alertmanager: nothing firing, nothing to resolve (\(display))."
        case .sent:
            return "Alertmanager: \(firing) alert\(firing == 1 ? "" : "s") firing, \(resolved) resolved (\(display))."
        case .failed:
            return "Alertmanager (\(display)) failed: " + WebhookPoster.Attempt.summary(attempts)
                + ". The reports are written; the exit status is 4 unless another applies."
        }
    }
}

/// Sends a sound run's alerts: the firing ones, and those of the same output that Alertmanager
/// still has active and that no longer fire, resolved. Alertmanager keeps the state: what it
/// lost (a restart without storage) is simply sent again.
enum AlertmanagerDelivery {
    /// Alertmanager's answer listing the active alerts is read up to this size.
    static let activeLimit = 64 << 20

    static func send(_ firing: [AlertmanagerAlerts.Alert], output: String, now: Date, settings: AlertmanagerSettings)
        async -> AlertmanagerResult
    {
        let poster = WebhookPoster(settings: settings.poster)
        let (listed, body) = await poster.get(
            settings.endpoint(AlertmanagerAlerts.activeQuery(output: output)), limit: activeLimit)
        guard let body, let active = try? JSONReport.makeDecoder().decode([AlertmanagerAlerts.Alert].self, from: body)
        else {
            // Without the list nothing can be resolved; what fires is still sent.
            let sent = firing.isEmpty ? [] : await post(firing, poster: poster, settings: settings).attempts
            return AlertmanagerResult(
                state: .failed, attempts: listed.attempts + sent, firing: firing.count, resolved: 0)
        }
        let resolving = AlertmanagerAlerts.resolving(active: active, firing: firing, output: output, now: now)
        guard !(firing + resolving).isEmpty else {
            return AlertmanagerResult(state: .notNeeded, attempts: listed.attempts, firing: 0, resolved: 0)
        }
        let outcome = await post(firing + resolving, poster: poster, settings: settings)
        return AlertmanagerResult(
            state: outcome.delivered ? .sent : .failed, attempts: outcome.attempts, firing: firing.count,
            resolved: resolving.count)
    }

    /// Posts the alerts in batches (`batches`), one after another; delivered when every batch
    /// was, its attempts all of theirs.
    private static func post(
        _ alerts: [AlertmanagerAlerts.Alert], poster: WebhookPoster, settings: AlertmanagerSettings
    )
        async -> (delivered: Bool, attempts: [WebhookPoster.Attempt])
    {
        var attempts: [WebhookPoster.Attempt] = []
        var delivered = true
        for body in batches(alerts, maximumBytes: settings.maximumBodyBytes) {
            let outcome = await poster.post(body, to: settings.endpoint("api/v2/alerts"))
            attempts += outcome.attempts
            delivered = delivered && outcome.delivered
        }
        return (delivered, attempts)
    }

    /// The alerts as JSON arrays of at most `maximumBytes` each (an alert larger than that alone).
    static func batches(_ alerts: [AlertmanagerAlerts.Alert], maximumBytes: Int) -> [Data] {
        let encoder = JSONReport.makeEncoder()
        var bodies: [Data] = []
        var body = Data("[".utf8)
        for alert in alerts {
            guard let encoded = try? encoder.encode(alert) else { continue }
            if body.count > 1, body.count + encoded.count + 2 > maximumBytes {
                bodies.append(body + Data("]".utf8))
                body = Data("[".utf8)
            }
            if body.count > 1 { body.append(UInt8(ascii: ",")) }
            body.append(encoded)
        }
        if body.count > 1 { bodies.append(body + Data("]".utf8)) }
        return bodies
    }
}
