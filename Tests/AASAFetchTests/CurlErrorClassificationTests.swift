import AASAFetch
import AASAModel
import Testing

/// libcurl's result codes sorted into what an audit reports: the site's failures, and this
/// machine's (which leave the domain not checked rather than failing).
@Suite struct CurlErrorClassificationTests {
    // CURLE_COULDNT_RESOLVE_HOST 6, CURLE_COULDNT_CONNECT 7, CURLE_OPERATION_TIMEDOUT 28,
    // CURLE_PEER_FAILED_VERIFICATION 60, CURLE_SSL_CONNECT_ERROR 35; this machine's:
    // CURLE_FAILED_INIT 2, CURLE_COULDNT_RESOLVE_PROXY 5, CURLE_OUT_OF_MEMORY 27,
    // CURLE_INTERFACE_FAILED 45, CURLE_SSL_CACERT_BADFILE 77; anything else is "other".
    @Test(arguments: [
        (6, TransferErrorKind.dns), (7, .connect), (28, .timeout), (60, .tlsCertificate), (35, .tlsHandshake),
        (2, .local), (5, .local), (27, .local), (45, .local), (77, .local), (52, .other), (56, .other),
    ])
    func codesSortIntoKinds(code: Int, kind: TransferErrorKind) {
        #expect(TransferErrorKind(curlCode: code) == kind)
    }

    /// A resolver that does not answer in time is DNS failing (and, for every name of a run,
    /// this machine's DNS down), not a slow site.
    @Test func aTimeoutWhileResolvingIsDNS() {
        #expect(TransferErrorKind(curlCode: 28, message: "Resolving timed out after 5000 milliseconds") == .dns)
        #expect(TransferErrorKind(curlCode: 28, message: "Connection timed out after 5001 milliseconds") == .timeout)
        #expect(
            TransferErrorKind(
                curlCode: 28, message: "Operation timed out after 10000 milliseconds with 0 bytes received")
                == .timeout)
        #expect(TransferErrorKind(curlCode: 6, message: "Could not resolve host: a.invalid") == .dns)
        // Other libcurl versions' words for the same.
        #expect(TransferErrorKind(curlCode: 28, message: "Could not resolve host: a.invalid") == .dns)
        #expect(
            TransferErrorKind(curlCode: 28, message: "Failed to resolve host 'a.invalid' with timeout after 0 ms")
                == .dns)
    }
}
