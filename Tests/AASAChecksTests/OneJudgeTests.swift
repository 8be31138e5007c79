import AASAModel
import Testing

@testable import AASAChecks

/// One judge (issue 55): a file gets the same verdict and codes from `lint` (`FileLint`, what
/// the Action and the pre-commit hook run) as from the audit of it served at `.well-known`
/// (`DomainChecks.assess`), given the same expectations a domains.txt line gives; the findings
/// about the place it is served at aside (a local file has none).
struct OneJudgeTests {
    static let id = "ABCDE12346.com.example.app"
    static let other = "ABCDE12346.com.example.other"
    static let webcredentialsOnly = #"{"webcredentials":{"apps":["\#(id)"]}}"#
    static let applinksOnly =
        #"{"applinks":{"details":[{"appIDs":["\#(id)"],"components":[{"/":"/buy/*"}]}]}}"#
    static let both =
        #"{"applinks":{"details":[{"appIDs":["\#(id)"],"components":[{"/":"/buy/*"}]}]},"webcredentials":{"apps":["\#(id)"]}}"#

    static var passkeys: AssociationWants {
        var wants = AssociationWants()
        wants[PasskeyEndpointsWant.self] = PasskeyEndpointsWant()
        return wants
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var file: String
        var appIDs: [String]
        var wants = AssociationWants()
        var expectations: [URLExpectation] = []
        var testDescription: String { "\(appIDs) \(wants.all.map { type(of: $0).kind.id }) on \(file.prefix(60))" }
    }

    static let cases: [Case] = [
        // A webcredentials-only file for a webcredentials app ID: passes (it failed lint with
        // applinks.missing and appid.missing).
        Case(file: webcredentialsOnly, appIDs: ["webcredentials:\(id)"]),
        Case(file: applinksOnly, appIDs: ["webcredentials:\(id)"]),
        Case(file: webcredentialsOnly, appIDs: ["webcredentials:\(other)"]),
        // passkeys with an app ID: webcredentials must name it (lint passed without it).
        Case(file: applinksOnly, appIDs: [id], wants: passkeys),
        Case(file: both, appIDs: [id], wants: passkeys),
        Case(file: applinksOnly, appIDs: [id]),
        Case(file: applinksOnly, appIDs: [other]),
        Case(file: applinksOnly, appIDs: []),
        Case(file: webcredentialsOnly, appIDs: []),
        Case(file: webcredentialsOnly, appIDs: [id]),
        Case(file: both, appIDs: ["appclips:\(id)"]),
        Case(
            file: applinksOnly, appIDs: [id],
            expectations: [
                URLExpectation(url: "https://example.com/buy/1", opensApp: true, inputLine: 2),
                URLExpectation(url: "https://example.com/sell", opensApp: true, inputLine: 3),
            ]),
    ]

    /// The codes and severities of what a judge said, the place it is served at aside.
    static func judged(_ findings: [Finding]) -> [String] {
        findings.filter { ![.aasa(.locationRootAbsent), .aasa(.locationRootOnly)].contains($0.code) }
            .map { "\($0.code.rawValue) \($0.severity)" }.sorted()
    }

    @Test(arguments: cases) func lintJudgesAFileAsTheAuditDoes(_ example: Case) {
        let target = DomainTarget(
            domain: "example.com", expectedAppIDs: example.appIDs, expectations: example.expectations,
            wants: example.wants)
        let audit = DomainChecks.assess(
            target: target, wellKnown: Fixture.served(example.file), root: Fixture.served("", at: .root, status: 404))
        let bytes = Array(example.file.utf8)
        let lint = FileLint.lint(bytes, size: bytes.count, expecting: target)
        #expect(Self.judged(lint.findings) == Self.judged(audit.findings))
        #expect(lint.verdict == Verdict(findings: audit.findings))
    }

    /// The cases above are not all passes: the comparison holds of failures too.
    @Test func theCasesIncludeFailuresOfEachExpectation() {
        let codes = Set(
            Self.cases.flatMap { example in
                let target = DomainTarget(
                    domain: "example.com", expectedAppIDs: example.appIDs, expectations: example.expectations,
                    wants: example.wants)
                let bytes = Array(example.file.utf8)
                return FileLint.lint(bytes, size: bytes.count, expecting: target).findings.map(\.code)
            })
        #expect(
            codes.isSuperset(of: [
                .aasa(.serviceMissing), .aasa(.appIDMissing), .aasa(.applinksMissing), .aasa(.matchExpectedApp),
            ]))
    }

    /// `--passkeys --android PKG`: an assetlinks.json that does not share logins with the app
    /// fails lint as it fails the audit (`assetlinks.login-creds`).
    @Test func lintAsksAnAndroidAppToShareLoginsWhenTheDomainDeclaresPasskeys() {
        let file = Array(
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]"#
                .utf8)
        var wants = Self.passkeys
        wants[AndroidWant.self] = AndroidWant(apps: [AndroidApp(package: "com.example.app")])
        let withPasskeys = AssociationFileLint.lint(file, size: file.count, wants: wants, path: "assetlinks.json")
        #expect(withPasskeys?.findings.map(\.code) == [.assetLinks(.loginCreds)])
        wants[PasskeyEndpointsWant.self] = nil
        let without = AssociationFileLint.lint(file, size: file.count, wants: wants, path: "assetlinks.json")
        #expect(without?.findings.isEmpty == true, "\(String(describing: without?.findings))")
    }
}

/// A file deployed as a served name with `.json` added is never read by a device or browser:
/// lint says so (`location.misnamed`, as the audit says of a site serving only that name), and
/// judges its content as the kind it was meant to be (issue 55, item 1).
struct MisnamedLintTests {
    @Test(arguments: [
        "site/.well-known/apple-app-site-association.json", "site/.well-known/webauthn.json",
        "passkey-endpoints.json", "windows-app-web-link.json",
    ])
    func aServedNameWithJSONAddedIsMisnamed(_ path: String) throws {
        let finding = try #require(AssociationFileLint.misnamed(path))
        #expect(finding.code == .aasa(.locationMisnamed) && finding.severity == .error)
        let intended = String(path.split(separator: "/").last!.dropLast(5))
        #expect(finding.message.contains("/.well-known/\(intended),"), "\(finding.message)")
    }

    @Test(arguments: [
        "apple-app-site-association", "assetlinks.json", ".well-known/applinking.json", "webauthn", "config.json",
        "aasa.json",
    ])
    func otherNamesAreNot(_ path: String) {
        #expect(AssociationFileLint.misnamed(path) == nil)
    }

    @Test func webauthnJSONIsJudgedAsAWebAuthnFile() throws {
        let bytes = Array(#"{"origins":["https://shop.example.com"]}"#.utf8)
        let result = try #require(
            AssociationFileLint.lint(bytes, size: bytes.count, wants: AssociationWants(), path: "x/webauthn.json"))
        #expect(result.associations[WebAuthnRecord.self] != nil, "\(result.associations)")
    }
}

/// A file no name or option says the kind of is known by its content: an empty list and a list
/// after a byte-order mark are an `assetlinks.json`'s, said in its words (issue 55, item 3: `[]`
/// got `json.not-object`, and the mark was "what iOS rejects").
struct ContentKindTests {
    @Test func anEmptyListIsAnAssetLinksFile() throws {
        let result = try #require(AssociationFileLint.lint(Array("[]".utf8), size: 2, wants: AssociationWants()))
        #expect(result.findings.map(\.code) == [.assetLinks(.notList)])
    }

    @Test func aMarkedListIsAnAssetLinksFileGoogleRejects() throws {
        let bytes = [0xEF, 0xBB, 0xBF] + Array(#"[{"relation":["x"],"target":{}}]"#.utf8)
        let result = try #require(AssociationFileLint.lint(bytes, size: bytes.count, wants: AssociationWants()))
        #expect(result.findings.map(\.code) == [.assetLinks(.jsonInvalid)])
        #expect(result.findings.first?.message.contains("Google") == true)
        #expect(result.findings.first?.message.contains("iOS") == false)
    }

    @Test func anAASAIsStillAnAASA() {
        let bytes = Array(#"{"applinks":{"details":[]}}"#.utf8)
        #expect(AssociationFileLint.lint(bytes, size: bytes.count, wants: AssociationWants()) == nil)
    }
}
