import Foundation

/// Everything recorded about one fetch of one location. Part of the JSON report.
public struct FetchRecord: Codable, Sendable, Equatable {
    public var location: AASALocation
    /// `bot` on the `.well-known` fetch made as Apple's bot, `browser` on the one made as a
    /// browser (only when the bot got no usable file); absent on the others.
    public var agent: FetchAgent?
    public var url: String
    /// The HTTP status, or nil when no response arrived.
    public var status: Int?
    /// "1.0", "1.1", "2" or "3"; nil when no response arrived.
    public var httpVersion: String?
    /// Where a 3xx answer pointed (absolute), never followed.
    public var redirectTarget: String?
    public var remoteIP: String?
    /// Whether this fetch opened a new connection (false: it reused the domain's connection).
    public var newConnection: Bool?
    public var headers: ResponseHeaders
    public var timings: FetchTimings
    /// Body bytes received after any Content-Encoding was undone.
    public var bodyBytes: Int
    /// SHA-256 (hex) of the body bytes received; nil when there was no body.
    public var bodySHA256: String?
    /// True when the body exceeded the read cap and reading stopped there.
    public var bodyTruncated: Bool
    /// Why the transfer failed, when it did.
    public var error: TransferError?
    /// When the TLS certificate the host presented expires (its notAfter), as read on this
    /// fetch's connection; nil without TLS or when the fetch never connected.
    public var certificateExpires: Date?
    /// When the body is a signed (CMS/PKCS#7) file: what it holds and whether it verifies; the
    /// checks then judge its content.
    public var signature: SignatureRecord?

    public init(
        location: AASALocation, url: String, status: Int? = nil, httpVersion: String? = nil,
        redirectTarget: String? = nil, remoteIP: String? = nil, newConnection: Bool? = nil,
        headers: ResponseHeaders = ResponseHeaders(), timings: FetchTimings = FetchTimings(),
        bodyBytes: Int = 0, bodySHA256: String? = nil, bodyTruncated: Bool = false, error: TransferError? = nil
    ) {
        self.location = location
        self.url = url
        self.status = status
        self.httpVersion = httpVersion
        self.redirectTarget = redirectTarget
        self.remoteIP = remoteIP
        self.newConnection = newConnection
        self.headers = headers
        self.timings = timings
        self.bodyBytes = bodyBytes
        self.bodySHA256 = bodySHA256
        self.bodyTruncated = bodyTruncated
        self.error = error
    }
}

/// The response headers that matter to an audit, by their lower-case names. Values are
/// trimmed and cut to a bounded length.
public struct ResponseHeaders: Codable, Sendable, Equatable {
    public var contentType: String?
    public var contentLength: String?
    public var contentEncoding: String?
    public var cacheControl: String?
    public var age: String?
    public var etag: String?
    public var lastModified: String?
    public var server: String?
    public var location: String?
    public var expires: String?
    /// When the answer was made (an HTTP-date).
    public var date: String?
    // Apple's CDN explains itself in these.
    public var appleFailureReason: String?
    public var appleFailureDetails: String?
    public var appleTryDirect: String?
    public var appleFrom: String?
    public var appleOriginFormat: String?
    // Marks of the hosting platform or CDN (`HostingPlatform`).
    public var via: String?
    public var xCache: String?
    public var cfRay: String?
    public var amzCFID: String?
    public var amzRequestID: String?
    public var vercelID: String?
    public var netlifyRequestID: String?
    public var githubRequestID: String?
    public var servedBy: String?
    public var akamaiGRN: String?
    /// The framework or server behind the answer (`Express`, `Next.js`).
    public var xPoweredBy: String?

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case contentType = "content-type"
        case contentLength = "content-length"
        case contentEncoding = "content-encoding"
        case cacheControl = "cache-control"
        case age
        case etag
        case lastModified = "last-modified"
        case server
        case location
        case expires
        case date
        case appleFailureReason = "apple-failure-reason"
        case appleFailureDetails = "apple-failure-details"
        case appleTryDirect = "apple-try-direct"
        case appleFrom = "apple-from"
        case appleOriginFormat = "apple-origin-format"
        case via
        case xCache = "x-cache"
        case cfRay = "cf-ray"
        case amzCFID = "x-amz-cf-id"
        case amzRequestID = "x-amz-request-id"
        case vercelID = "x-vercel-id"
        case netlifyRequestID = "x-nf-request-id"
        case githubRequestID = "x-github-request-id"
        case servedBy = "x-served-by"
        case akamaiGRN = "akamai-grn"
        case xPoweredBy = "x-powered-by"
    }

    /// The header names recorded, lower case.
    public static let recordedNames: [String] = CodingKeys.allCases.map(\.rawValue)

    /// Sets a header by its lower-case name; names not recorded are ignored. A repeated
    /// header keeps its first value.
    public mutating func set(name: String, value: String) {
        guard let key = CodingKeys(rawValue: name) else { return }
        let path: WritableKeyPath<ResponseHeaders, String?> =
            switch key {
            case .contentType: \.contentType
            case .contentLength: \.contentLength
            case .contentEncoding: \.contentEncoding
            case .cacheControl: \.cacheControl
            case .age: \.age
            case .etag: \.etag
            case .lastModified: \.lastModified
            case .server: \.server
            case .location: \.location
            case .expires: \.expires
            case .date: \.date
            case .appleFailureReason: \.appleFailureReason
            case .appleFailureDetails: \.appleFailureDetails
            case .appleTryDirect: \.appleTryDirect
            case .appleFrom: \.appleFrom
            case .appleOriginFormat: \.appleOriginFormat
            case .via: \.via
            case .xCache: \.xCache
            case .cfRay: \.cfRay
            case .amzCFID: \.amzCFID
            case .amzRequestID: \.amzRequestID
            case .vercelID: \.vercelID
            case .netlifyRequestID: \.netlifyRequestID
            case .githubRequestID: \.githubRequestID
            case .servedBy: \.servedBy
            case .akamaiGRN: \.akamaiGRN
            case .xPoweredBy: \.xPoweredBy
            }
        if self[keyPath: path] == nil { self[keyPath: path] = value }
    }
}

/// Milliseconds from the start of the transfer to the end of each phase, as curl measures
/// them (cumulative). Phases a reused connection skips read 0.
public struct FetchTimings: Codable, Sendable, Equatable {
    public var dnsMs: Double
    public var connectMs: Double
    public var tlsMs: Double
    public var firstByteMs: Double
    public var totalMs: Double

    public init(
        dnsMs: Double = 0, connectMs: Double = 0, tlsMs: Double = 0, firstByteMs: Double = 0, totalMs: Double = 0
    ) {
        self.dnsMs = dnsMs
        self.connectMs = connectMs
        self.tlsMs = tlsMs
        self.firstByteMs = firstByteMs
        self.totalMs = totalMs
    }
}

/// Why a transfer failed.
public struct TransferError: Codable, Sendable, Equatable {
    public var kind: TransferErrorKind
    /// libcurl's CURLcode, 0 when the failure was not curl's.
    public var curlCode: Int
    public var message: String
    /// For a name that did not resolve (`dns`): what the resolver answered when asked directly,
    /// when it was asked.
    public var dnsAnswer: DNSAnswer?

    public init(kind: TransferErrorKind, curlCode: Int, message: String, dnsAnswer: DNSAnswer? = nil) {
        self.kind = kind
        self.curlCode = curlCode
        self.message = message
        self.dnsAnswer = dnsAnswer
    }
}

/// Why a name did not resolve, from the resolver's own answer (getaddrinfo, which libcurl uses,
/// says only that it did not): the site's DNS, or this machine's resolver.
public enum DNSAnswer: String, Codable, Sendable, CaseIterable {
    /// NXDOMAIN: the name does not exist.
    case noSuchName = "nxdomain"
    /// NOERROR without an address record: the name exists but has no IPv4 address.
    case noAddress = "nodata"
    /// SERVFAIL: the resolver could not get an answer from the domain's name servers.
    case serverFailure = "servfail"
    /// REFUSED: this machine's resolver refused the question.
    case refused
    /// An address, asked again: the failure passed.
    case resolvedAgain = "resolved-again"
    /// Another answer code.
    case other
    /// No answer within the time: no resolver reachable from this machine, or it timed out.
    case noAnswer = "no-answer"

    /// The answer said in the finding's message.
    public var sentence: String {
        switch self {
        // What was answered, no advice: the same answer comes from a resolver cut off from the
        // internet, where "publish its records" would be wrong (the finding's fix says it).
        case .noSuchName: "this machine's resolver answers that the name does not exist (NXDOMAIN)"
        case .noAddress: "the name exists but has no address record (NOERROR, no A record)"
        case .serverFailure:
            "the resolver could not get an answer from the domain's name servers (SERVFAIL: a broken delegation, or DNSSEC that does not validate)"
        case .refused: "this machine's resolver refused the question (REFUSED)"
        case .resolvedAgain: "the name resolved when asked again: a passing failure"
        case .other: "the resolver gave an unexpected answer"
        case .noAnswer: "this machine's resolver did not answer (timed out, or unreachable)"
        }
    }

    /// Whether the answer shows this machine's resolver seeing the internet: it gave an address.
    /// A resolver that says "no such name" (or "no address") is no evidence of that: one that
    /// cannot see the internet says so for every name, however many exist (issue 54).
    public var gaveAnAddress: Bool { self == .resolvedAgain }
}

public enum TransferErrorKind: String, Codable, Sendable {
    case dns
    case connect
    case timeout
    case tlsCertificate = "tls-certificate"
    case tlsHandshake = "tls-handshake"
    /// Every address of the host is one the auditor does not connect to (loopback, private,
    /// link-local, ...): see `AddressPolicy`.
    case blockedAddress = "blocked-address"
    /// Not attempted, because an earlier fetch from the same host could not reach it.
    case skipped
    case cancelled
    /// This machine could not make the request (out of memory, a CA bundle or network
    /// interface it cannot use): says nothing about the site.
    case local
    case other
}

extension FetchRecord {
    /// Whether the request reached the site (an answer, or the site's own failure): not when
    /// this machine held it back (`local`), the run cancelled it, or it was skipped. What was
    /// never asked is compared with nothing.
    public var asked: Bool {
        guard let kind = error?.kind else { return true }
        return ![.local, .cancelled, .skipped].contains(kind)
    }

    /// Whether the fetch got an address for its host (evidence that this machine's resolver
    /// answers): it did not fail resolving, and was attempted.
    public var resolvedItsHost: Bool {
        guard let error else { return true }
        switch error.kind {
        case .dns, .skipped, .cancelled, .local: return false
        default: return true
        }
    }

    /// How people call this fetch: ".well-known", "root", "Apple CDN", ".well-known as AASA-Bot".
    public var label: String {
        switch (location, agent) {
        case (.wellKnown, .bot?): ".well-known as Apple's bot"
        case (.wellKnown, .browser?): ".well-known as a browser"
        case (.wellKnown, _): url.hasSuffix(".json") ? ServedFile.aasa.name + ".json" : ".well-known"
        case (.root, _): "root"
        case (.cdn, _): "Apple CDN"
        case (.catchAllProbe, _): "catch-all probe"
        default:
            location.kind.map { url.hasSuffix($0.path) ? $0.fileName : $0.linkedFetchLabel } ?? location.rawValue
        }
    }
}

/// A signed (CMS/PKCS#7) file: what was found in it and whether it verifies.
public struct SignatureRecord: Codable, Sendable, Equatable {
    public enum Format: String, Codable, Sendable {
        case der
        case pem
    }

    public var format: Format
    /// The content was taken out and checked as the file.
    public var opened = false
    /// Bytes of the signed content (the served file is larger).
    public var contentBytes: Int?
    /// The first signer's certificate subject, one line.
    public var signerSubject: String?
    /// Certificates the file carries.
    public var certificates: Int?
    /// The signature matches the content, the signer's certificate chains to a trusted CA and
    /// names the domain.
    public var verified = false
    /// Why it was not opened or does not verify.
    public var problem: String?

    public init(format: Format) {
        self.format = format
    }
}
