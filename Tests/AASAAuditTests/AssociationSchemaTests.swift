import AASAChecks
import AASAModel
import AASAReport
import Foundation
import TestSupport
import Testing

/// The association files' own JSON Schemas (`schemas/`, `aasa-audit schema`), held by a real
/// validator (Python's jsonschema, Draft 2020-12): every shape the devices read is accepted,
/// the mistakes structure can catch are refused.
@Suite(
    .live, .tags(.live), .enabled(if: ReportSchemaValidator.isAvailable, "\(ReportSchemaValidator.unavailableMessage)"))
struct AssociationSchemaTests {
    static let shared = Repository.shared
    /// `../shared/oracles`, which a user's clone does not have: the tests that read it skip.
    static let hasOracles = FileManager.default.fileExists(atPath: shared.appendingPathComponent("oracles").path)
    static let noOracles = "../shared/oracles is absent (a user's clone has none): skipping"
    static let aasaSchema = Repository.file("schemas/apple-app-site-association.schema.json")
    static let assetLinksSchema = Repository.file("schemas/assetlinks.schema.json")

    static func files(in folder: String) -> [URL] {
        let url = shared.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { !$0.hasSuffix(".md") && !$0.hasSuffix(".tsv") }.sorted().map {
            url.appendingPathComponent($0)
        }
    }

    /// The document of a file the JSON parser reads (a byte-order mark aside), or nil.
    static func document(_ bytes: [UInt8]) -> Data? {
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard (try? JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed])) != nil else {
            return nil
        }
        return Data(text)
    }

    /// Whether the tool passes a file but for the sample app IDs of Apple's documentation.
    static func passesButForSamplePrefixes(_ bytes: [UInt8]) -> Bool {
        FileLint.lint(bytes, size: bytes.count).findings.allSatisfy { finding in
            finding.severity != .error
                || (finding.code == .aasa(.appIDMalformed) && finding.message.contains("sample prefix"))
        }
    }

    /// The embedded copies `aasa-audit schema` prints are the repository's files.
    @Test func theCommandPrintsTheRepositorysFiles() throws {
        for schema in AssociationSections.schemas {
            let file = try String(contentsOf: Repository.file("schemas/\(schema.file)"), encoding: .utf8)
            #expect(schema.text + "\n" == file, "\(schema.file) is stale: run Scripts/generate-docs.sh")
        }
        // The report's schema too, which `mcp`'s tools declare their output with.
        let report = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Repository.file("docs/report.schema.json")))
        let embedded = try JSONSerialization.jsonObject(with: Data(ReportSchemaDocument.document.utf8))
        #expect(
            (report as? NSDictionary) == (embedded as? NSDictionary),
            "the embedded report schema is stale: run Scripts/generate-docs.sh")
    }

    @Test(.enabled(if: hasOracles, "\(noOracles)"))
    func everyAASAFileTheToolPassesIsValidAndTheMistakesAreNot() async throws {
        var passing: [(String, Data)] = []
        for url in Self.files(in: "corpus/aasa") + Self.files(in: "corpus/wild/aasa") {
            let bytes = Array(try Data(contentsOf: url))
            guard FileLint.lint(bytes, size: bytes.count).verdict == .pass, let json = Self.document(bytes) else {
                continue
            }
            passing.append((url.lastPathComponent, json))
        }
        // Apple's documentation examples (and cases derived from them) that the tool passes but
        // for their sample prefixes; swcutil's probes of malformed files are not shapes to accept.
        let oracle = Self.shared.appendingPathComponent("oracles/aasa-matching-cases.jsonl")
        var examples = 0
        for line in try String(contentsOf: oracle, encoding: .utf8).split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard let aasa = object?["aasa"], (object?["source"] as? String) != "swcutil oracle" else { continue }
            let json = try JSONSerialization.data(withJSONObject: aasa)
            guard Self.passesButForSamplePrefixes(Array(json)) else { continue }
            passing.append((object?["id"] as? String ?? "example", json))
            examples += 1
        }
        #expect(examples >= 15, "Apple's examples were not read: \(examples)")
        #expect(passing.count > 300, "the corpus was not read: \(passing.count)")
        let valid = Self.validShapes.enumerated().map {
            ("valid shape \($0.offset): \($0.element)", Data($0.element.utf8))
        }
        #expect(valid.allSatisfy { Self.document(Array($0.1)) != nil }, "a valid shape here is not JSON")
        let rejectedValid = try await ReportSchemaValidator.invalid(passing + valid, schema: Self.aasaSchema)
        #expect(rejectedValid.isEmpty, "valid files the schema refuses: \(rejectedValid.prefix(5))")

        let mistakes = Self.mistakes.map { ($0, Data($0.utf8)) }
        let refused = try await ReportSchemaValidator.invalid(mistakes, schema: Self.aasaSchema)
        #expect(
            Set(refused.keys) == Set(Self.mistakes),
            "mistakes accepted: \(Set(Self.mistakes).subtracting(refused.keys))")
    }

    /// What SchemaStore's schema refuses and iOS reads (issue 40).
    static let validShapes = [
        ##"{"applinks": {"defaults": {"caseSensitive": false, "percentEncoded": false}, "substitutionVariables": {"lang": ["en", "fr"]}, "details": [{"appIDs": ["QX7TM4K2RB.com.example-corp.app"], "components": [{"/": "/$(lang)/*", "comment": "localised", "caseSensitive": true, "percentEncoded": true, "?": {"ref": "*"}, "#": "top"}], "defaults": {"caseSensitive": true}}]}}"##,
        #"{"webcredentials": {"apps": ["QX7TM4K2RB.com.example.app"]}}"#,
        #"{"activitycontinuation": {"apps": ["QX7TM4K2RB.com.example.app"]}, "appclips": {"apps": ["QX7TM4K2RB.com.example.app.Clip"]}}"#,
        #"{"applinks": {"apps": [], "details": [{"appID": "QX7TM4K2RB.com.example.app", "paths": ["/shop/*", "NOT /shop/admin/*"]}]}}"#,
        #"{"applinks": {"details": [{"appID": "QX7TM4K2RB.com.example.app", "appIDs": ["QX7TM4K2RB.com.example.app"], "paths": ["*"], "components": [{"/": "*"}], "comment": "both formats"}]}}"#,
        #"{"applinks": {"apps": [], "details": {"QX7TM4K2RB.com.example.app": {"paths": ["*"]}}}}"#,
    ]

    /// What a schema can refuse by structure: each of these breaks links or names no app.
    static let mistakes = [
        #"{}"#, #"[]"#, #"{"applink": {"details": []}}"#,
        #"{"applinks": {"details": [{"appIDs": "QX7TM4K2RB.com.example.app", "components": [{"/": "*"}]}]}}"#,
        #"{"applinks": {"details": [{"appID": "qx7tm4k2rb.com.example.app", "paths": ["*"]}]}}"#,
        #"{"applinks": {"details": [{"appIDs": [], "components": [{"/": "*"}]}]}}"#,
        #"{"applinks": {"details": [{"components": [{"/": "*"}]}]}}"#,
        #"{"applinks": {"details": [{"appIds": ["QX7TM4K2RB.com.example.app"], "components": [{"/": "*"}]}]}}"#,
        #"{"applinks": {"details": [{"appIDs": ["QX7TM4K2RB.com.example.app"], "components": [{"path": "/shop/*"}]}]}}"#,
        #"{"applinks": {"details": [{"appIDs": ["QX7TM4K2RB.com.example.app"], "components": [{"/": "/a", "exclude": "true"}]}]}}"#,
        #"{"applinks": {"apps": ["QX7TM4K2RB.com.example.app"], "details": []}}"#,
        #"{"applinks": {"details": [{"appID": "QX7TM4K2RB.com.example.app", "paths": "*"}]}}"#,
        #"{"applinks": {"defaults": {"caseSensitve": false}, "details": []}}"#,
        #"{"webcredentials": {"apps": "QX7TM4K2RB.com.example.app"}}"#,
        #"{"webcredentials": {"apps": ["com.example.app"]}}"#,
    ]

    @Test(.enabled(if: hasOracles, "\(noOracles)"))
    func everyListGoogleAcceptsIsValidAndEveryListItSkipsIsNot() async throws {
        let oracle = Self.shared.appendingPathComponent("oracles/google-dal-compat-2000.jsonl")
        var accepted: [(String, Data)] = []
        var skipped: [(String, Data)] = []
        for line in try String(contentsOf: oracle, encoding: .utf8).split(separator: "\n") {
            let test = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let name = test["name"] as? String ?? "?"
            guard let body = test["body"] as? String, let json = Self.document(Array(body.utf8)) else { continue }
            if test["expect"] as? String == "ok" { accepted.append((name, json)) } else { skipped.append((name, json)) }
        }
        for url in Self.files(in: "corpus/wild/assetlinks") {
            let bytes = Array(try Data(contentsOf: url))
            guard FileLint.lintAssetLinks(bytes, size: bytes.count, expected: []).verdict == .pass,
                let json = Self.document(bytes)
            else { continue }
            accepted.append((url.lastPathComponent, json))
        }
        #expect(accepted.count > 60 && skipped.count > 20, "\(accepted.count) accepted, \(skipped.count) skipped")
        let shapes = Self.validLists.enumerated().map { ("valid list \($0.offset)", Data($0.element.utf8)) }
        let refused = try await ReportSchemaValidator.invalid(accepted + shapes, schema: Self.assetLinksSchema)
        #expect(refused.isEmpty, "lists Google accepts that the schema refuses: \(refused.prefix(5))")
        let mistakes = (skipped + Self.listMistakes.map { ($0, Data($0.utf8)) })
        let caught = try await ReportSchemaValidator.invalid(mistakes, schema: Self.assetLinksSchema)
        let missed = mistakes.map(\.0).filter { caught[$0] == nil }
        #expect(missed.isEmpty, "lists Google skips that the schema accepts: \(missed)")
    }

    static let fingerprint = (0..<32).map { _ in "AB" }.joined(separator: ":")

    /// What SchemaStore's schema refuses and Android reads (issue 40).
    static let validLists = [
        #"[{"include": "https://example.com/more-assetlinks.json"}]"#,
        ##"[{"relation": ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds", "delegate_permission/common.use_as_origin"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["\##(fingerprint)"]}, "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [{"/": "/shop/*"}, {"/": "/shop/admin/*", "exclude": true, "comment": "staff"}, {"?": {"ref": "*"}, "#": "top"}]}}}]"##,
        #"[{"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "web", "site": "https://www.example.com"}}]"#,
    ]

    static let listMistakes = [
        #"[{}]"#, #"[]"#, #"{"relation": ["delegate_permission/common.handle_all_urls"]}"#,
        #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["\#(fingerprint.lowercased())"]}}]"#,
        #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01"]}}]"#,
        #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "web", "site": "https://example.com/"}}]"#,
        #"[{"relation": "delegate_permission/common.handle_all_urls", "target": {"namespace": "web", "site": "https://example.com"}}]"#,
        #"[{"include": "https://example.com/a.json", "relation": ["delegate_permission/common.handle_all_urls"]}]"#,
        #"[{"relation": ["handle_all_urls"], "target": {"namespace": "web", "site": "https://example.com"}}]"#,
    ]

    /// `schema webauthn`: the files browsers read are valid (a path, a port, a wildcard host read
    /// literally), and the mistakes the schema can see are not (a bare host, a non-string entry,
    /// an array, no origins, none listed).
    @Test func theWebAuthnSchemaAcceptsWhatBrowsersReadAndRefusesTheMistakes() async throws {
        let schema = Repository.file("schemas/webauthn.schema.json")
        let valid = [
            #"{"origins": ["https://shop.example"]}"#,
            #"{"origins": ["https://shop.example", "https://example.co.uk:8443", "https://b.test/login"]}"#,
            #"{"origins": ["https://*.example.com"], "comment": "ignored by browsers"}"#,
        ].enumerated().map { (name: "valid \($0.offset)", json: Data($0.element.utf8)) }
        let refused = try await ReportSchemaValidator.invalid(valid, schema: schema)
        #expect(refused.isEmpty, "valid files refused: \(refused)")
        let mistakes = [
            #"{"origins": ["example.co.uk"]}"#, #"{"origins": [42]}"#, #"["https://shop.example"]"#,
            #"{"origin": ["https://shop.example"]}"#, #"{"origins": []}"#, #"{"origins": "https://shop.example"}"#,
        ].enumerated().map { (name: "mistake \($0.offset)", json: Data($0.element.utf8)) }
        let caught = try await ReportSchemaValidator.invalid(mistakes, schema: schema)
        #expect(Set(caught.keys) == Set(mistakes.map(\.name)), "mistakes passed: \(caught.keys.sorted())")
        // And the tool agrees: each mistake is an error to lint.
        for mistake in mistakes {
            let verdict = WebAuthnChecks.assessContent(Array(mistake.json), expected: [], at: .file).findings
            #expect(verdict.contains { $0.severity >= .warning }, "\(mistake.name)")
        }
    }

    /// `schema passkey-endpoints`: {} and absolute https endpoints (unknown members kept) are
    /// valid; an endpoint that is not an https URL, or not a string, and a non-object are not.
    @Test func thePasskeyEndpointsSchemaAcceptsTheSpecsShapesAndRefusesTheMistakes() async throws {
        let schema = Repository.file("schemas/passkey-endpoints.schema.json")
        let valid = [
            "{}", #"{"enroll": "https://example.com/passkeys/new", "manage": "https://example.com/account"}"#,
            #"{"prfUsageDetails": "https://example.com/prf", "future": 1}"#,
        ].enumerated().map { (name: "valid \($0.offset)", json: Data($0.element.utf8)) }
        #expect(try await ReportSchemaValidator.invalid(valid, schema: schema).isEmpty)
        let mistakes = [
            #"{"enroll": "/passkeys/new"}"#, #"{"manage": "http://example.com/account"}"#, #"{"enroll": 1}"#, "[]",
        ].enumerated().map { (name: "mistake \($0.offset)", json: Data($0.element.utf8)) }
        let caught = try await ReportSchemaValidator.invalid(mistakes, schema: schema)
        #expect(Set(caught.keys) == Set(mistakes.map(\.name)), "mistakes passed: \(caught.keys.sorted())")
        for mistake in mistakes {
            let findings = PasskeyEndpointsChecks.assessContent(Array(mistake.json), at: .file).findings
            #expect(findings.contains { $0.severity == .error }, "\(mistake.name)")
        }
    }

    /// `schema windows`: Microsoft's example (its package family name, `paths`, `excludePaths`)
    /// and `allowSubdomains` are valid; the mistakes are not (an object, a placeholder name, an
    /// upper-case publisher ID, `paths` as a string, `allowSubdomains` as a string, no name).
    @Test func theWindowsSchemaAcceptsMicrosoftsExampleAndRefusesTheMistakes() async throws {
        let schema = Repository.file("schemas/windows.schema.json")
        let valid = [
            #"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["*"], "excludePaths": ["/news/*", "/blog/*"]}]"#,
            #"[{"packageFamilyName": "Contoso.App_8wekyb3d8bbwe", "paths": ["/shop/?"], "allowSubdomains": true}, {"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["/"]}]"#,
        ].enumerated().map { (name: "valid \($0.offset)", json: Data($0.element.utf8)) }
        #expect(try await ReportSchemaValidator.invalid(valid, schema: schema).isEmpty)
        for file in valid {
            let findings = WindowsChecks.assessContent(Array(file.json), expected: [], at: .file).findings
            #expect(!findings.contains { $0.severity == .error }, "\(file.name): \(findings.map(\.message))")
        }
        let mistakes = [
            #"{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["*"]}"#,
            #"[{"packageFamilyName": "Your app's package family name, e.g MyApp_9jmtgj1pbbz6e", "paths": ["*"]}]"#,
            #"[{"packageFamilyName": "MyApp_9JMTGJ1PBBZ6E", "paths": ["*"]}]"#,
            #"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": "*"}]"#,
            #"[{"packageFamilyName": "MyApp_9jmtgj1pbbz6e", "paths": ["*"], "allowSubdomains": "true"}]"#,
            #"[{"paths": ["*"]}]"#,
        ].enumerated().map { (name: "mistake \($0.offset)", json: Data($0.element.utf8)) }
        let caught = try await ReportSchemaValidator.invalid(mistakes, schema: schema)
        #expect(Set(caught.keys) == Set(mistakes.map(\.name)), "mistakes passed: \(caught.keys.sorted())")
        for mistake in mistakes {
            let findings = WindowsChecks.assessContent(Array(mistake.json), expected: [], at: .file).findings
            #expect(findings.contains { $0.severity == .error }, "\(mistake.name)")
        }
    }

    /// `schema harmony`: the documented shape (an index, repeated indexes) is valid; the blog
    /// posts' `app_id` shapes, an empty list, a number for appIdentifier, an index out of range
    /// and a top-level array are not.
    @Test func theHarmonySchemaAcceptsTheDocumentedShapeAndRefusesTheMistakes() async throws {
        let schema = Repository.file("schemas/harmony.schema.json")
        let valid = [
            #"{"applinking": {"apps": [{"appIdentifier": "5765880207854972765"}]}}"#,
            #"{"applinking": {"apps": [{"appIdentifier": "5765880207854972765", "index": 100}, {"appIdentifier": "6917562422453928843", "index": 100}]}}"#,
        ].enumerated().map { (name: "valid \($0.offset)", json: Data($0.element.utf8)) }
        #expect(try await ReportSchemaValidator.invalid(valid, schema: schema).isEmpty)
        for file in valid {
            let findings = HarmonyChecks.assessContent(Array(file.json), expected: [], at: .file).findings
            #expect(findings.isEmpty, "\(file.name): \(findings.map(\.message))")
        }
        let mistakes = [
            #"{"app_id": "5765880207854972765"}"#, #"{"applinking": {"apps": [{"app_id": "5765880207854972765"}]}}"#,
            #"{"applinking": {"apps": []}}"#, #"{"applinking": {"apps": [{"appIdentifier": 5765880207854972765}]}}"#,
            #"{"applinking": {"apps": [{"appIdentifier": "5765880207854972765", "index": 101}]}}"#,
            #"[{"appIdentifier": "5765880207854972765"}]"#,
        ].enumerated().map { (name: "mistake \($0.offset)", json: Data($0.element.utf8)) }
        let caught = try await ReportSchemaValidator.invalid(mistakes, schema: schema)
        #expect(Set(caught.keys) == Set(mistakes.map(\.name)), "mistakes passed: \(caught.keys.sorted())")
        for mistake in mistakes {
            let findings = HarmonyChecks.assessContent(Array(mistake.json), expected: [], at: .file).findings
            #expect(findings.contains { $0.severity == .error }, "\(mistake.name)")
        }
    }
}
