import AASAModel
import CLibcurl

/// Sorts libcurl's result codes into the kinds of failure an audit reports.
enum CurlErrorClassification {
    static func kind(of code: CURLcode) -> TransferErrorKind {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            .dns
        case CURLE_COULDNT_CONNECT:
            .connect
        case CURLE_OPERATION_TIMEDOUT:
            .timeout
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            .tlsCertificate
        case CURLE_SSL_CONNECT_ERROR:
            .tlsHandshake
        default:
            .other
        }
    }

    static func describe(_ code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }
}
