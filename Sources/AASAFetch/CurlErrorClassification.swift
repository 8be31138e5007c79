import AASAModel
import CLibcurl

/// Sorts libcurl's result codes into the kinds of failure an audit reports.
enum CurlErrorClassification {
    static func kind(of code: CURLcode) -> TransferErrorKind {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            .dns
        case CURLE_OUT_OF_MEMORY, CURLE_FAILED_INIT, CURLE_COULDNT_RESOLVE_PROXY, CURLE_INTERFACE_FAILED,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER:
            .local
        case CURLE_COULDNT_CONNECT:
            .connect
        case CURLE_OPERATION_TIMEDOUT:
            .timeout
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS:
            .tlsCertificate
        case CURLE_SSL_CONNECT_ERROR:
            .tlsHandshake
        default:
            .other
        }
    }

    /// The server broke the connection or the protocol: curl's codes for a reset, an empty
    /// reply, a malformed response (an answer that is not HTTP reads as HTTP/0.9, which curl
    /// reports as an unsupported protocol) and HTTP/2 session or stream errors.
    static func brokeConnection(_ code: CURLcode) -> Bool {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING,
            CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2_STREAM:
            true
        default:
            false
        }
    }

    /// The kind, given curl's own words too: a failure while the name was being resolved is DNS
    /// failing, not the site being slow, whatever the code and wording of the libcurl version
    /// ("Resolving timed out after 5000 milliseconds", "Failed to resolve host 'a' with timeout
    /// after 0 ms", "Could not resolve host: a" with the timeout code), and counts as such.
    static func kind(of code: CURLcode, message: String) -> TransferErrorKind {
        if code == CURLE_OPERATION_TIMEDOUT, resolvingPrefixes.contains(where: message.hasPrefix) { return .dns }
        return kind(of: code)
    }

    static let resolvingPrefixes = ["Resolving timed out", "Failed to resolve host", "Could not resolve host"]

    static func describe(_ code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }
}

extension TransferError {
    /// Whether the server broke the connection or the protocol (see
    /// `CurlErrorClassification.brokeConnection`): a further request to it would most likely
    /// fail the same way.
    public var brokeConnection: Bool {
        curlCode > 0 && CurlErrorClassification.brokeConnection(CURLcode(UInt32(curlCode)))
    }
}

extension TransferErrorKind {
    /// The kind of failure libcurl's result code `curlCode` (a `CURLcode`) is.
    public init(curlCode: Int) {
        self = CurlErrorClassification.kind(of: CURLcode(UInt32(curlCode)))
    }

    /// The kind of failure libcurl's `curlCode` and its message (its error buffer) say.
    public init(curlCode: Int, message: String) {
        self = CurlErrorClassification.kind(of: CURLcode(UInt32(curlCode)), message: message)
    }
}
