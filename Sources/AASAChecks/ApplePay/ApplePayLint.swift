import AASAModel
import Digest

/// `lint` of a merchant file: known by its name or `--applepay`; by its content, a long run of
/// hex digits (what Apple and the providers issue). The file is opaque: lint says its SHA-256
/// (the value `applepay:SHA256` takes) and finds what Apple could not read.
extension ApplePayWant: LintedWant {
    public static func lint(_ bytes: [UInt8], size: Int, wants: AssociationWants) -> FileLint.Result {
        let want = wants[ApplePayWant.self] ?? ApplePayWant()
        return FileLint.associationFile(
            size: size, limit: ApplePayLimits.maximumFileBytes, tooLarge: .applePay(.tooLarge),
            read: {
                let file = ApplePayFile(bytes: bytes.count, sha256: SHA256Stream.hex(of: bytes))
                let isPage = CatchAllChecks.startsAsMarkup(bytes)
                return (ApplePayChecks.contentFindings(file, isPage: isPage, want: want, at: .file), file)
            },
            section: { ApplePayRecord(expectedApplePaySHA256: want.sha256.map { [$0] }, applePay: $0) })
    }

    /// Apple's and the providers' files are hex text, thousands of digits long.
    public static func looksLikeItsFile(_ bytes: [UInt8]) -> Bool {
        let text = bytes.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let hexDigits = Set(Array("0123456789abcdefABCDEF".utf8))
        return text.count >= 64 && text.allSatisfy(hexDigits.contains)
    }
}
