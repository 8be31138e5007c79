import AASAAudit
import AASAModel
import AASAReport
import ArgumentParser

/// `--android PACKAGE[@FINGERPRINT]` (`check`, `lint`), read once, here, into the model's
/// `AndroidApp`, as domains.txt's `android:` tokens are read. A transform rather than
/// `ExpressibleByArgument`, so that a bad value's error says why.
enum AndroidAppOption {
    static let help = "package[@fingerprint]"

    static func parse(_ text: String) throws -> AndroidApp {
        try KindOptionValue.refuseToken(text, of: .androidAppLinks)
        switch AndroidApp.parse(text) {
        case .success(let app): return app
        case .failure(let error): throw ValidationError("\(error.reason).")
        }
    }
}
