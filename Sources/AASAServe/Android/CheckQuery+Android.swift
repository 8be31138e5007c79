import AASAModel

/// `?android=PACKAGE[@FINGERPRINT]`: an app the domain's assetlinks.json must declare, read as
/// `check --android` reads it.
extension CheckQuery {
    static func androidApps(_ values: [String]) throws(CheckQueryError) -> [AndroidApp] {
        try values.map { value throws(CheckQueryError) in
            switch AndroidApp.parse(value) {
            case .success(let app): return app
            case .failure(let error): throw CheckQueryError(message: "android=\(value): \(error.reason).")
            }
        }
    }
}
