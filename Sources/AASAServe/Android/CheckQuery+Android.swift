import AASAModel

/// `?android=PACKAGE[@FINGERPRINT]`: an app the domain's assetlinks.json must declare, read as
/// `check --android` reads it.
extension CheckQuery {
    static func androidApps(_ values: [String]) throws(HTTPError) -> [AndroidApp] {
        try values.map { value throws(HTTPError) in
            switch AndroidApp.parse(value) {
            case .success(let app): return app
            case .failure(let error): throw HTTPError(400, "android=\(value): \(error.reason).")
            }
        }
    }
}
