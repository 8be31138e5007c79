import AASAFetch
import AASAModel
import SignedFiles
import Synchronization

/// Opens signed (CMS/PKCS#7) bodies for the checks and verifies them against the trust the
/// fetches use (`--cacert`, else libcurl's CA bundle), loaded once, when the first signed file
/// turns up. A body that is not signed passes through untouched.
final class SignedFileOpener: Sendable {
    private let caFile: String?
    private let trust = Mutex<Result<TrustStore, TrustStoreError>?>(nil)

    init(caFile: String?) {
        self.caFile = caFile
    }

    convenience init(_ configuration: FetcherConfiguration) {
        self.init(caFile: configuration.trustedCAFile)
    }

    /// The fetched location with a signed body replaced by its content and the signature on its
    /// record. `host`: the domain the signer must name (nil: not checked).
    func unwrap(_ fetched: FetchedLocation, host: String?) -> FetchedLocation {
        guard fetched.record.error == nil, fetched.record.status == 200, !fetched.record.bodyTruncated,
            !fetched.body.isEmpty,
            let opened = open(fetched.body, host: host)
        else { return fetched }
        var unwrapped = fetched
        unwrapped.record.signature = opened.signature
        if let content = opened.content { unwrapped.body = content }
        return unwrapped
    }

    /// The opened file, or nil when the bytes are not signed.
    func open(_ bytes: [UInt8], host: String?) -> SignedFile.Opened? {
        guard SignedFile.format(of: bytes) != nil else { return nil }
        switch trustStore() {
        case .success(let store):
            return SignedFile.open(bytes, host: host, trust: store)
        case .failure(let error):
            var opened = SignedFile.open(bytes, host: host, trust: nil)
            if opened?.signature.opened == true, opened?.signature.problem == nil {
                opened?.signature.problem = "The signer's certificate could not be checked: \(error.description)."
            }
            return opened
        }
    }

    private func trustStore() -> Result<TrustStore, TrustStoreError> {
        trust.withLock { loaded in
            if let loaded { return loaded }
            let result: Result<TrustStore, TrustStoreError>
            if let caFile {
                result = Result { () throws(TrustStoreError) in try TrustStore(caFile: caFile) }
            } else {
                result = .failure(TrustStoreError(description: "libcurl names no CA bundle"))
            }
            loaded = result
            return result
        }
    }
}
