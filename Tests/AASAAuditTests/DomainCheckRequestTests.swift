import AASAModel
import Testing

@testable import AASAAudit
@testable import AASAServe

/// One reading of a check, whichever front end asks it (issue 57: serve's query and the MCP
/// tool's arguments were two near copies): the same values are the same check, and a refusal
/// differs only in how each front end names its parameters.
@Suite struct DomainCheckRequestTests {
    static let arguments = DomainCheck.Naming(
        appIDs: "app_ids", ios: "ios_none", iosNone: "ios_none", value: { "\($0): \($1)" })
    static let appID = "QX7TM4K2RB.com.example.app"

    @Test func theSameValuesAreTheSameCheck() throws {
        let request = DomainCheck.Request(
            domain: "https://Shop.Example.com/buy?x=1", appIDs: [Self.appID], kinds: ["android": ["com.example.app"]])
        for naming in [DomainCheck.Naming.query, Self.arguments] {
            let read = try DomainCheck.read(request, naming: naming)
            #expect(read.host == "shop.example.com" && read.aasa == AASAWant(appIDs: [Self.appID]))
            #expect(read.wants[AndroidWant.self]?.apps.map(\.package) == ["com.example.app"])
        }
        let none = try DomainCheck.read(DomainCheck.Request(domain: "example.com", ios: "none"), naming: .query)
        #expect(none.aasa == nil)
    }

    @Test func aRefusalNamesTheParameterAsItsFrontEndDoes() {
        let cases: [(DomainCheck.Request, query: String, arguments: String)] = [
            (
                DomainCheck.Request(domain: "example.com", appIDs: [Self.appID], ios: "none"),
                "app-id names apps the AASA must list; with ios=none no AASA is asked for.",
                "app_ids names apps the AASA must list; with ios_none no AASA is asked for."
            ),
            (
                DomainCheck.Request(domain: "example.com", ios: "maybe"),
                "ios takes none (the domain serves no AASA), not maybe.",
                "ios_none takes none (the domain serves no AASA), not maybe."
            ),
        ]
        for (request, query, arguments) in cases {
            #expect(throws: DomainCheck.Refusal(message: query)) { try DomainCheck.read(request, naming: .query) }
            #expect(throws: DomainCheck.Refusal(message: arguments)) {
                try DomainCheck.read(request, naming: Self.arguments)
            }
        }
        let badValue = DomainCheck.Request(domain: "example.com", kinds: ["android": ["not a package"]])
        #expect(throws: DomainCheck.Refusal.self) { try DomainCheck.read(badValue, naming: .query) }
        for (naming, prefix) in [
            (DomainCheck.Naming.query, "android=not a package: "), (Self.arguments, "android: not a package: "),
        ] {
            do {
                _ = try DomainCheck.read(badValue, naming: naming)
                Issue.record("a bad package was read")
            } catch {
                #expect(error.message.hasPrefix(prefix), "\(error.message)")
            }
        }
        #expect(throws: DomainCheck.Refusal.self) {
            try DomainCheck.read(DomainCheck.Request(domain: "exa mple.com"), naming: .query)
        }
        // An app ID's refusal names the front end's parameter, not the command line's option.
        let sample = DomainCheck.Request(domain: "example.com", appIDs: ["ABCDE12345.com.example.app"])
        for (naming, name) in [(DomainCheck.Naming.query, "app-id "), (Self.arguments, "app_ids ")] {
            do {
                _ = try DomainCheck.read(sample, naming: naming)
                Issue.record("a sample prefix was read")
            } catch {
                #expect(error.message.hasPrefix(name) && error.message.contains("sample prefix"), "\(error.message)")
            }
        }
    }

    /// Apple Pay's field: `on` (the form's and the API's "any file") or the provider file's hash;
    /// anything else is refused naming the field.
    @Test func applePayIsAskedForByOnOrAHash() throws {
        let hash = String(repeating: "ab", count: 32)
        let on = try DomainCheck.read(
            DomainCheck.Request(domain: "shop.example.com", ios: "none", kinds: ["applepay": ["on"]]), naming: .query)
        #expect(on.aasa == nil && on.wants[ApplePayWant.self] == ApplePayWant())
        let pinned = try DomainCheck.read(
            DomainCheck.Request(domain: "shop.example.com", kinds: ["applepay": [hash.uppercased()]]), naming: .query)
        #expect(pinned.wants[ApplePayWant.self] == ApplePayWant(sha256: hash))
        do {
            _ = try DomainCheck.read(
                DomainCheck.Request(domain: "shop.example.com", kinds: ["applepay": ["yes"]]), naming: .query)
            Issue.record("a value that is neither on nor a hash was read")
        } catch {
            #expect(error.message.hasPrefix("applepay=yes: "), "\(error.message)")
        }
    }
}
