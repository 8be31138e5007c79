import AASAModel
import ArgumentParser
import Digest
import Foundation

/// `--applepay on|SHA256|FILE` (`check`, `lint`): the merchant file is audited; with a SHA-256,
/// or a local copy of the provider's file (its SHA-256 is taken), its bytes must be those.
enum ApplePayOption {
    static let help = "on|sha256|file"

    /// The option's value as the want reads it: `on`, a SHA-256, or a local file's SHA-256.
    static func parse(_ text: String) throws -> String {
        try KindOptionValue.refuseToken(text, of: .applePay)
        if text == AssociationKind.flagPlaceholder || ApplePayWant.problem(with: text) == nil { return text }
        let url = URL(fileURLWithPath: text)
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw ValidationError(
                "--\(AssociationKind.applePay.word) takes on, a SHA-256 or the local copy of the merchant file: \(text.prefix(200)) is none (no such file)."
            )
        }
        defer { try? handle.close() }
        // Read one byte past the bound, so that a larger file is refused, not cut.
        let bytes = [UInt8]((try? handle.read(upToCount: ApplePayLimits.maximumFileBytes + 1)) ?? Data())
        guard bytes.count <= ApplePayLimits.maximumFileBytes else {
            throw ValidationError(
                "--\(AssociationKind.applePay.word) \(text.prefix(200)) is larger than \(ApplePayLimits.maximumFileBytes) bytes: not a merchant file."
            )
        }
        return SHA256Stream.hex(of: bytes)
    }
}
