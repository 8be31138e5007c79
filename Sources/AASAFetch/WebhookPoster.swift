import CCurlShim
import CLibcurl
import Foundation

/// POSTs a JSON document to a webhook (`--notify`): bounded time per attempt, a few attempts
/// with backoff, redirects not followed, the answer's body read and dropped. The URL is the
/// user's own (a chat webhook, an internal receiver), so the audited sites' address policy does
/// not apply to it; only http and https are allowed.
public struct WebhookPoster: Sendable {
    public struct Settings: Sendable {
        public var timeoutSeconds: Double = 10
        public var connectTimeoutSeconds: Double = 5
        /// Waits before the second, third… attempt; attempts = delays + 1.
        public var retryDelays: [Duration] = [.seconds(1), .seconds(4)]
        /// CA bundle to trust; nil uses libcurl's default bundle.
        public var caFile: String?
        public var userAgent = "aasa-audit"

        public init() {}

    }

    /// What one attempt ended with.
    public struct Attempt: Sendable, Equatable {
        /// The HTTP status, when an answer came.
        public var status: Int?
        /// libcurl's error, when the transfer failed.
        public var error: String?
        /// A failed transfer that another attempt may get through (a refused or reset
        /// connection, a time-out); not a certificate, protocol or URL error.
        var transientError = true

        public init(status: Int?, error: String?) {
            self.status = status
            self.error = error
        }

        /// 2xx.
        public var delivered: Bool { status.map { (200..<300).contains($0) } ?? false }

        /// Whether another attempt may succeed: transport failures, 408, 425, 429 and 5xx.
        var isTransient: Bool {
            guard let status else { return transientError }
            return status == 408 || status == 425 || status == 429 || status >= 500
        }

        public var description: String {
            if let error { return error }
            return "HTTP \(status ?? 0)"
        }

        /// Attempts as one line, each different answer once with how often it came ("Failed to
        /// connect to 127.0.0.1 port 9093: Connection refused (6 times)").
        public static func summary(_ attempts: [Attempt]) -> String {
            var order: [String] = []
            var counts: [String: Int] = [:]
            for attempt in attempts {
                if counts[attempt.description] == nil { order.append(attempt.description) }
                counts[attempt.description, default: 0] += 1
            }
            return order.map { counts[$0]! > 1 ? "\($0) (\(counts[$0]!) times)" : $0 }.joined(separator: "; ")
        }
    }

    public struct Outcome: Sendable, Equatable {
        public var attempts: [Attempt]
        public var delivered: Bool { attempts.last?.delivered ?? false }
    }

    public let settings: Settings

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// libcurl's errors worth another attempt: the network or the receiver may be back.
    static let retryable: Set<CURLcode> = [
        CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_SEND_ERROR, CURLE_RECV_ERROR,
        CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM,
    ]

    /// Why libcurl could not use `url` for a webhook, or nil: read by libcurl's own URL parser
    /// (a port out of range, controls or spaces, no host), http or https only.
    public static func problem(with url: String) -> String? {
        if url.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) {
            return "holds a control character or a space"
        }
        guard let handle = curl_url() else { return "cannot be read" }
        defer { curl_url_cleanup(handle) }
        let code = curl_url_set(handle, CURLUPART_URL, url, 0)
        guard code == CURLUE_OK else { return String(cString: curl_url_strerror(code)).lowercased() }
        var scheme: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK, let scheme else {
            return "has no scheme"
        }
        defer { curl_free(scheme) }
        let name = String(cString: scheme).lowercased()
        return name == "http" || name == "https" ? nil : "is not an http or https URL"
    }

    /// Sends `body` to `url`; retries transient failures after the settings' delays.
    public func post(_ body: Data, to url: String) async -> Outcome {
        await withRetries { await exchange(.post(body), url: url).attempt }
    }

    /// GETs `url` (retried as `post` is): the last attempt, and the answer's body when it was
    /// delivered, at most `limit` bytes (a longer answer is an error).
    public func get(_ url: String, limit: Int) async -> (outcome: Outcome, body: Data?) {
        var body: Data?
        let outcome = await withRetries {
            let result = await exchange(.get(limit: limit), url: url)
            body = result.body
            return result.attempt
        }
        return (outcome, outcome.delivered ? body : nil)
    }

    private func withRetries(_ once: () async -> Attempt) async -> Outcome {
        var attempts: [Attempt] = []
        for attempt in 0...settings.retryDelays.count {
            if attempt > 0 {
                try? await Task.sleep(for: settings.retryDelays[attempt - 1])
            }
            let result = await once()
            attempts.append(result)
            if result.delivered || !result.isTransient || Task.isCancelled { break }
        }
        return Outcome(attempts: attempts)
    }

    enum Method: Sendable {
        case post(Data)
        case get(limit: Int)
    }

    /// One blocking transfer, on a thread of its own so that no task thread waits on it.
    private func exchange(_ method: Method, url: String) async -> (attempt: Attempt, body: Data?) {
        let settings = settings
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: Self.perform(method, url: url, settings: settings))
            }
            thread.name = "aasa-audit notify"
            thread.start()
        }
    }

    /// An answer's body as it arrives, up to a limit.
    final class Received {
        var data = Data()
        let limit: Int
        var overflowed = false
        init(limit: Int) { self.limit = limit }
    }

    private static func perform(_ method: Method, url: String, settings: Settings) -> (attempt: Attempt, body: Data?) {
        guard ccurl_global_init_once() == CURLE_OK, let easy = curl_easy_init() else {
            return (Attempt(status: nil, error: "libcurl could not start"), nil)
        }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: ccurl_error_size)
        errorBuffer.initialize(repeating: 0, count: ccurl_error_size)
        var headers: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Content-Type: application/json")
        headers = curl_slist_append(headers, "Expect:")
        defer {
            // The handle first: it points at the error buffer and the header list until it is
            // cleaned up (libcurl may write the buffer while closing), so they are freed after it.
            curl_easy_cleanup(easy)
            curl_slist_free_all(headers)
            errorBuffer.deallocate()
        }
        configure(easy, url: url, settings: settings, headers: headers, errorBuffer: errorBuffer)
        let (code, received) = transfer(method, easy: easy, errorBuffer: errorBuffer)
        if received.overflowed {
            return (Attempt(status: nil, error: "the answer is larger than \(received.limit) bytes"), nil)
        }
        var status = 0
        _ = ccurl_easy_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            var attempt = Attempt(status: nil, error: message)
            attempt.transientError = Self.retryable.contains(code)
            return (attempt, nil)
        }
        return (Attempt(status: status, error: nil), received.data)
    }

    /// No redirects, HTTP(S) only, the timeouts, the agent and the CA file of the settings.
    private static func configure(
        _ easy: UnsafeMutableRawPointer, url: String, settings: Settings, headers: UnsafeMutablePointer<curl_slist>?,
        errorBuffer: UnsafeMutablePointer<CChar>
    ) {
        _ = ccurl_easy_set_string(easy, CURLOPT_URL, url)
        _ = ccurl_easy_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = ccurl_easy_set_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_easy_set_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        _ = ccurl_easy_set_long(easy, CURLOPT_TIMEOUT_MS, Int(settings.timeoutSeconds * 1000))
        _ = ccurl_easy_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(settings.connectTimeoutSeconds * 1000))
        _ = ccurl_easy_set_string(easy, CURLOPT_USERAGENT, settings.userAgent)
        _ = ccurl_easy_set_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = ccurl_easy_set_slist(easy, CURLOPT_HTTPHEADER, headers)
        if let caFile = settings.caFile { _ = ccurl_easy_set_string(easy, CURLOPT_CAINFO, caFile) }
    }

    /// A GET whose answer is kept up to its limit, or a POST whose answer is dropped.
    private static func transfer(
        _ method: Method, easy: UnsafeMutableRawPointer, errorBuffer: UnsafeMutablePointer<CChar>
    ) -> (CURLcode, Received) {
        switch method {
        case .get(let limit):
            let received = Received(limit: limit)
            _ = ccurl_easy_set_long(easy, CURLOPT_HTTPGET, 1)
            _ = ccurl_easy_set_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(received).toOpaque())
            _ = ccurl_easy_set_data_callback(easy, CURLOPT_WRITEFUNCTION) { bytes, size, count, userdata in
                let received = Unmanaged<Received>.fromOpaque(userdata!).takeUnretainedValue()
                let length = size * count
                guard received.data.count + length <= received.limit else {
                    received.overflowed = true
                    return 0
                }
                if let bytes {
                    received.data.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: length)
                }
                return length
            }
            return (withExtendedLifetime(received) { curl_easy_perform(easy) }, received)
        case .post(let body):
            // The answer is not needed: read and dropped.
            _ = ccurl_easy_set_data_callback(easy, CURLOPT_WRITEFUNCTION) { _, size, count, _ in size * count }
            _ = ccurl_easy_set_long(easy, CURLOPT_POSTFIELDSIZE, body.count)
            let code = body.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS copies POSTFIELDSIZE bytes now: the buffer need not outlive this call.
                _ = ccurl_easy_set_pointer(
                    easy, CURLOPT_COPYPOSTFIELDS,
                    UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(errorBuffer)))
                return curl_easy_perform(easy)
            }
            return (code, Received(limit: 0))
        }
    }
}
