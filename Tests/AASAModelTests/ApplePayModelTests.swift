import Foundation
import Testing

@testable import AASAModel

/// Apple Pay's merchant file, the model's part (issue 58).
@Suite struct ApplePayModelTests {
    static let hash = String(repeating: "ab", count: 32)

    /// `applepay` asks for any file, `applepay:SHA256` for those bytes; a value that is no hash,
    /// or a second hash for the same domain, is refused naming itself.
    @Test func theTokenTakesNothingOrOneSHA256() throws {
        #expect(try ApplePayWant.parsing([]) as? ApplePayWant == ApplePayWant())
        let upper = Self.hash.uppercased()
        #expect(try ApplePayWant.parsing([upper]) as? ApplePayWant == ApplePayWant(sha256: Self.hash))
        #expect(try ApplePayWant.parsing([Self.hash, upper]) as? ApplePayWant == ApplePayWant(sha256: Self.hash))
        // `on` is what serve's form and API send for "any file".
        #expect(try ApplePayWant.parsing([AssociationKind.flagPlaceholder]) as? ApplePayWant == ApplePayWant())
        for bad in ["yes", String(Self.hash.dropLast()), Self.hash + "0", String(repeating: "g", count: 64)] {
            #expect(throws: AssociationValueError.self, "\(bad)") { try ApplePayWant.parsing([bad]) }
        }
        let other = String(repeating: "cd", count: 32)
        #expect(throws: AssociationValueError.self) { try ApplePayWant.parsing([Self.hash, other]) }
        #expect(ApplePayWant(sha256: Self.hash).merging(ApplePayWant()) == ApplePayWant(sha256: Self.hash))
        #expect(ApplePayWant().merging(ApplePayWant(sha256: other)) == ApplePayWant(sha256: other))
    }

    /// Its serving codes: no content type (Apple checks none); a page in the file's place is
    /// its syntax problem; every code has its entry in the kind's category.
    @Test func itsCodesAreItsOwn() {
        let file = AssociationKind.applePay.served
        #expect(file.codes(of: .contentType).isEmpty && file.codes(of: .syntax) == [.applePay(.page)])
        #expect(file.path == "/.well-known/apple-developer-merchantid-domain-association" && !file.hasExtension)
        for code in ApplePayCode.allCases {
            #expect(code.definition.category == AssociationKind.applePay.category, "\(code.rawValue)")
            #expect(code.rawValue.hasPrefix(AssociationKind.applePay.codePrefix))
        }
        #expect(Set(ApplePayLimits.tls13Suites + ApplePayLimits.tls12Suites).count == 6, "Apple's six suites")
    }

    /// Its record section reads back, and holds neither field when nothing is known.
    @Test func itsRecordReadsBack() throws {
        let record = ApplePayRecord(
            expectedApplePaySHA256: [Self.hash],
            applePay: ApplePayFile(bytes: 10_000, sha256: Self.hash, contentType: "text/plain"))
        let decoded = try JSONDecoder().decode(ApplePayRecord.self, from: try JSONEncoder().encode(record))
        #expect(decoded == record)
        #expect(
            try ApplePayRecord.decodeIfPresent(from: JSONDecoder().decode(Probe.self, from: Data("{}".utf8)).decoder)
                == nil)
    }

    /// A decoder of a JSON value, for `decodeIfPresent`.
    struct Probe: Decodable {
        let decoder: any Decoder
        init(from decoder: any Decoder) throws { self.decoder = decoder }
    }
}
