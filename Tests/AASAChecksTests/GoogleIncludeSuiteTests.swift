import AASAChecks
import AASAModel
import Testing

/// The cases of Google's include suite (`compatibility-tests/v1/5000-include-file-processing`)
/// that apply to a web asset served over HTTPS, as fixtures of our own: the included lists as
/// the audit hands them to the checks (fetched, or not fetched and why). Google's answer for each:
/// whether it reports an error, and whether the app counts as declared. The fetching itself
/// (chains, cycles, redirects, 404s, refused addresses) is `AssetLinksIncludeTests`, on loopback.
/// 5007 to 5009 start from an Android app or a plain-HTTP source, which this tool never audits.
@Suite struct GoogleIncludeSuiteTests {
    static let fingerprint = (0..<32).map { _ in "5A" }.joined(separator: ":")
    static func app(_ package: String) -> String {
        #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": ["\#(fingerprint)"]}}"#
    }
    static let main = "https://source.example.net/.well-known/assetlinks.json"

    static func included(_ url: String, _ body: String?, from: String = main, notFetched: String? = nil)
        -> AssetLinksChecks.IncludedFile
    {
        var fetched = body.map { Fixture.served($0, at: .assetlinks) }
        fetched?.record.url = url
        return .init(url: url, includedFrom: from, fetched: fetched, notFetched: notFetched)
    }

    /// (case, main list, included lists, the package asked about, Google reports an error, declared)
    static let cases: [(Int, String, [AssetLinksChecks.IncludedFile], String, Bool, Bool)] = [
        (
            5001, #"[{"include": "https://source.example.net/valid.json"}]"#,
            [included("https://source.example.net/valid.json", "[\(app("net.example.case5001"))]")],
            "net.example.case5001", false, true
        ),
        (
            5002, #"[{"include": "https://source.example.net/invalid.json"}, \#(app("net.example.case5002"))]"#,
            [included("https://source.example.net/invalid.json", "INVALID_JSON")], "net.example.case5002", true, true
        ),
        (
            5003,
            #"[{"include": "https://include.example.net/invalid.json"}, {"include": "https://include.example.net/valid.json"}]"#,
            [
                included("https://include.example.net/invalid.json", "[\(app("net.example.case5003.invalid")),]"),
                included("https://include.example.net/valid.json", "[\(app("net.example.case5003.valid"))]"),
            ], "net.example.case5003.invalid", true, false
        ),
        (
            5003,
            #"[{"include": "https://include.example.net/invalid.json"}, {"include": "https://include.example.net/valid.json"}]"#,
            [
                included("https://include.example.net/invalid.json", "[\(app("net.example.case5003.invalid")),]"),
                included("https://include.example.net/valid.json", "[\(app("net.example.case5003.valid"))]"),
            ], "net.example.case5003.valid", true, true
        ),
        (
            5004, #"[{"include": "https://include.example.net/valid.json"}]"#,
            [included("https://include.example.net/valid.json", "[\(app("net.example.case5004"))]")],
            "net.example.case5004", false, true
        ),
        (
            5005, #"[{"include": "https://source.example.net/valid.json"}]"#,
            [
                included(
                    "https://source.example.net/valid.json",
                    #"[{"include": "https://source.example.net/loop.json"}, \#(app("net.example.case5005"))]"#),
                included(
                    "https://source.example.net/loop.json", #"[{"include": "https://source.example.net/valid.json"}]"#,
                    from: "https://source.example.net/valid.json"),
                included(
                    "https://source.example.net/valid.json", nil, from: "https://source.example.net/loop.json",
                    notFetched: "the includes form a cycle."),
            ], "net.example.case5005", true, true
        ),
        (
            5006, #"[{"include": "http://include.example.net/valid.json"}]"#, [], "net.example.case5006", true, false
        ),
        (
            5010, #"[{"include": "https://target.example.net:999999"}]"#, [], "net.example.case5010", true, false
        ),
        (5011, #"[{"include": "mailto://user@example.net"}]"#, [], "net.example.case5011", true, false),
    ]

    @Test(arguments: cases.indices)
    func includesAgreeWithGoogle(_ index: Int) {
        let (number, main, included, package, googleError, declared) = Self.cases[index]
        var fetched = Fixture.served(main, at: .assetlinks)
        fetched.record.url = Self.main
        let result = AssetLinksChecks.assess(fetched, included: included, expected: [AndroidApp(package: package)])
        let errors = result.findings.filter { $0.severity == .error && $0.code != .assetLinks(.packageMissing) }
        #expect(!errors.isEmpty == googleError, "\(number): \(result.findings.map(\.message))")
        let missing = result.findings.contains { $0.code == .assetLinks(.packageMissing) }
        #expect(missing == !declared, "\(number): \(result.findings.map(\.message))")
    }
}
