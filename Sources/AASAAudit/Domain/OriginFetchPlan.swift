import AASAChecks
import AASAFetch
import AASAModel
import Synchronization

/// The requests a domain's origin gets, asking each question once:
///
/// 1. `.well-known` as Apple's bot (the user agent Apple's CDN sends): one request answers both
///    "what does Apple see" and "what is the file".
/// 2. The root location on the same connection: at once when the connection negotiated HTTP/2
///    (multiplexed: one handshake, one round trip for both), right after `.well-known` on
///    HTTP/1.1; not at all when `.well-known` could not reach the host.
/// 3. Only when the bot got no usable file: `.well-known` again as a browser, to tell a host that
///    blocks Apple's bot from one that is broken for everyone.
/// 4. Only when the host answers but neither location serves the file with 200:
///    `/.well-known/apple-app-site-association.json`, the commonest upload mistake, so that the
///    finding can say "your file is there: rename it".
///
/// A domain that serves no AASA (`ios:none`, `asksAASA` false) gets only its other files'
/// requests. Healthy domains cost one handshake and two requests. A domain's fetches share one
/// `--timeout`, a deadline from its first request (`DomainDeadline`): a fetch started after
/// another gets what is left, and is not made when nothing is left. So a domain's origin
/// fetches end within `--timeout` of the network's time, whatever its server does; this
/// process's own delays (a loaded machine resuming a task late) are not the site's.
struct OriginFetchPlan: Sendable {
    let fetcher: Fetcher
    let domain: String
    /// Whether the AASA is asked for (the domain's group has its part, `AuditGroup.aasa`).
    var asksAASA = true
    /// The bot's and the browser's user agents; nil: `.well-known` with the configured user
    /// agent and no browser fetch (`--no-ua-check`).
    let botUserAgent: String?
    let browserUserAgent: String?
    /// The requests the domain's other association files ask for (`AssociationFiles`), on the
    /// same connection: at once over HTTP/2, last over HTTP/1.1. None costs nothing.
    var extraRequests: [FetchRequest] = []
    /// Applied to each answer of the AASA locations as it arrives: the auditor opens signed
    /// files here, once, so that a signed file given to the bot counts as a usable one (no
    /// browser is asked) and the checks get its content.
    var opening: @Sendable (FetchedLocation) -> FetchedLocation = { $0 }

    /// Less time than this left: a later fetch is not started (it could not even connect).
    static let minimumFetchSeconds = 0.01

    struct Fetched: Sendable {
        /// The AASA's answers; nil when it was not asked for.
        var aasa: AASAAnswers?
        /// The answers to `extraRequests`, in their order.
        var extra: [FetchedLocation]
        /// The domain's `--timeout`, running from its first request.
        var deadline: DomainDeadline
    }

    /// The requests that start as soon as the connection turns out to multiplex: the root
    /// and the extra requests, each nil when it did not (it then follows over HTTP/1.1).
    struct EarlyRequests {
        let root: Task<FetchedLocation?, Never>
        let extra: [Task<FetchedLocation?, Never>]

        func cancel() {
            root.cancel()
            extra.forEach { $0.cancel() }
        }
    }

    /// `.well-known` first, as Apple's bot; the others alongside when the connection
    /// multiplexes, after it when not; nothing more when the host could not be reached. Without
    /// the AASA, the other files' requests alone.
    func run() async -> Fetched {
        guard asksAASA else { return await runWithoutAASA() }
        let deadline = DomainDeadline(now: fetcher.configuration.now)
        let multiplexing = ConnectionSignal()
        var request = FetchRequest(
            url: AASALocation.wellKnown.url(on: domain), location: .wellKnown, userAgent: botUserAgent)
        request.onConnected = { multiplexing.resolve($0) }
        let early = startEarly(multiplexing)
        var wellKnown = await withTaskCancellationHandler { [request, fetcher] in
            opening(await fetcher.fetch(request))
        } onCancel: {
            early.cancel()
        }
        multiplexing.resolve(false)
        deadline.forgive(wellKnown)
        if botUserAgent != nil { wellKnown.record.agent = .bot }

        if let error = wellKnown.record.error, DomainAuditor.hostUnreachable(error) {
            early.cancel()
            _ = await early.root.value
            for task in early.extra { _ = await task.value }
            return Fetched(
                aasa: AASAAnswers(wellKnown: wellKnown, root: skipped(.root, because: error)),
                extra: extraRequests.map { skipped($0, because: error) }, deadline: deadline)
        }
        let browser = await browserCopy(after: wellKnown, multiplexed: multiplexing, within: deadline)
        let root = await rootCopy(early.root, after: wellKnown, within: deadline)
        var extra: [FetchedLocation] = []
        for (request, task) in zip(extraRequests, early.extra) {
            if let early = await Self.awaitEarly(task, within: deadline) {
                extra.append(early)
            } else {
                // HTTP/1.1: last, in order, on the same connection.
                extra.append(await fetchWithinDeadline(request, within: deadline))
            }
        }
        let misnamed = await misnamedCopy(wellKnown: wellKnown, root: root, browser: browser, within: deadline)
        return Fetched(
            aasa: AASAAnswers(wellKnown: wellKnown, root: root, browser: browser, misnamed: misnamed), extra: extra,
            deadline: deadline)
    }

    /// A domain that serves no AASA (`ios:none`): only the other files' requests, one after
    /// another on one connection (the last closes it), within the domain's `--timeout`; a host
    /// the first could not reach is asked nothing more.
    private func runWithoutAASA() async -> Fetched {
        let deadline = DomainDeadline(now: fetcher.configuration.now)
        var extra: [FetchedLocation] = []
        for (index, request) in extraRequests.enumerated() {
            if let lead = extra.first, let error = lead.record.error, DomainAuditor.hostUnreachable(error) {
                extra.append(skipped(request, because: error, lead: lead.record.url))
                continue
            }
            var last = request
            last.closeConnection = last.closeConnection || index == extraRequests.count - 1
            extra.append(await fetchWithinDeadline(last, within: deadline))
        }
        return Fetched(aasa: nil, extra: extra, deadline: deadline)
    }

    /// The root and the extra requests, each waiting for the connection to say whether it
    /// multiplexes. With extra requests to come, the root leaves the connection open: their
    /// tasks may start after the root is done, and would then need a connection of their own.
    private func startEarly(_ multiplexing: ConnectionSignal) -> EarlyRequests {
        let fetcher = fetcher
        let rootRequest = rootRequest(closing: extraRequests.isEmpty)
        return EarlyRequests(
            root: Task { [self] () -> FetchedLocation? in
                guard await multiplexing.value else { return nil }
                return opening(await fetcher.fetch(rootRequest))
            },
            extra: extraRequests.map { request in
                Task { () -> FetchedLocation? in
                    guard await multiplexing.value else { return nil }
                    return await fetcher.fetch(request)
                }
            })
    }

    /// An early request's answer, its wait this process's own when there is none: a task that
    /// only learnt the connection does not multiplex waited for a thread, not for the network (on
    /// a loaded machine, seconds that once used up the domain's deadline before its root).
    static func awaitEarly(_ task: Task<FetchedLocation?, Never>, within deadline: DomainDeadline) async
        -> FetchedLocation?
    {
        let asked = deadline.now()
        let early = await withTaskCancellationHandler(operation: { await task.value }, onCancel: { task.cancel() })
        if let early {
            deadline.forgive(early)
        } else {
            deadline.forgive(deadline.now() - asked)
        }
        return early
    }

    /// `.well-known` as a browser, when the bot got no usable file. Multiplexed, it may end
    /// after the root: then it closes the connection. Over HTTP/1.1 the root comes after it
    /// and closes it.
    private func browserCopy(
        after wellKnown: FetchedLocation, multiplexed multiplexing: ConnectionSignal, within deadline: DomainDeadline
    ) async -> FetchedLocation? {
        guard let browserUserAgent, DeviceViewChecks.usableFile(wellKnown) == nil else { return nil }
        let multiplexed = await multiplexing.value
        var fetched = opening(
            await fetchWithinDeadline(
                FetchRequest(
                    url: AASALocation.wellKnown.url(on: domain), location: .wellKnown, closeConnection: multiplexed,
                    userAgent: browserUserAgent), within: deadline))
        fetched.record.agent = .browser
        return fetched
    }

    /// The root: the early one, or over HTTP/1.1 after `.well-known` (and the browser's) on the
    /// same connection, which it leaves open when `.well-known` failed: the misnamed file's
    /// request may follow.
    private func rootCopy(
        _ early: Task<FetchedLocation?, Never>, after wellKnown: FetchedLocation, within deadline: DomainDeadline
    ) async -> FetchedLocation {
        if let root = await Self.awaitEarly(early, within: deadline) { return root }
        let closing = extraRequests.isEmpty && wellKnown.record.status == 200
        return opening(await fetchWithinDeadline(rootRequest(closing: closing), within: deadline))
    }

    /// A file that is not where it belongs may be there under the name people upload it with.
    private func misnamedCopy(
        wellKnown: FetchedLocation, root: FetchedLocation, browser: FetchedLocation?, within deadline: DomainDeadline
    ) async -> FetchedLocation? {
        guard wellKnown.record.status != nil, wellKnown.record.status != 200, root.record.status != 200,
            browser.map({ DeviceViewChecks.usableFile($0) == nil }) ?? true
        else { return nil }
        return await fetchWithinDeadline(
            FetchRequest(
                url: AASALocation.wellKnown.url(on: domain) + ".json", location: .wellKnown,
                closeConnection: extraRequests.isEmpty), within: deadline)
    }

    /// The root closes the domain's connection when it is done (libcurl closes a multiplexed
    /// one when its last stream ends). Left open, finished domains' connections would idle in
    /// curl's cache until newer ones pushed them out: measured at 10,000 loopback domains, that
    /// cost 14% more CPU per domain than closing them (1.67 against 1.47 ms).
    func rootRequest(closing: Bool) -> FetchRequest {
        FetchRequest(url: AASALocation.root.url(on: domain), location: .root, closeConnection: closing)
    }

    /// Fetches with what is left of the domain's `--timeout`; with nothing left, records the
    /// fetch as not made.
    func fetchWithinDeadline(_ request: FetchRequest, within deadline: DomainDeadline) async -> FetchedLocation {
        let timeout = fetcher.configuration.timeoutSeconds
        let left = timeout - deadline.elapsed.seconds
        guard left >= Self.minimumFetchSeconds else {
            var record = FetchRecord(location: request.location, url: request.url)
            record.error = TransferError(
                kind: .skipped, curlCode: 0,
                message:
                    "Not fetched: the domain's earlier fetches used all of its \(timeout.formatted()) s (\(OptionName.timeout))."
            )
            return FetchedLocation(record: record)
        }
        var timed = request
        timed.timeoutSeconds = left
        let fetched = await fetcher.fetch(timed)
        deadline.forgive(fetched)
        return fetched
    }

    func skipped(_ location: AASALocation, because error: TransferError) -> FetchedLocation {
        skipped(FetchRequest(url: location.url(on: domain), location: location), because: error)
    }

    /// - Parameter lead: the fetch that failed, when not `.well-known`'s.
    func skipped(_ request: FetchRequest, because error: TransferError, lead: String? = nil) -> FetchedLocation {
        var record = FetchRecord(location: request.location, url: request.url)
        let reason = error.kind == .other ? "the server broke the connection" : "could not reach the host"
        let fetch = lead.map { "fetch of \($0.prefix(300))" } ?? ".well-known fetch"
        record.error = TransferError(
            kind: .skipped, curlCode: 0, message: "Not fetched: the \(fetch) \(reason) (\(error.kind.rawValue)).")
        return FetchedLocation(record: record)
    }
}

/// A domain's `--timeout`, from its first request's hand-over to the fetcher: the time since,
/// less this process's own delays around the fetches it waited for (`FetchedLocation.localDelay`:
/// a loaded machine that resumed the domain's task seconds after its answer came had once spent
/// the domain's time, and its next fetches were "not fetched", a failure that was not the
/// site's). Time before the first request was handed over is this process's too.
final class DomainDeadline: Sendable {
    private struct Clock {
        var start: ContinuousClock.Instant
        var forgiven = Duration.zero
        var begun = false
    }

    /// The time now: the system's, or a test's.
    let now: @Sendable () -> ContinuousClock.Instant
    private let clock: Mutex<Clock>

    init(now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.now = now
        clock = Mutex(Clock(start: now()))
    }

    /// The time the domain's fetches have had.
    var elapsed: Duration {
        let now = now()
        return clock.withLock { now - $0.start - $0.forgiven }
    }

    /// Takes a wait that was this process's own off the time spent.
    func forgive(_ wait: Duration) {
        clock.withLock { $0.forgiven += max(.zero, wait) }
    }

    /// Takes `fetched`'s local delay off the time spent (a fetch the domain waited for); the
    /// first fetch forgiven starts the clock when it was handed over.
    func forgive(_ fetched: FetchedLocation) {
        let now = now()
        clock.withLock { clock in
            if !clock.begun, let sinceHandOver = fetched.sinceHandOver {
                clock.start = max(clock.start, now - sinceHandOver)
                clock.begun = true
            }
            clock.forgiven += fetched.localDelay
        }
    }
}

/// Whether a domain's connection multiplexes: resolved once, by the first caller; awaited by
/// any number.
final class ConnectionSignal: Sendable {
    private struct State {
        var value: Bool?
        var waiting: [CheckedContinuation<Bool, Never>] = []
    }

    private let state = Mutex(State())

    func resolve(_ value: Bool) {
        let waiting = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiting = [] }
            return state.waiting
        }
        waiting.forEach { $0.resume(returning: value) }
    }

    var value: Bool {
        get async {
            await withCheckedContinuation { continuation in
                let known = state.withLock { state -> Bool? in
                    if state.value == nil { state.waiting.append(continuation) }
                    return state.value
                }
                if let known { continuation.resume(returning: known) }
            }
        }
    }
}

extension OriginFetchPlan {
    /// The plan, opening the signed files it is served (for `domain`) as they arrive.
    func openingSignedFiles(with opener: SignedFileOpener) -> OriginFetchPlan {
        var plan = self
        let domain = domain
        plan.opening = { opener.unwrap($0, host: domain) }
        return plan
    }
}
