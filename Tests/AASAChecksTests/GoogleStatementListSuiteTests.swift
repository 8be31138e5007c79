import AASAChecks
import AASAModel
import Testing

/// Every case of Google's Digital Asset Links compatibility suite for statement lists
/// (`google/digitalassetlinks`, `compatibility-tests/v1/2000-web-statement-list-parsing`: 69
/// groups), as fixtures of our own: the same shapes with our own hosts, packages and
/// fingerprints. For each: whether Google reports an error (its API's FETCH_ERROR), which must
/// be exactly when `lint` fails; and Google's check answers, which `StatementList.grants` and
/// `lint --android PACKAGE@FINGERPRINT` must give.
@Suite struct GoogleStatementListSuiteTests {
    enum Check: Sendable, CustomStringConvertible {
        case app(String, String, String, Bool)
        case web(String, String, Bool)

        var description: String {
            switch self {
            case .app(let relation, let package, _, let answer): "\(relation) → \(package): \(answer)"
            case .web(let relation, let site, let answer): "\(relation) → \(site): \(answer)"
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let number: Int
        let name: String
        let googleError: Bool
        let body: String
        let checks: [Check]

        init(_ number: Int, _ name: String, googleError: Bool, _ body: String, checks: [Check]) {
            self.number = number
            self.name = name
            self.googleError = googleError
            self.body = body
            self.checks = checks
        }

        var testDescription: String { "\(number): \(name)" }
    }

    // swift-format-ignore
    static let cases: [Case] = [
        Case(2001, "statement list with valid statements (multiple statements and multiple relations)", googleError: false,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\", \"delegate_permission/common.get_user_location\"], \"target\" : { \"namespace\": \"android_app\", \"package_name\": \"net.example.case2001\", \"sha256_cert_fingerprints\": [\"25:30:3B:46:51:5C:67:72:7D:88:93:9E:A9:B4:BF:CA:D5:E0:EB:F6:01:0C:17:22:2D:38:43:4E:59:64:6F:7A\"] }}, {\"relation\": [ \"delegate_permission/common.get_login_creds\" ], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2001.example.net\" }}] ",
             checks: [.app("delegate_permission/common.handle_all_urls", "net.example.case2001", "25:30:3B:46:51:5C:67:72:7D:88:93:9E:A9:B4:BF:CA:D5:E0:EB:F6:01:0C:17:22:2D:38:43:4E:59:64:6F:7A", true), .app("delegate_permission/common.get_user_location", "net.example.case2001", "25:30:3B:46:51:5C:67:72:7D:88:93:9E:A9:B4:BF:CA:D5:E0:EB:F6:01:0C:17:22:2D:38:43:4E:59:64:6F:7A", true), .web("delegate_permission/common.get_login_creds", "https://target-case2001.example.net", true)]),
        Case(2002, "empty statement list", googleError: true,
             "[]",
             checks: []),
        Case(2003, "single invalid statement in statements list is skipped", googleError: true,
             "[{\"target\": {\"namespace\": \"web\", \"site\": \"https://target-case2003.example.net\"}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}, {}, {\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"android_app\", \"package_name\": \"net.example.case2003\", \"sha256_cert_fingerprints\": [\"4A:55:60:6B:76:81:8C:97:A2:AD:B8:C3:CE:D9:E4:EF:FA:05:10:1B:26:31:3C:47:52:5D:68:73:7E:89:94:9F\"]}}]",
             checks: [.web("delegate_permission/common.get_login_creds", "https://target-case2003.example.net", true), .app("delegate_permission/common.handle_all_urls", "net.example.case2003", "4A:55:60:6B:76:81:8C:97:A2:AD:B8:C3:CE:D9:E4:EF:FA:05:10:1B:26:31:3C:47:52:5D:68:73:7E:89:94:9F", true)]),
        Case(2004, "include directives do not allow other standard fields", googleError: true,
             "[{\"target\": {\"namespace\": \"web\", \"site\": \"https://target-case2004.example.net\"}, \"include\": \"https://source-case2004.example.net/includefile.json\" }]",
             checks: []),
        Case(2005, "include directives *do* allow other non-standard fields (for extensibility)", googleError: false,
             "[{\"magicfield\": {\"foo\": \"bar\"}, \"include\": \"https://source-case2005.example.net/includefile.json\" }]",
             checks: [.web("delegate_permission/common.get_login_creds", "https://target-case2005.example.net", true)]),
        Case(2006, "statement list parsing fails when JSON is invalid (1)", googleError: true,
             "[{",
             checks: []),
        Case(2007, "statement list parsing uses strict JSON parsing mode (security requirement) (1)", googleError: true,
             "42",
             checks: []),
        Case(2008, "statement list parsing uses strict JSON parsing mode (security requirement) (2)", googleError: true,
             "[{\"relation\": [ \"delegate_permission/common.handle_all_urls\", ], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2008.example.net\"} }]",
             checks: []),
        Case(2009, "statement list must be encoded as a single JSON array", googleError: true,
             "{\"relation\": [ \"delegate_permission/common.handle_all_urls\" ], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2009.example.net\"} }",
             checks: []),
        Case(2010, "statement list must be encoded as a JSON object", googleError: true,
             "\"foo\"",
             checks: []),
        Case(2011, "statement list must have a target", googleError: true,
             "[{\"relation\": [ \"delegate_permission/common.handle_all_urls\" ]}]",
             checks: []),
        Case(2012, "statement list must have a relation", googleError: true,
             "[{ \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2012.example.net\"} }]",
             checks: []),
        Case(2013, "asset descriptors must be objects", googleError: true,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : \"https://target-case2013.example.net\" }]",
             checks: []),
        Case(2014, "asset descriptors must use a recognized namespace", googleError: true,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : { \"namespace\": \"internets\", \"site\": \"https://target-case2014.example.net\"} }]",
             checks: []),
        Case(2101, "valid relation string in statement lists (1)", googleError: false,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2101.example.net\"} }]",
             checks: [.web("delegate_permission/common.handle_all_urls", "https://target-case2101.example.net.", true)]),
        Case(2102, "valid relation string in statement lists (2)", googleError: false,
             "[{\"relation\": [\"delegate_permission/write_on_the_walls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2102.example.net\"} }]",
             checks: [.web("delegate_permission/write_on_the_walls", "https://target-case2102.example.net.", true)]),
        Case(2103, "valid relation string in statement lists (3)", googleError: false,
             "[{\"relation\": [\"delegate_permission/org.digitalassetlinks.write_on_the_walls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2103.example.net\"} }]",
             checks: [.web("delegate_permission/org.digitalassetlinks.write_on_the_walls", "https://target-case2103.example.net.", true)]),
        Case(2104, "valid relation string in statement lists (4)", googleError: false,
             "[{\"relation\": [\"navigate/yellow_brick_road\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2104.example.net\"} }]",
             checks: [.web("navigate/yellow_brick_road", "https://target-case2104.example.net.", true)]),
        Case(2105, "valid relation string in statement lists (5)", googleError: false,
             "[{\"relation\": [\"delegate_permission/get_login_creds\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2105.example.net\"} }]",
             checks: [.web("delegate_permission/get_login_creds", "https://target-case2105.example.net.", true)]),
        Case(2106, "missing relation string in statement list", googleError: true,
             "[{ \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2106.example.net\"} }]",
             checks: []),
        Case(2107, "Relation must be non-empty", googleError: true,
             "[{\"relation\": [\"\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2107.example.net\"} }]",
             checks: []),
        Case(2108, "relations must be given as an array", googleError: true,
             "[{\"relation\": \"delegate_permission/common.handle_all_urls\", \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2108.example.net\"} }]",
             checks: []),
        Case(2109, "individual relations must be strings", googleError: true,
             "[{\"relation\": [ {} ], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2109.example.net\"} }]",
             checks: []),
        Case(2110, "relations must not have wildcards", googleError: true,
             "[{\"relation\": [\"delegate_permission/*\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2110.example.net\"} }]",
             checks: []),
        Case(2111, "relation string with invalid kind (1)", googleError: true,
             "[{\"relation\": [\"INVALID_KIND/write_on_the_walls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2111.example.net\"} }]",
             checks: []),
        Case(2112, "relation string with invalid kind (2)", googleError: true,
             "[{\"relation\": [\"/write_on_the_walls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2112.example.net\"} }]",
             checks: []),
        Case(2113, "relation string with invalid kind (3)", googleError: true,
             "[{\"relation\": [\"/\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2113.example.net\"} }]",
             checks: []),
        Case(2114, "invalid relation string (1)", googleError: true,
             "[{\"relation\": [\"write_on_the_walls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2114.example.net\"} }]",
             checks: []),
        Case(2115, "invalid relation string (2)", googleError: true,
             "[{\"relation\": [\"delegate_permission\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2115.example.net\"} }]",
             checks: []),
        Case(2116, "invalid relation string (3)", googleError: true,
             "[{\"relation\": [\"delegate_permission/write_on_the_walls/foo\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2116.example.net\"} }]",
             checks: []),
        Case(2117, "invalid relation string (4)", googleError: true,
             "[{\"relation\": [\"delegate_permission,write_on_the_walls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2117.example.net\"} }]",
             checks: []),
        Case(2118, "relation string with invalid detail (1)", googleError: true,
             "[{\"relation\": [\"delegate_permission/\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2118.example.net\"} }]",
             checks: []),
        Case(2119, "relation string with invalid detail (2)", googleError: true,
             "[{\"relation\": [\"delegate_permission/write on the walls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2119.example.net\"} }]",
             checks: []),
        Case(2120, "relation string with invalid detail (3)", googleError: true,
             "[{\"relation\": [\"delegate_permission/write+on+the+walls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2120.example.net\"} }]",
             checks: []),
        Case(2121, "relation string with invalid detail (4)", googleError: true,
             "[{\"relation\": [\"delegate_permission/write_on_the_walls!\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2121.example.net\"} }]",
             checks: []),
        Case(2122, "relation string with invalid detail (5)", googleError: true,
             "[{\"relation\": [\"delegate_permission/write_on_the_WALLS\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2122.example.net\"} }]",
             checks: []),
        Case(2123, "relation string with spurious whitespace (1)", googleError: true,
             "[{\"relation\": [\"delegate_permission/write_on_the_walls \"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2123.example.net\"} }]",
             checks: []),
        Case(2124, "relation string with spurious whitespace (2)", googleError: true,
             "[{\"relation\": [\" delegate_permission/write_on_the_walls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2124.example.net\"} }]",
             checks: []),
        Case(2125, "relation string with spurious whitespace (3)", googleError: true,
             "[{\"relation\": [\"delegate_permission / write_on_the_walls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target-case2125.example.net\"} }]",
             checks: []),
        Case(2201, "statement list with a valid statement (typical case)", googleError: false,
             "[{\"target\": {\"namespace\": \"web\", \"site\": \"https://target.example.net\"}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: [.web("delegate_permission/common.get_login_creds", "https://target.example.net", true)]),
        Case(2202, "statement list with a valid statement (statement with identical source and target)", googleError: false,
             "[{\"target\": {\"namespace\": \"web\", \"site\": \"https://case2202.example.net\"}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: [.web("delegate_permission/common.get_login_creds", "https://case2202.example.net", true)]),
        Case(2203, "statement list with a valid statement (source uses a non-standard port number)", googleError: false,
             "[{\"target\": {\"namespace\": \"web\", \"site\": \"https://case2203.example.net\"}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: [.web("delegate_permission/common.get_login_creds", "https://case2203.example.net", true)]),
        Case(2204, "statement list with a valid statement (fully qualified target)", googleError: false,
             "[{\"target\": {\"namespace\": \"web\", \"site\": \"https://target.example.net.\"}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: [.web("delegate_permission/common.get_login_creds", "https://target.example.net", true)]),
        Case(2205, "statement list with a valid statement (Mixed-case URL)", googleError: false,
             "[{\"target\": {\"namespace\": \"web\", \"site\": \"HtTpS://target.example.net\"}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: [.web("delegate_permission/common.get_login_creds", "https://target.example.net", true)]),
        Case(2206, "web asset descriptors must have a URL", googleError: true,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : { \"namespace\": \"web\" } }]",
             checks: []),
        Case(2207, "web asset descriptors must contain valid URLs (the port number is invalid)", googleError: true,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target.example.net:999999\"} }]",
             checks: []),
        Case(2208, "web asset descriptors must contain HTTP or HTTPS URLs", googleError: true,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"mailto://user@example.net\"} }]",
             checks: []),
        Case(2209, "web asset descriptors must contain URLs without login info", googleError: true,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://x:y@target.example.net\"} }]",
             checks: []),
        Case(2210, "web asset descriptors must contain URLs without query parameters", googleError: true,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target.example.net?bar\"} }]",
             checks: []),
        Case(2211, "web asset descriptors must contain URLs without fragment IDs", googleError: true,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target.example.net#bar\"} }]",
             checks: []),
        Case(2212, "web asset descriptors must contain URLs without path components (1)", googleError: true,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target.example.net/\"} }]",
             checks: []),
        Case(2213, "web asset descriptors must contain URLs without path components (2)", googleError: true,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target.example.net/XXX\"} }]",
             checks: []),
        Case(2214, "web asset descriptors must contain URLs without path components (3)", googleError: true,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target.example.net/XXX/\"} }]",
             checks: []),
        Case(2215, "web asset descriptors must contain URLs without path components (4)", googleError: true,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"https://target.example.net/*\"} }]",
             checks: []),
        Case(2216, "web asset descriptors must contain a scheme", googleError: true,
             "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\" : { \"namespace\": \"web\", \"site\": \"target.example.net\"} }]",
             checks: []),
        Case(2301, "statement list with a valid statement (target is an Android app)", googleError: false,
             "[{\"target\": {\"namespace\": \"android_app\", \"package_name\": \"net.example.case2301\", \"sha256_cert_fingerprints\": [\"6F:7A:85:90:9B:A6:B1:BC:C7:D2:DD:E8:F3:FE:09:14:1F:2A:35:40:4B:56:61:6C:77:82:8D:98:A3:AE:B9:C4\"]}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: [.app("delegate_permission/common.get_login_creds", "net.example.case2301", "6F:7A:85:90:9B:A6:B1:BC:C7:D2:DD:E8:F3:FE:09:14:1F:2A:35:40:4B:56:61:6C:77:82:8D:98:A3:AE:B9:C4", true)]),
        Case(2302, "statement list with a valid statement (target is an Android app with two certificates)", googleError: false,
             "[{\"target\": {\"namespace\": \"android_app\", \"package_name\": \"net.example.case2302\", \"sha256_cert_fingerprints\": [\"94:9F:AA:B5:C0:CB:D6:E1:EC:F7:02:0D:18:23:2E:39:44:4F:5A:65:70:7B:86:91:9C:A7:B2:BD:C8:D3:DE:E9\", \"B9:C4:CF:DA:E5:F0:FB:06:11:1C:27:32:3D:48:53:5E:69:74:7F:8A:95:A0:AB:B6:C1:CC:D7:E2:ED:F8:03:0E\"]}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: [.app("delegate_permission/common.get_login_creds", "net.example.case2302", "94:9F:AA:B5:C0:CB:D6:E1:EC:F7:02:0D:18:23:2E:39:44:4F:5A:65:70:7B:86:91:9C:A7:B2:BD:C8:D3:DE:E9", true), .app("delegate_permission/common.get_login_creds", "net.example.case2302", "B9:C4:CF:DA:E5:F0:FB:06:11:1C:27:32:3D:48:53:5E:69:74:7F:8A:95:A0:AB:B6:C1:CC:D7:E2:ED:F8:03:0E", true)]),
        Case(2303, "Android app asset descriptors must have a package name", googleError: true,
             "[{\"target\": {\"namespace\": \"android_app\", \"sha256_cert_fingerprints\": [\"6F:7A:85:90:9B:A6:B1:BC:C7:D2:DD:E8:F3:FE:09:14:1F:2A:35:40:4B:56:61:6C:77:82:8D:98:A3:AE:B9:C4\"]}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: []),
        Case(2304, "Android app asset descriptors must have a certificate fingerprint", googleError: true,
             "[{\"target\": {\"namespace\": \"android_app\", \"package_name\": \"net.example.case2304\"}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: []),
        Case(2305, "Certificate fingerprints in Android app asset descriptors must be given as an array", googleError: true,
             "[{\"target\": {\"namespace\": \"android_app\", \"package_name\": \"net.example.case2305\", \"sha256_cert_fingerprints\": \"6F:7A:85:90:9B:A6:B1:BC:C7:D2:DD:E8:F3:FE:09:14:1F:2A:35:40:4B:56:61:6C:77:82:8D:98:A3:AE:B9:C4\"}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: []),
        Case(2306, "Individual certificate fingerprints in Android app asset descriptors must be strings", googleError: true,
             "[{\"target\": {\"namespace\": \"android_app\", \"package_name\": \"net.example.case2306\", \"sha256_cert_fingerprints\": [{}] }, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: []),
        Case(2307, "Android app asset descriptors must have a non-empty package name", googleError: true,
             "[{\"target\": {\"namespace\": \"android_app\", \"package_name\": \"\", \"sha256_cert_fingerprints\": [\"25:30:3B:46:51:5C:67:72:7D:88:93:9E:A9:B4:BF:CA:D5:E0:EB:F6:01:0C:17:22:2D:38:43:4E:59:64:6F:7A\"]}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: []),
        Case(2308, "Android app asset descriptors must have a valid package name", googleError: true,
             "[{\"target\": {\"namespace\": \"android_app\", \"package_name\": \"B A D\", \"sha256_cert_fingerprints\": [\"25:30:3B:46:51:5C:67:72:7D:88:93:9E:A9:B4:BF:CA:D5:E0:EB:F6:01:0C:17:22:2D:38:43:4E:59:64:6F:7A\"]}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: []),
        Case(2309, "Android app asset descriptors must have at least one certificate", googleError: true,
             "[{\"target\": {\"namespace\": \"android_app\", \"package_name\": \"net.example.case2309\", \"sha256_cert_fingerprints\": []}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: []),
        Case(2310, "Certificate in Android app asset descriptors must be non-empty", googleError: true,
             "[{\"target\": {\"namespace\": \"android_app\", \"package_name\": \"net.example.case2310\", \"sha256_cert_fingerprints\": [\"\"]}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: []),
        Case(2311, "Certificate in Android app asset descriptors must be well-formed (1)", googleError: true,
             "[{\"target\": {\"namespace\": \"android_app\", \"package_name\": \"net.example.case2311\", \"sha256_cert_fingerprints\": [\"B A D\"]}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: []),
        Case(2312, "Certificate in Android app asset descriptors must be well-formed (2)", googleError: true,
             "[{\"target\": {\"namespace\": \"android_app\", \"package_name\": \"net.example.case2312\", \"sha256_cert_fingerprints\": [\"25:30:3b:46:51:5c:67:72:7d:88:93:9e:a9:b4:bf:ca:d5:e0:eb:f6:01:0c:17:22:2d:38:43:4e:59:64:6f:7a\"]}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: []),
        Case(2313, "Certificate in Android app asset descriptors must be well-formed (3)", googleError: true,
             "[{\"target\": {\"namespace\": \"android_app\", \"package_name\": \"net.example.case2313\", \"sha256_cert_fingerprints\": [\"GG:HH:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5\"]}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: []),
        Case(2314, "Certificate in Android app asset descriptors must be well-formed (4)", googleError: true,
             "[{\"target\": {\"namespace\": \"android_app\", \"package_name\": \"net.example.case2314\", \"sha256_cert_fingerprints\": [\"6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5\"]}, \"relation\": [\"delegate_permission/common.get_login_creds\"]}]",
             checks: []),
    ]

    /// The lists the suite's cases include, by case (the included file of 2005).
    static let included: [Int: String] = [
        2005:
            #"[{"target": {"namespace": "web", "site": "https://target-case2005.example.net"}, "relation": ["delegate_permission/common.get_login_creds"]}]"#
    ]

    @Test func theSuiteIsComplete() {
        // General 14, relations 25, web targets 16, Android targets 14.
        #expect(Self.cases.count == 69)
        #expect(Set(Self.cases.map(\.number)).count == 69)
    }

    @Test(arguments: cases)
    func lintFailsExactlyWhenGoogleReportsAnError(_ suiteCase: Case) {
        let bytes = Array(suiteCase.body.utf8)
        let list = StatementList.parse(bytes)
        #expect(list.googleReportsError == suiteCase.googleError, "\(list.problems.map(\.message))")
        let lint = FileLint.lintAssetLinks(bytes, size: bytes.count, expected: [])
        #expect((lint.verdict == .fail) == suiteCase.googleError, "\(lint.findings.map(\.message))")
        // Every error names its statement by index and JSON pointer, with its line and column.
        for problem in list.problems where problem.effect == .skipsStatement {
            #expect(problem.place.hasPrefix("[") && problem.place.contains(" /") && problem.place.contains("line "))
        }
    }

    @Test(arguments: cases)
    func googlesCheckAnswersAgree(_ suiteCase: Case) {
        let bytes = Array(suiteCase.body.utf8)
        var list = StatementList.parse(bytes)
        // An included list's statements count as the file's own (the audit fetches it).
        if let included = Self.included[suiteCase.number] {
            #expect(list.includes.map(\.url) == ["https://source-case2005.example.net/includefile.json"])
            list.statements += StatementList.parse(Array(included.utf8)).statements
        }
        for check in suiteCase.checks {
            switch check {
            case .app(let relation, let package, let fingerprint, let answer):
                let target = StatementList.Target.androidApp(package: package, fingerprints: [fingerprint])
                #expect(list.grants(relation: relation, to: target) == answer, "\(check)")
                if relation == StatementList.handleAllURLs {
                    // lint --android PACKAGE@FINGERPRINT: declared exactly when Google says true.
                    let lint = FileLint.lintAssetLinks(
                        bytes, size: bytes.count, expected: [AndroidApp(package: package, fingerprint: fingerprint)])
                    let missing = lint.findings.contains {
                        [.assetLinks(.packageMissing), .assetLinks(.fingerprintMissing), .assetLinks(.relation)]
                            .contains(
                                $0.code)
                            && $0.message.contains(package) && !$0.message.hasPrefix("[")
                    }
                    #expect(missing == !answer, "\(check): \(lint.findings.map(\.message))")
                }
            case .web(let relation, let site, let answer):
                #expect(list.grants(relation: relation, to: .web(site: site)) == answer, "\(check)")
            }
        }
    }
}
