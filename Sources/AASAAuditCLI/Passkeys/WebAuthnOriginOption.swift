import AASAModel
import ArgumentParser

/// `--origin https://HOST[:PORT]` (`check`, `lint`), read as domains.txt's `origin:` tokens are,
/// by the kind's want type; a bad value's error says why.
enum WebAuthnOriginOption {
    static func parse(_ text: String) throws -> String {
        try KindOptionValue.refuseToken(text, of: .webauthn)
        do {
            guard let want = try WebAuthnWant.parsing([text]) as? WebAuthnWant, let origin = want.origins.first else {
                throw ValidationError("\(text) is not an https origin.")
            }
            return origin
        } catch let error as AssociationValueError {
            throw ValidationError("\(error.reason).")
        }
    }
}
